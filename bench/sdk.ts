/**
 * sdk throughput vs raw undici, same emulator, same run: appToken.get through SvcClient (form encoding,
 * session cache, retry wrapper, JSON parse, zod validation) against a hand-written undici POST of the same
 * form body (JSON parse only). Reports ops/s of each, the ratio (aim: >= 0.9), and the client's own CPU time
 * per call of each side. The emulator runs in its own process (as a real server would), so the client's CPU
 * is not shared with the server's and the CPU per call is the client's alone. Bounded in time.
 * Then the cost of one redaction of an error message with the client's own few secrets registered (the baseline),
 * and with 20,000 more registered (the registry keeps MAX_KNOWN_SECRETS of them), measured in the same run.
 * Run alone: `npm run build && node dist/bench/sdk.js`.
 */
import { Agent, request } from "undici";
import { SvcClient } from "../sdk";
import { knownSecretCount, redact, registerSecret } from "../sdk/core/redact";
import { startEmulatorProcess, type EmulatorProcess, type EmulatorTarget } from "./emulatorProcess";
import type { BenchPart } from "./benchPart";
import { fmt, table } from "./report";

export type { EmulatorTarget };

export interface SdkBenchOptions {
  /** Measured time per round and side; default 1000 ms (4 rounds each side, interleaved). */
  roundMs?: number;
  /** Calls in flight at once; default 8. */
  concurrency?: number;
}

export interface SdkBenchResult {
  operation: "appToken.get";
  concurrency: number;
  rawOpsPerSec: number;
  sdkOpsPerSec: number;
  /** sdk / raw; 1 means the sdk costs nothing. */
  ratio: number;
  /** The client process's CPU time per call (user + system), in microseconds. */
  rawCpuMicrosPerCall: number;
  sdkCpuMicrosPerCall: number;
  redaction: RedactionCost;
}

export interface RedactionCost {
  /** Characters of the message redacted. */
  messageChars: number;
  /** Secrets known for the baseline (the client's own), and the microseconds of one redaction with them. */
  fewSecrets: number;
  fewMicros: number;
  /** Secrets registered for the second figure, those the registry kept, and the microseconds of one redaction. */
  manyRegistered: number;
  manyKept: number;
  manyMicros: number;
}

/** Takes a running emulator (its baseUrl, or the full target) or starts one on port 0. */
export async function benchSdk(emulator?: string | EmulatorTarget, options: SdkBenchOptions = {}): Promise<SdkBenchResult> {
  const roundMs = options.roundMs ?? 1000;
  const concurrency = options.concurrency ?? 8;
  let started: EmulatorProcess | undefined;
  let target: EmulatorTarget;
  if (emulator === undefined) {
    started = await startEmulatorProcess();
    target = started.target;
  } else if (typeof emulator === "string") {
    const account = (await (await fetch(`${new URL(emulator).origin}/_emulator/account`)).json()) as { partnerId: number; adminSecret: string };
    target = { baseUrl: emulator, ...account };
  } else {
    target = emulator;
  }

  const client = new SvcClient({ baseUrl: target.baseUrl, partnerId: target.partnerId, auth: { adminSecret: target.adminSecret }, connections: concurrency });
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  try {
    const token = await client.appTokens.add({ hashType: "SHA256", description: "bench" });
    const ks = (await client.sessions.start()).ks;
    const url = `${target.baseUrl.replace(/\/+$/, "")}/service/appToken/action/get`;
    const body = new URLSearchParams({ format: "1", ks, id: token.id }).toString();

    const raw = async (): Promise<void> => {
      const res = await request(url, { method: "POST", dispatcher: agent, body, headers: { "content-type": "application/x-www-form-urlencoded" } });
      const parsed = (await res.body.json()) as { id?: string };
      if (res.statusCode !== 200 || parsed.id !== token.id) throw new Error("raw appToken.get failed");
    };
    const sdk = async (): Promise<void> => {
      await client.appTokens.get(token.id);
    };

    // Warm-up both paths (JIT of sdk and emulator, sockets), then interleave rounds so drift hits both equally.
    await measure(raw, 1000, concurrency);
    await measure(sdk, 1000, concurrency);
    const raws = { ops: 0, cpu: 0 };
    const sdks = { ops: 0, cpu: 0 };
    const add = (into: { ops: number; cpu: number }, m: Measured) => ((into.ops += m.ops), (into.cpu += m.cpuMicros));
    for (let round = 0; round < ROUNDS; round++) {
      const rawFirst = round % 2 === 0;
      if (rawFirst) add(raws, await measure(raw, roundMs, concurrency));
      add(sdks, await measure(sdk, roundMs, concurrency));
      if (!rawFirst) add(raws, await measure(raw, roundMs, concurrency));
    }
    await client.appTokens.delete(token.id);
    const redaction = measureRedaction();
    const seconds = (ROUNDS * roundMs) / 1000;
    const rawOpsPerSec = Math.round(raws.ops / seconds);
    const sdkOpsPerSec = Math.round(sdks.ops / seconds);
    return {
      operation: "appToken.get",
      concurrency,
      rawOpsPerSec,
      sdkOpsPerSec,
      ratio: Number((sdkOpsPerSec / rawOpsPerSec).toFixed(3)),
      rawCpuMicrosPerCall: Math.round(raws.cpu / raws.ops),
      sdkCpuMicrosPerCall: Math.round(sdks.cpu / sdks.ops),
      redaction,
    };
  } finally {
    await client.close();
    await agent.close();
    await started?.close();
  }
}

const ROUNDS = 4;

interface Measured {
  ops: number;
  cpuMicros: number;
}

/** Completed calls of `op` within `ms`, with `concurrency` workers, and the CPU this process spent on them. */
async function measure(op: () => Promise<void>, ms: number, concurrency: number): Promise<Measured> {
  const end = performance.now() + ms;
  const cpuBefore = process.cpuUsage();
  let done = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      await op();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpuBefore);
  return { ops: done, cpuMicros: cpu.user + cpu.system };
}

const REDACTIONS = 2_000;
const MANY_SECRETS = 20_000;

/**
 * One redaction of an error message of about 1.5 KB (the platform's text quoting a ks), in microseconds: with the
 * secrets this process knows now (the client's own), then with MANY_SECRETS more registered, as a process that meets
 * secrets for ever would. The best of five runs of REDACTIONS each.
 */
function measureRedaction(): RedactionCost {
  const message = `${"the platform refused the request; ".repeat(20)}ks=djJ8MTAwfGJlbmNoLXJlZGFjdGlvbg ${"and said more; ".repeat(50)}`;
  const micros = (): number => {
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      for (let i = 0; i < REDACTIONS; i++) redact(message);
      best = Math.min(best, ((performance.now() - start) * 1000) / REDACTIONS);
    }
    return Number(best.toFixed(2));
  };
  const fewSecrets = knownSecretCount();
  const fewMicros = micros();
  for (let i = 0; i < MANY_SECRETS; i++) registerSecret(`bench-secret-${i}-${"x".repeat(24)}`);
  return { messageChars: message.length, fewSecrets, fewMicros, manyRegistered: MANY_SECRETS, manyKept: knownSecretCount(), manyMicros: micros() };
}

export const sdkPart: BenchPart<SdkBenchResult> = {
  title: "SDK vs raw undici: appToken.get on the same emulator (in its own process)",
  run: () => benchSdk(),
  render: (r) =>
    [
      table(
        ["client", "ops/s", "client CPU µs/call"],
        [
          ["raw undici (baseline)", fmt(r.rawOpsPerSec), fmt(r.rawCpuMicrosPerCall)],
          ["SvcClient", fmt(r.sdkOpsPerSec), fmt(r.sdkCpuMicrosPerCall)],
        ],
      ),
      `  ratio SvcClient / raw undici = ${fmt(r.ratio, 3)} (concurrency ${r.concurrency}; 1 = the sdk costs nothing)`,
      `  sdk overhead: ${fmt(r.sdkCpuMicrosPerCall - r.rawCpuMicrosPerCall)} µs of client CPU per call (form encoding, session, retry wrapper, zod validation)`,
      table(
        ["redaction of a message", "secrets known", "µs each"],
        [
          [`${fmt(r.redaction.messageChars)} characters (baseline)`, fmt(r.redaction.fewSecrets), fmt(r.redaction.fewMicros, 2)],
          [`after ${fmt(r.redaction.manyRegistered)} more registered`, fmt(r.redaction.manyKept), fmt(r.redaction.manyMicros, 2)],
        ],
      ),
    ].join("\n"),
};

if (require.main === module) {
  benchSdk(process.argv[2]).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
