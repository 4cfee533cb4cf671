/**
 * One plugin process (`npm run bench -- --only pluginProcess`, in `--shape scale`): what Pulumi pays for every explicit
 * provider of a stack before any work, and what one process holds while it serves. For the npm package's launcher
 * (dist/pulumi-resource-svc: sh, this Node, the bundle, its compile cache warm) and the release's single executable
 * (the same bundle made into a SEA with this Node and its code cache, as scripts/release/executable.mjs makes the
 * host's), side by side:
 *   - CPU from exec to the first Configure answered (user + system of the process, /proc, 10 ms ticks), median of runs;
 *   - idle RSS after that Configure (and its anonymous part: the rest is Node's own binary, shared between processes);
 *   - peak RSS (VmHWM) after serving 50 AppTokens: Check and Create, Read, Delete, 10 at a time, on the emulator.
 * Every process is measured (idle and peak too, medians of the runs); with several plugin folders (another tree's
 * dist/pulumi-resource-svc, a copy with another launcher), all their processes are started in turn within each run,
 * so an A/B shares the machine's load.
 * Run alone: `npm run build && npx node dist/bench/pluginProcess.js [runs] [plugin folder...]`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { repoRoot } from "./engine";
import { type EmulatorTarget, startEmulatorProcess } from "./emulatorProcess";
import type { BenchPart } from "./benchPart";
import { configurePlugin, processCpuMs, unary } from "./pluginClient";

export interface PluginProcessFigures {
  /** CPU ms from exec to the first Configure answered: median, and the runs. */
  startCpuMs: number;
  startCpuRunsMs: number[];
  idleRssMiB: number;
  idleAnonMiB: number;
  /** Peak RSS after serving 50 resources. */
  servingPeakMiB: number;
}

export interface PluginProcessResult {
  resources: number;
  launcher: PluginProcessFigures;
  singleExecutable: PluginProcessFigures;
}

/** One plugin folder's figures in a comparison of several (benchPluginProcesses). */
export interface PluginFolderResult extends PluginProcessResult {
  pluginDir: string;
}

const TYPE = "svc:index:AppToken";

type Props = Record<string, structproto.JavaScriptValue>;
const struct = (value: Props) => structproto.Struct.fromJavaScript(value);
const urn = (name: string) => `urn:pulumi:bench::plugin::${TYPE}::${name}`;

/** The host's SEA of the plugin bundle: this Node's binary with the bundle and its code cache injected, as the release. */
function buildSingleExecutable(pluginDir: string, dir: string): string {
  const config = join(dir, "sea-config.json");
  const blob = join(dir, "sea.blob");
  writeFileSync(
    config,
    JSON.stringify({
      main: join(pluginDir, "pulumi-resource-svc.js"),
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      useSnapshot: false,
    }),
  );
  execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: ["ignore", "ignore", "inherit"] });
  const exe = join(dir, "pulumi-resource-svc");
  copyFileSync(process.execPath, exe);
  const postject = join(repoRoot, "node_modules", "postject", "dist", "cli.js");
  execFileSync(process.execPath, [postject, exe, "NODE_SEA_BLOB", blob, "--sentinel-fuse", "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  // Just written, the whole 120 MB file is in the page cache, and the kernel maps the cached pages around each page
  // a process touches (fault-around): its RSS would count about 15 MiB of the binary it never uses. Written out and
  // dropped from the cache (GNU dd's documented way), it is measured as an installed executable is run.
  execFileSync("sync", [exe]);
  execFileSync("dd", [`if=${exe}`, "iflag=nocache", "count=0"], { stdio: "ignore" });
  return exe;
}

interface Started {
  child: ChildProcess;
  client: provrpc.ResourceProviderClient;
}

async function start(exe: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(exe, [], { env: { ...process.env, SVC_ENGINE_LOG: "off", ...env }, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${exe} exited (${code}) before printing its port`)));
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return { child, client: new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) };
}

const statusKiB = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;

/** Check and Create, Read, Delete of `count` AppTokens, `width` at a time, as the engine sends them. */
async function serve(client: provrpc.ResourceProviderClient, count: number, width: number): Promise<void> {
  const names = Array.from({ length: count }, (_, i) => `bench-${i}`);
  const inBatches = async (each: (name: string) => Promise<void>) => {
    for (let i = 0; i < names.length; i += width) await Promise.all(names.slice(i, i + width).map(each));
  };
  await inBatches(async (name) => {
    const checked = await unary<provproto.CheckRequest, provproto.CheckResponse>(
      client,
      "check",
      new provproto.CheckRequest()
        .setUrn(urn(name))
        .setType(TYPE)
        .setNews(struct({ description: `bench ${name}` }))
        .setOlds(struct({})),
    );
    const created = await unary<provproto.CreateRequest, provproto.CreateResponse>(
      client,
      "create",
      new provproto.CreateRequest().setUrn(urn(name)).setType(TYPE).setProperties(checked.getInputs()!),
    );
    const read = await unary<provproto.ReadRequest, provproto.ReadResponse>(
      client,
      "read",
      new provproto.ReadRequest()
        .setUrn(urn(name))
        .setType(TYPE)
        .setId(created.getId())
        .setProperties(created.getProperties()!)
        .setInputs(checked.getInputs()!),
    );
    await unary<provproto.DeleteRequest, unknown>(
      client,
      "delete",
      new provproto.DeleteRequest().setUrn(urn(name)).setType(TYPE).setId(created.getId()).setProperties(read.getProperties()!),
    );
  });
}

/** A process to measure: an executable and its environment. */
interface Target {
  exe: string;
  env: NodeJS.ProcessEnv;
}

interface Sample {
  cpuMs: number;
  idleRssMiB: number;
  idleAnonMiB: number;
  servingPeakMiB: number;
}

/** One start of `target`: its CPU to the first Configure, its idle RSS after it, its peak after serving `resources`. */
async function sample(target: Target, emulator: EmulatorTarget, resources: number): Promise<Sample> {
  const { child, client } = await start(target.exe, target.env);
  try {
    await configurePlugin(client, emulator);
    const cpuMs = processCpuMs(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleRssMiB = mib(statusKiB(child.pid!, "VmRSS"));
    const idleAnonMiB = mib(statusKiB(child.pid!, "RssAnon"));
    if (resources > 0) await serve(client, resources, 10);
    return { cpuMs, idleRssMiB, idleAnonMiB, servingPeakMiB: mib(statusKiB(child.pid!, "VmHWM")) };
  } finally {
    client.close();
    child.kill("SIGKILL");
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `runs` starts of each target, the targets in turn within a run (reversed every other run): medians per target. */
async function measure(targets: Target[], emulator: EmulatorTarget, runs: number, resources: number): Promise<PluginProcessFigures[]> {
  const samples: Sample[][] = targets.map(() => []);
  for (let run = 0; run < runs; run++) {
    const order = targets.map((_, i) => i);
    if (run % 2 === 1) order.reverse();
    for (const i of order) samples[i]!.push(await sample(targets[i]!, emulator, resources));
  }
  return samples.map((of) => ({
    startCpuMs: median(of.map((s) => s.cpuMs)),
    startCpuRunsMs: of.map((s) => s.cpuMs),
    idleRssMiB: median(of.map((s) => s.idleRssMiB)),
    idleAnonMiB: median(of.map((s) => s.idleAnonMiB)),
    servingPeakMiB: median(of.map((s) => s.servingPeakMiB)),
  }));
}

/** Each folder's launcher and single executable, all measured in turn within each run (each serve deletes what it made). */
export async function benchPluginProcesses(options: { runs?: number; resources?: number; pluginDirs?: string[] } = {}): Promise<PluginFolderResult[]> {
  const pluginDirs = options.pluginDirs?.length ? options.pluginDirs : [join(repoRoot, "dist", "pulumi-resource-svc")];
  const runs = options.runs ?? 9;
  const resources = options.resources ?? 50;
  const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-plugin-process-"));
  const emulator = await startEmulatorProcess();
  try {
    const node = join(repoRoot, "node_modules", "node", "bin", "node");
    const targets: Target[] = [];
    pluginDirs.forEach((pluginDir, i) => {
      // Each launcher's compile cache in a TMPDIR of its own in this run, warmed by one start before the measured ones.
      const own = join(dir, String(i));
      mkdirSync(own);
      targets.push({ exe: join(pluginDir, "pulumi-resource-svc"), env: { PULUMI_SVC_NODE: node, TMPDIR: own } });
      targets.push({ exe: buildSingleExecutable(pluginDir, own), env: {} });
    });
    for (const target of targets) await sample(target, emulator.target, 0);
    const figures = await measure(targets, emulator.target, runs, resources);
    return pluginDirs.map((pluginDir, i) => ({ pluginDir, resources, launcher: figures[2 * i]!, singleExecutable: figures[2 * i + 1]! }));
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchPluginProcess(options: { runs?: number; resources?: number; pluginDir?: string } = {}): Promise<PluginProcessResult> {
  const [only] = await benchPluginProcesses({ ...options, pluginDirs: options.pluginDir ? [options.pluginDir] : undefined });
  const { pluginDir: _, ...result } = only!;
  return result;
}

/** The part's lines for the bench report. */
export function renderPluginProcess(r: PluginProcessResult): string {
  const row = (name: string, f: PluginProcessFigures) =>
    `  ${name.padEnd(20)} ${String(f.startCpuMs).padStart(6)} ms  ${String(f.idleRssMiB).padStart(6)} MiB (${f.idleAnonMiB} anonymous)  ${String(f.servingPeakMiB).padStart(6)} MiB`;
  return [
    `  one plugin process: CPU exec to first Configure answered (median), idle RSS after it, peak RSS after serving ${r.resources} AppTokens`,
    row("npm launcher", r.launcher),
    row("single executable", r.singleExecutable),
  ].join("\n");
}

export const pluginProcessPart: BenchPart<PluginProcessResult> = {
  title: "One plugin process: start, idle and serving, launcher and single executable",
  run: () => benchPluginProcess(),
  render: renderPluginProcess,
};

if (require.main === module) {
  const pluginDirs = process.argv.slice(3);
  benchPluginProcesses({ runs: process.argv[2] ? Number(process.argv[2]) : undefined, pluginDirs }).then(
    (results) => {
      console.log(`${JSON.stringify(results, null, 2)}\nload average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
      for (const result of results) console.log(`${result.pluginDir}\n${renderPluginProcess(result)}`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
