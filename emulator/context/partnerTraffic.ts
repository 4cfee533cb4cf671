/**
 * Per-account traffic of api_v3: how many calls each partner has in flight now, the most it had at once (what a
 * client's per-account concurrency limit must bound), how many it made, and faults aimed at one partner only (a
 * 429 storm or a slow platform for one account while the others are served normally). The counts live in the
 * context (emulator/context/partnerTraffic.ts); the middleware that takes them is api/partnerTraffic.ts.
 */
import { FaultController, type FaultConfig } from "../middleware/faults";

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
