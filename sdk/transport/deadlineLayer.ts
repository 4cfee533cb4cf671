/**
 * The deadline layer: one AbortController per call, aborted when the call's overall deadline passes or the caller's
 * signal fires, with the SvcError the call ends with as its reason (TIMEOUT or ABORTED). Both the timer and the
 * listener are released when the call ends (AbortSignal.timeout/any would leave a timer and listeners behind). The
 * reason says whether a request was on the wire, unanswered, at that moment (`requestOnWire`).
 */
import { SvcAbortError, SvcTimeoutError } from "../core/errors";
import { describeCall, type Layer, labelOf } from "./exchange";

export function deadlineLayer(): Layer {
  return function withDeadline(next) {
    return async function sendWithinDeadline(exchange) {
      const controller = new AbortController();
      const where = describeCall(exchange);
      // Taken when the call is cut: whether what it sent may still be acted on, or it was only waiting.
      const cut = () => ({ ...labelOf(exchange), requestOnWire: exchange.wire.unanswered > 0 });
      const timer = setTimeout(() => controller.abort(new SvcTimeoutError(`${where}: no answer within ${exchange.timeoutMs} ms`, cut())), exchange.timeoutMs);
      const caller = exchange.callerSignal;
      const onCallerAbort = (): void => controller.abort(new SvcAbortError(`${where}: cancelled by the caller`, cut()));
      caller?.addEventListener("abort", onCallerAbort, { once: true });
      if (caller?.aborted) onCallerAbort();
      try {
        if (controller.signal.aborted) throw controller.signal.reason;
        return await next({ ...exchange, signal: controller.signal, deadlineAt: performance.now() + exchange.timeoutMs });
      } catch (error) {
        throw controller.signal.aborted ? controller.signal.reason : error;
      } finally {
        clearTimeout(timer);
        caller?.removeEventListener("abort", onCallerAbort);
      }
    };
  };
}
