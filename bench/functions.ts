/**
 * The cost of a provider function call (an invoke) on a warm plugin: the plugin `pulumi-resource-svc` started once,
 * as the engine starts it, configured, then called over gRPC one invoke after the other, against the emulator in its
 * own process. The baseline is the same lookup made directly with the sdk from this process, in the same run: the
 * difference is what the plugin adds (gRPC, argument checks, secret wrapping), the rest is the platform call.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { SvcClient } from "../sdk";
import { typeToken } from "../provider/resources/typeToken";
import { startEmulatorProcess } from "./emulatorProcess";
import type { BenchPart } from "./benchPart";

export interface FunctionsBenchResult {
  invokes: number;
  /** Median wall ms of one getAppToken invoke (one platform call). */
  getAppTokenMs: number;
  /** Median wall ms of the same lookup with the sdk (appTokens.get), the baseline. */
  directGetMs: number;
  /** getAppTokenMs - directGetMs: what an invoke adds to the platform call. */
  overheadMs: number;
  /** Median wall ms of one getSystemTemplates invoke (two list calls). */
  getSystemTemplatesMs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function timed(count: number, call: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return times;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export async function benchFunctions(invokes = 200): Promise<FunctionsBenchResult> {
  const emulator = await startEmulatorProcess();
  const plugin = spawn(join(__dirname, "..", "pulumi-resource-svc", "pulumi-resource-svc"), [], { stdio: ["ignore", "pipe", "inherit"] });
  const client = new SvcClient({ baseUrl: emulator.target.baseUrl, partnerId: emulator.target.partnerId, auth: { adminSecret: emulator.target.adminSecret } });
  let provider: provrpc.ResourceProviderClient | undefined;
  try {
    const lines = createInterface({ input: plugin.stdout! });
    const port = await new Promise<string>((resolve, reject) => {
      lines.once("line", resolve);
      plugin.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before it printed its port`)));
    });
    lines.close();
    provider = new provrpc.ResourceProviderClient(`127.0.0.1:${port.trim()}`, grpc.credentials.createInsecure());
    const unary = <Req, Res>(method: (req: Req, cb: (error: grpc.ServiceError | null, res: Res) => void) => unknown, request: Req) =>
      new Promise<Res>((resolve, reject) => method.call(provider, request, (error, res) => (error ? reject(error) : resolve(res))));

    const { baseUrl, partnerId, adminSecret } = emulator.target;
    await unary(provider.configure, new provproto.ConfigureRequest().setArgs(structproto.Struct.fromJavaScript({ baseUrl, partnerId, adminSecret })));
    const token = await client.appTokens.add({ description: "bench: functions", hashType: "SHA256" });
    const invoke = (name: string, args: Record<string, structproto.JavaScriptValue>) => () =>
      unary(provider!.invoke, new provproto.InvokeRequest().setTok(typeToken(name)).setArgs(structproto.Struct.fromJavaScript(args)));
    const getAppToken = invoke("getAppToken", { id: token.id });
    const direct = () => client.appTokens.get(token.id);

    // Warm: the plugin's session, connections and compiled schemas, and this process's client.
    await timed(20, getAppToken);
    await timed(20, direct);
    const viaPlugin = median(await timed(invokes, getAppToken));
    const viaSdk = median(await timed(invokes, direct));
    const catalog = median(await timed(Math.max(10, Math.floor(invokes / 4)), invoke("getSystemTemplates", {})));
    return {
      invokes,
      getAppTokenMs: round(viaPlugin),
      directGetMs: round(viaSdk),
      overheadMs: round(viaPlugin - viaSdk),
      getSystemTemplatesMs: round(catalog),
    };
  } finally {
    provider?.close();
    if (plugin.exitCode === null) {
      const exited = new Promise((resolve) => plugin.once("exit", resolve));
      plugin.kill("SIGTERM");
      await exited;
    }
    await client.close();
    await emulator.close();
  }
}

/** The report's lines. */
export function renderFunctions(r: FunctionsBenchResult): string {
  return [
    `  ${r.invokes} invokes one after the other on one warm plugin process; medians`,
    `  getAppToken: ${r.getAppTokenMs} ms per invoke; the same lookup with the sdk (baseline): ${r.directGetMs} ms; the invoke adds ${r.overheadMs} ms`,
    `  getSystemTemplates (two list calls): ${r.getSystemTemplatesMs} ms per invoke`,
  ].join("\n");
}

export const functionsPart: BenchPart<FunctionsBenchResult> = {
  title: "Provider functions: the cost of an invoke on a warm plugin",
  run: () => benchFunctions(),
  render: renderFunctions,
};
