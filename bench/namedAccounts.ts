/**
 * Named accounts against one account (`npm run bench -- --only namedAccounts`, not in the default run): the same
 * number of AppTokens in many accounts served by one provider (`svc:accounts`, each token's `account`: one plugin
 * process) against all of them on one account, through the engine, each comparison in one run of the scale shapes
 * (bench/scale.ts):
 *   - 20 accounts x 5 tokens against 100 x 1 (and 20 explicit providers, a process each, beside them),
 *   - 100 accounts x 10 against 1,000 x 1,
 * on up, preview and refresh (destroy always runs: the next comparison starts empty). Per operation: the CPU of all
 * the operation's processes, its ratio to one account's, the plugin processes and the largest one's peak RSS.
 * Issue 40's targets: at most 1.3x the CPU, one process of at most 160 MiB at 100 accounts.
 */
import type { BenchPart } from "./benchPart";
import { fmt, table } from "./report";
import { benchScale, type ScaleBenchResult, type ScaleOperation, type ScaleProgram } from "./scale";

export interface NamedAccountsComparison {
  accounts: number;
  perAccount: number;
  result: ScaleBenchResult;
}

export interface NamedAccountsResult {
  comparisons: NamedAccountsComparison[];
}

const OPERATIONS: readonly ScaleOperation[] = ["up", "preview", "refresh"];

export async function benchNamedAccounts(log?: (line: string) => void): Promise<NamedAccountsResult> {
  const comparisons: NamedAccountsComparison[] = [];
  const shapes: { accounts: number; perAccount: number; programs: ScaleProgram[] }[] = [
    { accounts: 20, perAccount: 5, programs: ["tokensPlugin", "accountTokensNamed", "accountTokensPlugin"] },
    { accounts: 100, perAccount: 10, programs: ["tokensPlugin", "accountTokensNamed"] },
  ];
  for (const shape of shapes) {
    const result = await benchScale({
      sizes: [shape.accounts * shape.perAccount],
      programs: shape.programs,
      operations: OPERATIONS,
      accounts: shape.accounts,
      ...(log ? { log } : {}),
    });
    comparisons.push({ accounts: shape.accounts, perAccount: shape.perAccount, result });
    // Each comparison as it ends (the second takes long): its table on stderr.
    process.stderr.write(`${renderNamedAccounts({ comparisons: [comparisons.at(-1)!] })}\n`);
  }
  return { comparisons };
}

export const namedAccountsPart: BenchPart<NamedAccountsResult> = {
  title: "Named accounts: N accounts x M AppTokens on one provider against N x M AppTokens on one account (CPU of all processes, one run each)",
  run: () => benchNamedAccounts(),
  render: renderNamedAccounts,
};

function renderNamedAccounts(r: NamedAccountsResult): string {
  const rows = r.comparisons.flatMap(({ accounts, perAccount, result }) => {
    const size = result.sizes[0];
    if (!size) return [];
    const cpu = (p: ScaleProgram, op: ScaleOperation) => {
      const s = size.samples[p][op];
      return s ? s.cpu.program + s.cpu.provider + s.cpu.rest : Number.NaN;
    };
    return [...OPERATIONS, "destroy" as const].flatMap((op) =>
      (["accountTokensNamed", "accountTokensPlugin"] as const)
        .filter((p) => size.samples[p][op])
        .map((p) => {
          const s = size.samples[p][op]!;
          return [
            `${accounts} x ${perAccount}`,
            op,
            p === "accountTokensNamed" ? "named accounts" : "explicit providers",
            fmt(cpu("tokensPlugin", op), 2),
            fmt(cpu(p, op), 2),
            fmt(cpu(p, op) / cpu("tokensPlugin", op), 2),
            fmt(s.providerProcesses),
            fmt(s.providerPeakMiB, 1),
            fmt(s.allPeakMiB, 0),
          ];
        }),
    );
  });
  const failures = r.comparisons.flatMap((c) => c.result.failures);
  return [
    table(["shape", "operation", "program", "CPU s, one account", "CPU s", "CPU ratio", "plugin processes", "largest peak MiB", "all peaks MiB"], rows),
    ...(failures.length > 0 ? [`  failures: ${failures.join("; ")}`] : []),
  ].join("\n");
}
