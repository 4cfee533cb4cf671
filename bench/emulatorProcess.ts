/**
 * The emulator in a child process (the compiled CLI next to this file), on any free port, as a real server would
 * run: its CPU is not shared with the event loop of whatever it serves. Its control API gives the request stats
 * and sets faults such as an added latency while it runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface EmulatorTarget {
  baseUrl: string;
  partnerId: number;
  adminSecret: string;
}

export interface EmulatorProcess {
  target: EmulatorTarget;
  /** Calls served since the last reset, per `service.action`. */
  stats(): Promise<Record<string, number>>;
  resetStats(): Promise<void>;
  /** Every API request is answered after this many ms (0 = none). */
  setLatency(ms: number): Promise<void>;
  /** Any control API call (e.g. POST /partners for another account, GET /traffic). */
  control(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const cli = join(__dirname, "..", "emulator", "cli.js");
  const child: ChildProcess = spawn(process.execPath, [cli, "--port", "0", "--json"], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it started`)));
  });
  lines.close();
  const info = JSON.parse(first) as EmulatorTarget & { controlUrl: string };
  const control = async (method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${info.controlUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    if (!res.ok) throw new Error(`emulator control ${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  return {
    target: { baseUrl: info.baseUrl, partnerId: info.partnerId, adminSecret: info.adminSecret },
    control,
    stats: async () => (await control("GET", "/stats")) as Record<string, number>,
    resetStats: async () => void (await control("POST", "/stats/reset")),
    setLatency: async (ms) => void (await control("POST", "/faults", ms > 0 ? { latencyMs: ms } : {})),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
