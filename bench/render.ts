/** The bench's table: the machine, then one section per part of a run's report, in the parts' order (parts.ts). */
import type { BenchPart, Outcome } from "./benchPart";
import { type BenchReport, type Part, PART_ENTRIES, type PartOutcomes, PARTS } from "./parts";

function section<Result>(part: BenchPart<Result>, outcome: Outcome<Result>): string {
  if (outcome.status === "skipped") return `${part.title}\n  skipped`;
  if (outcome.status === "failed") return `${part.title}\n  FAILED after ${outcome.seconds} s: ${outcome.error}`;
  return `${part.title} (${outcome.seconds} s)\n${part.render(outcome.result)}`;
}

const sectionOf = <K extends Part>(name: K, outcomes: PartOutcomes): string => section(PART_ENTRIES[name].part, outcomes[name]);

export function render(report: BenchReport): string {
  const m = report.machine;
  return [
    `pulumi-svc bench, ${report.startedAt}: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}; load average ${m.loadAverageAtStart} at start, ${report.loadAverageAtEnd} at end`,
    ...PARTS.map((name) => sectionOf(name, report)),
  ].join("\n\n");
}
