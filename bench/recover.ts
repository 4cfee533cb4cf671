/**
 * What `pulumi-svc recover` costs when there is nothing to recover, the case of every pipeline run: a stack of 1,000
 * app tokens (a state imported with `pulumi stack import`, so no platform is needed), nothing pending, no failed
 * update. Recover then reads the state and the history through the `pulumi` CLI and stops, with no listing of the
 * platform. Baseline, measured in the same run: `pulumi stack export` alone (the one read no recover can avoid).
 * Run alone with `node dist/bench/recover.js [resources] [rounds]` (after `npm run build`).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { recover } from "../provider/cli/recover";
import { pulumiCli } from "../provider/cli/recoverPulumi";
import { dynamicTypeToken } from "../provider/resources/typeToken";
import { engineBinDir } from "../scripts/engineEnv";
import { benchStack } from "./engine";
import type { BenchPart } from "./benchPart";
import { fmt, table } from "./report";

export interface RecoverBenchResult {
  resources: number;
  rounds: number;
  /** Median of the rounds, milliseconds. */
  recoverMs: number;
  exportMs: number;
  /** recover / export. */
  ratio: number;
  outcome: string;
}

/**
 * A version-3 deployment of `count` dynamic AppTokens of stack `stack` in project `project`, as the engine writes it
 * (outputs without a token value: nothing secret is needed to measure reading it).
 */
export function syntheticDeployment(project: string, stack: string, count: number): Record<string, unknown> {
  const prefix = `urn:pulumi:${stack}::${project}`;
  const stackUrn = `${prefix}::pulumi:pulumi:Stack::${project}-${stack}`;
  const providerUrn = `${prefix}::pulumi:providers:pulumi-nodejs::default`;
  const created = "2026-01-01T00:00:00Z";
  const resources: Record<string, unknown>[] = [
    { urn: stackUrn, custom: false, type: "pulumi:pulumi:Stack", created, modified: created },
    { urn: providerUrn, custom: true, id: "00000000-0000-4000-8000-000000000000", type: "pulumi:providers:pulumi-nodejs", created, modified: created },
  ];
  for (let i = 0; i < count; i++) {
    const id = `0_${i.toString(36).padStart(8, "0")}`;
    const fields = { description: `token ${i}`, hashType: "SHA256", sessionType: "USER", sessionPrivileges: `list:${i}` };
    resources.push({
      urn: `${prefix}::${dynamicTypeToken("AppToken")}::t${i}`,
      custom: true,
      id,
      type: dynamicTypeToken("AppToken"),
      inputs: fields,
      outputs: { ...fields, tokenId: id, partnerId: 101, status: 2, sessionDuration: 86400, sessionUserId: "", expiry: 0, createdAt: 1_767_225_600 },
      parent: stackUrn,
      provider: `${providerUrn}::00000000-0000-4000-8000-000000000000`,
      created,
      modified: created,
    });
  }
  // The engine checks the manifest's magic: the SHA-256 of its version string.
  const version = "v3.274.1";
  const magic = createHash("sha256").update(version).digest("hex");
  return { version: 3, deployment: { manifest: { time: created, magic, version }, resources } };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function benchRecover(options: { resources?: number; rounds?: number; log?: (line: string) => void } = {}): Promise<RecoverBenchResult> {
  const resources = options.resources ?? 1_000;
  const rounds = options.rounds ?? 3;
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench recover] ${line}\n`));
  const bench = await benchStack("noop");
  try {
    const { stack } = bench;
    const project = (await stack.workspace.projectSettings()).name;
    await stack.importStack(syntheticDeployment(project, stack.name, resources) as never);
    const env = { ...process.env, ...stack.workspace.envVars };
    const cwd = stack.workspace.workDir;
    const binary = join(engineBinDir(), "pulumi");
    const exportMs: number[] = [];
    const recoverMs: number[] = [];
    let outcome = "";
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      execFileSync(binary, ["stack", "export", "--stack", stack.name, "--non-interactive"], {
        cwd,
        env,
        maxBuffer: 1 << 30,
        stdio: ["ignore", "pipe", "pipe"],
      });
      exportMs.push(performance.now() - started);
      const result = await recover({ stack: stack.name }, { cli: pulumiCli({ stack: stack.name, cwd, env, binary }), out: () => undefined });
      recoverMs.push(result.timings.totalMs);
      outcome = result.outcome;
    }
    const figures = { resources, rounds, recoverMs: Math.round(median(recoverMs)), exportMs: Math.round(median(exportMs)), outcome };
    log(`${resources} resources, nothing pending: recover ${figures.recoverMs} ms (${outcome}), stack export alone ${figures.exportMs} ms`);
    return { ...figures, ratio: Number((figures.recoverMs / Math.max(1, figures.exportMs)).toFixed(2)) };
  } finally {
    await bench.cleanup();
  }
}

export const recoverPart: BenchPart<RecoverBenchResult> = {
  title: "pulumi-svc recover with nothing to recover (a stack of N resources; baseline: pulumi stack export alone)",
  run: () => benchRecover(),
  render: (r) =>
    table(
      ["resources", "recover ms", "stack export ms", "recover / export", "outcome"],
      [[fmt(r.resources), fmt(r.recoverMs), fmt(r.exportMs), fmt(r.ratio, 2), r.outcome]],
    ),
};

if (require.main === module) {
  const [resources, rounds] = process.argv.slice(2).map(Number);
  benchRecover({ ...(resources ? { resources } : {}), ...(rounds ? { rounds } : {}) }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
