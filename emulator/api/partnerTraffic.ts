/**
 * Per-account traffic of api_v3: how many calls each partner has in flight now, the most it had at once (what a
 * client's per-account concurrency limit must bound), how many it made, and faults aimed at one partner only (a
 * 429 storm or a slow platform for one account while the others are served normally). The partner of a call is the
 * one its ks names (clear header of a v2 ks), else its `partnerId` parameter (session.start); a call naming none is
 * not counted.
 */
import type { MiddlewareHandler } from "hono";
import { ksPartnerId } from "../sessions/ks";
import { FaultController, type FaultConfig, faultInjection } from "../middleware/faults";
import { leaf, readParams } from "./params";

export interface PartnerTrafficFigures {
  inFlight: number;
  peakInFlight: number;
  requests: number;
}

export class PartnerTraffic {
  private readonly figures = new Map<number, PartnerTrafficFigures>();
  private readonly faults = new Map<number, FaultController>();
  private inFlightAll = 0;
  /** The most calls in flight at once, all partners together, since the last reset. */
  peakInFlightAll = 0;

  /** Faults for this partner's calls only (on top of the emulator-wide ones); an empty config removes them. */
  setFaults(partnerId: number, config: FaultConfig): void {
    if (Object.keys(config).length === 0) this.faults.delete(partnerId);
    else this.faults.set(partnerId, new FaultController(config));
  }

  faultsOf(partnerId: number): FaultController | undefined {
    return this.faults.get(partnerId);
  }

  /** Every partner's aimed faults, with what each has injected so far. */
  faultsSnapshot(): Record<string, ReturnType<FaultController["get"]>> {
    return Object.fromEntries([...this.faults].map(([id, controller]) => [String(id), controller.get()]));
  }

  started(partnerId: number): void {
    const f = this.figures.get(partnerId) ?? { inFlight: 0, peakInFlight: 0, requests: 0 };
    f.inFlight++;
    f.requests++;
    f.peakInFlight = Math.max(f.peakInFlight, f.inFlight);
    this.figures.set(partnerId, f);
    this.inFlightAll++;
    this.peakInFlightAll = Math.max(this.peakInFlightAll, this.inFlightAll);
  }

  finished(partnerId: number): void {
    const f = this.figures.get(partnerId);
    if (f) f.inFlight--;
    this.inFlightAll--;
  }

  snapshot(): Record<string, PartnerTrafficFigures> {
    return Object.fromEntries([...this.figures].map(([id, f]) => [String(id), { ...f }]));
  }

  /** Forgets peaks and counts (calls in flight now stay counted, so a peak measured after a reset is right). */
  reset(): void {
    this.peakInFlightAll = this.inFlightAll;
    for (const [id, f] of this.figures) {
      if (f.inFlight === 0) this.figures.delete(id);
      else this.figures.set(id, { inFlight: f.inFlight, peakInFlight: f.inFlight, requests: 0 });
    }
  }
}

/**
 * Counts each api_v3 call against its partner for as long as it is in flight (mounted outside the emulator-wide
 * fault middleware, so injected latency is time in flight too), and applies that partner's aimed faults.
 */
export function partnerTrafficMiddleware(traffic: PartnerTraffic): MiddlewareHandler {
  return async function countPartnerTraffic(c, next) {
    // Hono caches the body it read, so the api_v3 route reads the same parameters again.
    const params = await readParams(c).catch(() => undefined);
    const ks = params ? leaf(params, "ks") : undefined;
    const named = ks !== undefined ? ksPartnerId(ks) : Number(params ? leaf(params, "partnerId") : Number.NaN);
    const partnerId = named !== undefined && Number.isInteger(named) && named > 0 ? named : undefined;
    if (partnerId === undefined) return next();
    traffic.started(partnerId);
    try {
      const aimed = traffic.faultsOf(partnerId);
      if (aimed) return await faultInjection(aimed)(c, next);
      return await next();
    } finally {
      traffic.finished(partnerId);
    }
  };
}
