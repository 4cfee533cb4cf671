/**
 * Emulator throughput: requests per second of `appToken.get` over keep-alive connections (undici Pool) at
 * 1 and 32 concurrent connections, a bounded few seconds each, against an in-memory emulator on port 0.
 * Run alone with `node dist/bench/emulator.js` (after `npm run build`), or call benchEmulator() from the suite.
 */
import { Pool } from "undici";
import { startEmulator } from "../emulator/index";
import type { BenchPart } from "./benchPart";
import { fmt, table } from "./report";

const PHASE_MS = Number(process.env.BENCH_EMULATOR_MS ?? 3_000);
const WARMUP_MS = 300;

const encode = (p: Record<string, string | number>): string => new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)])).toString();

async function callJson(pool: Pool, path: string, body: string): Promise<unknown> {
  const res = await pool.request({ method: "POST", path, body, headers: { "content-type": "application/x-www-form-urlencoded" } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  return JSON.parse(text);
}

/** Runs `connections` workers until the deadline; every answer is parsed and checked. */
async function phase(origin: string, path: string, body: string, connections: number, ms: number): Promise<{ rps: number; requests: number }> {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 10_000 });
  try {
    const run = async (until: number): Promise<number> => {
      let n = 0;
      while (performance.now() < until) {
        const r = (await callJson(pool, path, body)) as { objectType?: string };
        if (r.objectType !== "SvcAppToken") throw new Error(`unexpected answer ${JSON.stringify(r).slice(0, 80)}`);
        n++;
      }
      return n;
    };
    const warm = performance.now() + WARMUP_MS;
    await Promise.all(Array.from({ length: connections }, () => run(warm)));
    const start = performance.now();
    const counts = await Promise.all(Array.from({ length: connections }, () => run(start + ms)));
    const elapsed = performance.now() - start;
    const requests = counts.reduce((a, b) => a + b, 0);
    return { rps: Math.round((requests / elapsed) * 1000), requests };
  } finally {
    await pool.close();
  }
}

export async function benchEmulator(): Promise<Record<string, number | string>> {
  const emu = await startEmulator({ quiet: true });
  try {
    const origin = new URL(emu.baseUrl).origin;
    const pool = new Pool(origin, { connections: 1 });
    const ks = (await callJson(
      pool,
      "/api_v3/service/session/action/start",
      encode({ format: 1, secret: emu.adminSecret, partnerId: emu.partnerId, type: 2 }),
    )) as string;
    const token = (await callJson(
      pool,
      "/api_v3/service/appToken/action/add",
      encode({ format: 1, ks, "appToken[objectType]": "SvcAppToken", "appToken[hashType]": "SHA256" }),
    )) as { id: string };
    await pool.close();
    const path = "/api_v3/service/appToken/action/get";
    const body = encode({ format: 1, ks, id: token.id });
    const c1 = await phase(origin, path, body, 1, PHASE_MS);
    const c32 = await phase(origin, path, body, 32, PHASE_MS);
    return {
      "emulator.appToken.get.rps.c1": c1.rps,
      "emulator.appToken.get.rps.c32": c32.rps,
      "emulator.appToken.get.requests.c1": c1.requests,
      "emulator.appToken.get.requests.c32": c32.requests,
      "emulator.phaseMs": PHASE_MS,
      "emulator.node": process.version,
    };
  } finally {
    await emu.close();
  }
}

export const emulatorPart: BenchPart<Record<string, number | string>> = {
  title: "Emulator: appToken.get over keep-alive connections, in-memory state",
  run: () => benchEmulator(),
  render: (r) =>
    table(
      ["connections", "requests/s", "requests"],
      [
        ["1", fmt(r["emulator.appToken.get.rps.c1"]), fmt(r["emulator.appToken.get.requests.c1"])],
        ["32", fmt(r["emulator.appToken.get.rps.c32"]), fmt(r["emulator.appToken.get.requests.c32"])],
      ],
    ),
};

if (require.main === module) {
  benchEmulator()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
}
