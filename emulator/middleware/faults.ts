/**
 * Fault injection for tests. Two families:
 * - before the platform acts: latency, 5xx answers (`error`), dropped connections (`drop`: the socket is destroyed)
 *   and 429 with Retry-After (`throttle`); nothing was processed.
 * - after the platform acted (the write is committed first): `commitThenDrop` (the socket is destroyed instead of
 *   answering), `commitThenError` (answered 502) and `slow` (the real answer, but only after `slowMs`, meant to be
 *   past the client's timeout). These are the faults that leave a client unsure whether its create happened.
 *   `late` (only through `next`) holds the request `slowMs`, then acts and answers: the platform acts after the client
 *   may have given up (a request still on the wire when its caller was cancelled).
 * Deterministic on purpose: a queue of the next outcomes (`next`) is consumed first, then rates are drawn from a
 * seeded PRNG, so the same seed and request order give the same faults.
 */
import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import { HttpError } from "../shared/errors";

export const FaultKind = z.enum(["ok", "error", "drop", "throttle", "commitThenDrop", "commitThenError", "slow", "late"]);
export type FaultKind = z.infer<typeof FaultKind>;

const rate = z.number().min(0).max(1);
export const FaultConfig = z
  .object({
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    errorRate: rate.optional(),
    dropRate: rate.optional(),
    throttleRate: rate.optional(),
    commitThenDropRate: rate.optional(),
    commitThenErrorRate: rate.optional(),
    slowRate: rate.optional(),
    /** How late a `slow` answer comes (default 2000 ms). */
    slowMs: z.number().int().min(0).max(120_000).optional(),
    errorStatus: z.number().int().min(500).max(599).optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
    seed: z.number().int().optional(),
    /** Outcomes of the next requests, in order, before any rate applies. */
    next: z.array(FaultKind).optional(),
    /** Only requests whose path contains this text are affected (e.g. "/service/appToken/"). */
    pathIncludes: z.string().optional(),
  })
  .refine((c) => RATE_KEYS.reduce((sum, key) => sum + (c[key] ?? 0), 0) <= 1, {
    message: "the rates (errorRate, dropRate, throttleRate, commitThenDropRate, commitThenErrorRate, slowRate) must add up to at most 1",
  });
export type FaultConfig = z.infer<typeof FaultConfig>;

/** Rate keys in the order they are drawn, with the kind each one injects. */
const RATES = [
  ["dropRate", "drop"],
  ["errorRate", "error"],
  ["throttleRate", "throttle"],
  ["commitThenDropRate", "commitThenDrop"],
  ["commitThenErrorRate", "commitThenError"],
  ["slowRate", "slow"],
] as const;
const RATE_KEYS = RATES.map(([key]) => key);

const zeroCounts = (): Record<FaultKind, number> => Object.fromEntries(FaultKind.options.map((k) => [k, 0])) as Record<FaultKind, number>;

export class FaultController {
  private config: FaultConfig = {};
  private queue: FaultKind[] = [];
  private random: () => number = mulberry32(1);
  /** How many faults of each kind were injected since the last set(). */
  readonly injected: Record<FaultKind, number> = zeroCounts();

  constructor(initial: FaultConfig = {}) {
    this.set(initial);
  }

  set(config: FaultConfig): void {
    this.config = { ...config };
    this.queue = [...(config.next ?? [])];
    this.random = mulberry32(config.seed ?? 1);
    for (const k of FaultKind.options) this.injected[k] = 0;
  }

  get(): FaultConfig & { pending: FaultKind[]; injected: Record<FaultKind, number> } {
    return { ...this.config, pending: [...this.queue], injected: { ...this.injected } };
  }

  get latencyMs(): number {
    return this.config.latencyMs ?? 0;
  }

  get errorStatus(): number {
    return this.config.errorStatus ?? 503;
  }

  get retryAfterSeconds(): number {
    return this.config.retryAfterSeconds ?? 1;
  }

  get slowMs(): number {
    return this.config.slowMs ?? 2_000;
  }

  /** The outcome for one request on `path`. */
  decide(path: string): FaultKind {
    if (this.config.pathIncludes && !path.includes(this.config.pathIncludes)) return "ok";
    const kind = this.queue.shift() ?? this.drawRate();
    this.injected[kind]++;
    return kind;
  }

  private drawRate(): FaultKind {
    const total = RATE_KEYS.reduce((sum, key) => sum + (this.config[key] ?? 0), 0);
    if (total === 0) return "ok";
    const r = this.random();
    let edge = 0;
    for (const [key, kind] of RATES) {
      edge += this.config[key] ?? 0;
      if (r < edge) return kind;
    }
    return "ok";
  }
}

/** Applies the controller's faults to every request that reaches it (the app mounts it outside /_emulator). */
export function faultInjection(faults: FaultController): MiddlewareHandler {
  return async function injectFaults(c, next) {
    const path = new URL(c.req.url).pathname;
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    const kind = faults.decide(path);
    switch (kind) {
      case "ok":
        return next();
      case "error":
        throw new HttpError(faults.errorStatus, "injected server error");
      case "throttle":
        throw new HttpError(429, "injected throttle", { "Retry-After": String(faults.retryAfterSeconds) });
      case "drop":
        return dropConnection(c, "injected dropped connection");
      case "commitThenDrop":
        // The handler runs and its writes are committed (the store commits before returning); the answer is lost.
        await next();
        return dropConnection(c, "injected dropped connection after the write");
      case "commitThenError":
        await next();
        throw new HttpError(502, "injected bad gateway after the write");
      case "slow":
        await next();
        await sleep(faults.slowMs);
        return;
      case "late":
        await sleep(faults.slowMs);
        return next();
    }
  };
}

/** Destroys the socket without an answer; in-process (app.request) there is none: answer like a proxy that lost the upstream. */
function dropConnection(c: Context, message: string): Response {
  const env = c.env as { incoming?: { socket?: { destroy(): void } } } | undefined;
  if (env?.incoming?.socket) {
    env.incoming.socket.destroy();
    return new Response(null, { status: 499 });
  }
  throw new HttpError(502, message);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Small seeded PRNG (mulberry32): deterministic fault schedules. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
