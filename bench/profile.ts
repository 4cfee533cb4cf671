/**
 * Where the time goes: runs `up`, `preview`, `refresh` and `destroy` of N AppTokens and of N no-op dynamic resources
 * once each, with the language host and the dynamic provider host under the CPU profiler (bench/probe), and prints,
 * per operation and process, the CPU time and the self time by package (zod, grpc-js, google-protobuf, pulumi-svc,
 * @pulumi/pulumi, node internals, garbage collection...) and the heaviest functions. The .cpuprofile files stay in
 * the directory it prints (open them in Chrome DevTools). Not part of `npm run bench`: profiling slows what it measures.
 *   npm run build && npx node dist/bench/profile.js [resources=200] [operations=up,preview,refresh,destroy] [--skip-checkpoints]
 * --skip-checkpoints sets PULUMI_SKIP_CHECKPOINTS=true (the engine writes the state once at the end instead of after
 * every step): the difference is what the checkpoint writes cost.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchStack, type BenchStack } from "./engine";
import { startEmulatorProcess } from "./emulatorProcess";
import { OPERATIONS, PROGRAMS, type Operation, type Program } from "./providerFigures";
import { fmt, table } from "./report";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The package (or kind of work) a profile frame belongs to. */
function category(frame: ProfileNode["callFrame"]): string {
  const { url, functionName } = frame;
  if (functionName === "(garbage collector)") return "(gc)";
  if (functionName === "(idle)") return "(idle)";
  if (functionName === "(program)") return "(v8/native)";
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    const pkg = rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
    if (pkg === "@pulumi/pulumi") return `@pulumi/pulumi/${rest[2] ?? ""}`.replace(/\.js$/, "");
    return pkg;
  }
  if (url.includes("/dist/"))
    return `pulumi-svc ${url
      .slice(url.indexOf("/dist/") + 6)
      .split("/")
      .slice(0, 2)
      .join("/")}`;
  return "(other)";
}

/** Self time (ms) by category and by function, and the total sampled time of one profile. */
function summarize(profile: CpuProfile): { totalMs: number; byCategory: Map<string, number>; byFunction: Map<string, number> } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = nodes.get(id)!;
    const cat = category(node.callFrame);
    if (cat === "(idle)") return;
    totalMs += ms;
    byCategory.set(cat, (byCategory.get(cat) ?? 0) + ms);
    const fn = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/dist\//, "dist/")}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  });
  return { totalMs, byCategory, byFunction };
}

const top = (m: Map<string, number>, n: number): [string, number][] => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => a !== "--skip-checkpoints");
  const skipCheckpoints = process.argv.includes("--skip-checkpoints");
  const resources = Number(args[0] ?? 200);
  const operations = (args[1]?.split(",") ?? [...OPERATIONS]) as Operation[];
  const keep = mkdtempSync(join(tmpdir(), "pulumi-svc-profile-"));
  const emulator = await startEmulatorProcess();
  const stacks: Partial<Record<Program, BenchStack>> = {};
  try {
    for (const program of PROGRAMS) {
      stacks[program] = await benchStack(program, { cpuProfile: true, env: skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {} });
      await stacks[program].stack.setConfig("count", { value: String(resources) });
    }
    await stacks.appTokens!.stack.setAllConfig({
      "svc:baseUrl": { value: emulator.target.baseUrl },
      "svc:partnerId": { value: String(emulator.target.partnerId) },
      "svc:adminSecret": { value: emulator.target.adminSecret, secret: true },
    });
    for (const op of OPERATIONS) {
      for (const program of PROGRAMS) {
        const bench = stacks[program]!;
        bench.clearProbe();
        const dir = join(keep, `${op}-${program}`);
        mkdirSync(dir);
        const before = new Set(readdirSync(bench.probeDir));
        const start = performance.now();
        await bench.stack[op]();
        const ms = performance.now() - start;
        const files = readdirSync(bench.probeDir).filter((f) => f.endsWith(".cpuprofile") && !before.has(f));
        for (const f of files) cpSync(join(bench.probeDir, f), join(dir, f));
        if (!operations.includes(op)) continue;
        const probed = bench.probed();
        process.stdout.write(
          `\n${op} ${program} (${resources}${skipCheckpoints ? ", PULUMI_SKIP_CHECKPOINTS" : ""}): ${Math.round(ms)} ms wall; CPU s: program ${fmt((probed.program?.cpuMicros ?? 0) / 1e6, 2)}, provider ${fmt((probed.provider?.cpuMicros ?? 0) / 1e6, 2)}; checkpoint ${fmt(bench.checkpointBytes())} B\n`,
        );
        for (const f of files) {
          const s = summarize(JSON.parse(readFileSync(join(dir, f), "utf8")) as CpuProfile);
          process.stdout.write(`  ${f.split("-")[0]}: ${fmt(s.totalMs)} ms CPU sampled\n`);
          process.stdout.write(
            `${table(
              ["self time by package", "ms", "%"],
              top(s.byCategory, 10).map(([k, v]) => [k, fmt(v), fmt((100 * v) / s.totalMs, 1)]),
            )}\n`,
          );
          process.stdout.write(
            `${table(
              ["heaviest functions (self)", "ms"],
              top(s.byFunction, 8).map(([k, v]) => [k.slice(0, 110), fmt(v)]),
            )}\n`,
          );
        }
      }
    }
    process.stdout.write(`\nprofiles kept in ${keep}\n`);
  } finally {
    await Promise.all(Object.values(stacks).map((s) => s.cleanup()));
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
