/**
 * Fault injection for tests: latency, 5xx answers, dropped connections (the socket is destroyed) and 429 with
 * Retry-After. Deterministic on purpose: a queue of the next outcomes (`next`) is consumed first, then rates
 * are drawn from a seeded PRNG, so the same seed and request order give the same faults.
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { HttpError } from "../errors";

export const FaultKind = z.enum(["ok", "error", "drop", "throttle"]);
export type FaultKind = z.infer<typeof FaultKind>;

const rate = z.number().min(0).max(1);
export const FaultConfig = z.object({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  errorRate: rate.optional(),
  dropRate: rate.optional(),
  throttleRate: rate.optional(),
  errorStatus: z.number().int().min(500).max(599).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
  seed: z.number().int().optional(),
  /** Outcomes of the next requests, in order, before any rate applies. */
  next: z.array(FaultKind).optional(),
  /** Only requests whose path contains this text are affected (e.g. "/service/appToken/"). */
  pathIncludes: z.string().optional(),
});
export type FaultConfig = z.infer<typeof FaultConfig>;

export class FaultController {
  private config: FaultConfig = {};
  private queue: FaultKind[] = [];
  private random: () => number = mulberry32(1);
  /** How many faults of each kind were injected since the last set(). */
  readonly injected: Record<FaultKind, number> = { ok: 0, error: 0, drop: 0, throttle: 0 };

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

  /** The outcome for one request on `path`. */
  decide(path: string): FaultKind {
    if (this.config.pathIncludes && !path.includes(this.config.pathIncludes)) return "ok";
    const kind = this.queue.shift() ?? this.drawRate();
    this.injected[kind]++;
    return kind;
  }

  private drawRate(): FaultKind {
    const { dropRate = 0, errorRate = 0, throttleRate = 0 } = this.config;
    if (dropRate + errorRate + throttleRate === 0) return "ok";
    const r = this.random();
    if (r < dropRate) return "drop";
    if (r < dropRate + errorRate) return "error";
    if (r < dropRate + errorRate + throttleRate) return "throttle";
    return "ok";
  }
}

/** Applies the controller's faults to every request that reaches it (the app mounts it outside /_emulator). */
export function faultInjection(faults: FaultController): MiddlewareHandler {
  return async function injectFaults(c, next) {
    const path = new URL(c.req.url).pathname;
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
    const kind = faults.decide(path);
    if (kind === "error") throw new HttpError(faults.errorStatus, "injected server error");
    if (kind === "throttle") {
      throw new HttpError(429, "injected throttle", { "Retry-After": String(faults.retryAfterSeconds) });
    }
    if (kind === "drop") {
      const env = c.env as { incoming?: { socket?: { destroy(): void } } } | undefined;
      if (env?.incoming?.socket) {
        env.incoming.socket.destroy();
        return new Response(null, { status: 499 });
      }
      // In-process (app.request) there is no socket to drop: answer like a proxy that lost the upstream.
      throw new HttpError(502, "injected dropped connection");
    }
    await next();
  };
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
