/**
 * Per-account traffic of api_v3: how many calls each partner has in flight now, the most it had at once (what a
 * client's per-account concurrency limit must bound), how many it made, and faults aimed at one partner only (a
 * 429 storm or a slow platform for one account while the others are served normally). The partner of a call is the
 * one its ks names (clear header of a v2 ks), else its `partnerId` parameter (session.start); a call naming none is
 * not counted.
 */
import type { MiddlewareHandler } from "hono";
import { ksPartnerId } from "../sessions/ks";
import { faultInjection } from "../middleware/faults";
import type { PartnerTraffic } from "../context/partnerTraffic";
import { leaf, readParams } from "./params";

/**
 * Counts each api_v3 call against its partner for as long as it is in flight (mounted outside the emulator-wide
 * fault middleware, so injected latency is time in flight too), and applies that partner's aimed faults.
 */
export function partnerTrafficMiddleware(traffic: PartnerTraffic): MiddlewareHandler {
  return async function countPartnerTraffic(c, next) {
    // Parsed once per request (api/params.ts): the api_v3 route reads the same tree.
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
