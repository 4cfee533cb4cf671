/** The fastest of a few runs of `work`, in nanoseconds (the least disturbed by other processes on the machine). */
export function fastestRunNs(work: () => void, runs: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const start = process.hrtime.bigint();
    work();
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  return best;
}
