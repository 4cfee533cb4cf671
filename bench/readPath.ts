/**
 * Where a Read's CPU goes in the plugin: a plugin process (dist/plugin/main.js, as the engine would start it, the
 * emulator in a process of its own) serves N AppTokens' Reads, `width` in flight as the engine keeps them, this
 * process being the engine. Prints the plugin's CPU per Read (user + system, /proc, 10 ms ticks) per round and,
 * with --profile, the self time of the Reads (startup and creates left out) by layer and the heaviest functions.
 * Several plugin entries (another tree's dist/plugin/main.js) are measured round by round, interleaved, on the
 * same objects: a comparison under the same load. Not part of `npm run bench`.
 *   npm run build && npx node dist/bench/readPath.js [reads=1000] [rounds=3] [--width 8] [--profile] [entry.js...]
 * (an entry with node options before its file, quoted: "--a-flag dist/plugin/main.js").
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { repoRoot } from "./engine";
import { type EmulatorTarget, startEmulatorProcess } from "./emulatorProcess";
import { configurePlugin, processCpuMs, unary } from "./pluginClient";
import { fmt, table } from "./report";

const TYPE = "svc:index:AppToken";
const urn = (name: string) => `urn:pulumi:bench::read::${TYPE}::${name}`;
const struct = (value: Record<string, structproto.JavaScriptValue>) => structproto.Struct.fromJavaScript(value);

interface Plugin {
  entry: string;
  child: ChildProcess;
  client: provrpc.ResourceProviderClient;
  profileDir?: string;
}

/** A resource as the engine holds it after `up`: its id, its state and its inputs (the admin secret stays a secret). */
interface Held {
  name: string;
  id: string;
  properties: structproto.Struct;
  inputs: structproto.Struct;
}

async function startPlugin(entry: string, target: EmulatorTarget, profile: boolean): Promise<Plugin> {
  const profileDir = profile ? mkdtempSync(join(tmpdir(), "pulumi-svc-read-profile-")) : undefined;
  // An entry may start with node options ("--some-flag dist/plugin/main.js"): a flag measured against no flag.
  const nodeOptions = entry.split(" ");
  const file = nodeOptions.pop()!;
  const args = [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), ...nodeOptions, file];
  const child = spawn(process.execPath, args, { env: { ...process.env, SVC_ENGINE_LOG: "off" }, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${entry} exited (${code}) before printing its port`)));
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  await configurePlugin(client, target);
  return { entry, child, client, profileDir };
}

/** Ends a plugin as the engine does (SIGINT): the profiler writes its file at the exit. */
async function stopPlugin(plugin: Plugin): Promise<void> {
  plugin.client.close();
  const exited = new Promise((resolve) => plugin.child.once("exit", resolve));
  plugin.child.kill("SIGINT");
  await exited;
}

async function inFlight<T>(items: readonly T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

async function createAll(plugin: Plugin, count: number, width: number): Promise<Held[]> {
  const held: Held[] = [];
  const names = Array.from({ length: count }, (_, i) => `read-${i}`);
  await inFlight(names, width, async (name) => {
    const checked = await unary<provproto.CheckRequest, provproto.CheckResponse>(
      plugin.client,
      "check",
      new provproto.CheckRequest()
        .setUrn(urn(name))
        .setType(TYPE)
        .setNews(struct({ description: `read path ${name}` }))
        .setOlds(struct({})),
    );
    const created = await unary<provproto.CreateRequest, provproto.CreateResponse>(
      plugin.client,
      "create",
      new provproto.CreateRequest().setUrn(urn(name)).setType(TYPE).setProperties(checked.getInputs()!),
    );
    held.push({ name, id: created.getId(), properties: created.getProperties()!, inputs: checked.getInputs()! });
  });
  return held;
}

/** One refresh's Reads; the plugin's CPU and the monotonic time window (µs, the profiler's clock) they took. */
async function readAll(plugin: Plugin, held: readonly Held[], width: number): Promise<{ cpuMs: number; fromUs: number; toUs: number }> {
  const cpuBefore = processCpuMs(plugin.child.pid!);
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  await inFlight(held, width, async (h) => {
    const read = await unary<provproto.ReadRequest, provproto.ReadResponse>(
      plugin.client,
      "read",
      new provproto.ReadRequest().setUrn(urn(h.name)).setType(TYPE).setId(h.id).setProperties(h.properties).setInputs(h.inputs),
    );
    if (read.getId() !== h.id) throw new Error(`Read of ${h.id} answered id '${read.getId()}'`);
  });
  const toUs = Number(process.hrtime.bigint() / 1000n);
  return { cpuMs: processCpuMs(plugin.child.pid!) - cpuBefore, fromUs, toUs };
}

// ---- the profile, by layer ----

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const JSON_BUILTINS = new Set(["parse", "stringify", "JSONParse", "JSONStringify"]);

/** The layer of the Read path a frame belongs to. */
function layer(frame: ProfileNode["callFrame"]): string {
  const { url, functionName } = frame;
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(program)") return "V8/native (program)";
  if (!url) return JSON_BUILTINS.has(functionName) ? "JSON (native)" : "builtins (native)";
  if (url.startsWith("node:")) return /http2|net|stream|tcp|buffer/.test(url) ? "node http2/net/streams" : "node internals (other)";
  if (url.includes("node_modules/google-protobuf/google/protobuf/struct_pb")) return "Struct conversion (google-protobuf)";
  if (url.includes("node_modules/google-protobuf") || url.includes("/proto/")) return "protobuf encode/decode";
  if (url.includes("node_modules/undici")) return "sdk transport (undici)";
  if (url.includes("node_modules/zod")) return "zod";
  if (url.includes("node_modules/")) return `other packages (${url.slice(url.lastIndexOf("node_modules/") + 13).split("/")[0]})`;
  if (/\/plugin\/(grpcServer|grpcWire|grpcUnaryCall|providerMethods)\./.test(url)) return "gRPC transport (plugin)";
  if (url.includes("/plugin/answers.")) return "Struct conversion (plugin/answers)";
  if (url.includes("/plugin/properties.")) return "secrets walk (plugin/properties)";
  if (url.includes("/plugin/")) return "plugin (other)";
  if (url.includes("/provider/runtime/")) return "handlers (provider/runtime)";
  if (url.includes("/provider/")) return "provider core/definitions";
  if (url.includes("/sdk/")) return "sdk";
  return "other";
}

/** Self time (ms) by layer and by function of the samples between fromUs and toUs (windows of the reads). */
function summarize(profile: CpuProfile, windows: readonly { fromUs: number; toUs: number }[]) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byLayer = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const deltaUs = profile.timeDeltas[i] ?? 0;
    at += deltaUs;
    if (!windows.some((w) => at >= w.fromUs && at <= w.toUs)) return;
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const ms = deltaUs / 1000;
    const name = layer(frame);
    byLayer.set(name, (byLayer.get(name) ?? 0) + ms);
    const where = frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/dist\//, "dist/");
    const fn = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  });
  return { byLayer, byFunction };
}

const top = (m: Map<string, number>, n: number): [string, number][] => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const profile = argv.includes("--profile");
  const widthAt = argv.indexOf("--width");
  const width = widthAt >= 0 ? Number(argv[widthAt + 1]) : 8;
  const rest = argv.filter((a, i) => a !== "--profile" && (widthAt < 0 || (i !== widthAt && i !== widthAt + 1)));
  const numbers = rest.filter((a) => /^\d+$/.test(a)).map(Number);
  const reads = numbers[0] ?? 1000;
  const rounds = numbers[1] ?? 3;
  const entries = rest.filter((a) => !/^\d+$/.test(a));
  if (entries.length === 0) entries.push(join(repoRoot, "dist", "plugin", "main.js"));

  const emulator = await startEmulatorProcess();
  const plugins: Plugin[] = [];
  try {
    for (const entry of entries) plugins.push(await startPlugin(entry, emulator.target, profile));
    const held = await createAll(plugins[0]!, reads, width);
    // One round unmeasured each: the code of the Read path compiled and optimized, as in a long refresh.
    for (const plugin of plugins) await readAll(plugin, held, width);
    const cpu = plugins.map(() => [] as number[]);
    const windows = plugins.map(() => [] as { fromUs: number; toUs: number }[]);
    // Multirequests per round: how many Reads shared one depends on timing, so on the load.
    const requests = plugins.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      for (const [i, plugin] of plugins.entries()) {
        await emulator.resetStats();
        const r = await readAll(plugin, held, width);
        const stats = await emulator.stats();
        if (process.env.READ_PATH_STATS) console.log(stats);
        requests[i]!.push(stats.multirequest ?? 0);
        cpu[i]!.push(r.cpuMs);
        windows[i]!.push(r);
      }
    }
    for (const plugin of plugins) await stopPlugin(plugin);
    const perRead = (ms: number) => fmt((ms / reads) * 1000, 0);
    console.log(
      `${reads} Reads of AppTokens, ${width} in flight, ${rounds} rounds (plugin CPU, µs per Read; load ${(await import("node:os")).loadavg()[0]!.toFixed(1)})`,
    );
    console.log(
      table(
        ["plugin", ...Array.from({ length: rounds }, (_, r) => `round ${r + 1}`), "median"],
        plugins.map((p, i) => {
          const sorted = [...cpu[i]!].sort((a, b) => a - b);
          return [p.entry, ...cpu[i]!.map(perRead), perRead(sorted[Math.floor(sorted.length / 2)]!)];
        }),
      ),
    );
    console.log(`multirequests per round: ${plugins.map((p, i) => `${p.entry} ${requests[i]!.join(", ")}`).join("; ")}`);
    if (!profile) return;
    for (const [i, plugin] of plugins.entries()) {
      // The windows beside the profile: what a look at it in other tools should keep (the Reads measured).
      writeFileSync(join(plugin.profileDir!, "read-windows.json"), JSON.stringify(windows[i]));
      const file = readdirSync(plugin.profileDir!).find((f) => f.endsWith(".cpuprofile"));
      if (!file) throw new Error(`no profile written in ${plugin.profileDir}`);
      const { byLayer, byFunction } = summarize(JSON.parse(readFileSync(join(plugin.profileDir!, file), "utf8")) as CpuProfile, windows[i]!);
      const total = [...byLayer.values()].reduce((a, b) => a + b, 0);
      const per = (ms: number) => fmt((ms / (reads * rounds)) * 1000, 1);
      console.log(`\n${plugin.entry}: self time of the measured Reads, ${per(total)} µs per Read (profile in ${plugin.profileDir})`);
      console.log(
        table(
          ["layer", "µs/Read", "share"],
          top(byLayer, 30).map(([k, ms]) => [k, per(ms), `${fmt((ms / total) * 100, 0)}%`]),
        ),
      );
      console.log(
        table(
          ["function", "µs/Read"],
          top(byFunction, 40).map(([k, ms]) => [k, per(ms)]),
        ),
      );
    }
  } finally {
    for (const plugin of plugins) if (plugin.child.exitCode === null) plugin.child.kill("SIGKILL");
    await emulator.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  });
}
