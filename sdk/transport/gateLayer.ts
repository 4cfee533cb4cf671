/**
 * The gate layer: every attempt waits for a slot of the client-wide RequestGate and frees it when its answer is
 * read. A 429 holds the whole client, not just this call (every other request would meet the same limit): the pause
 * is set before the slot is freed, so no waiter slips through in between.
 */
import type { Exchange, Layer } from "./exchange";
import type { TransportResponse } from "./options";
import type { RequestGate } from "./requestGate";

export interface GateLayerOptions {
  /** How long a 429 holds every request (the retry layer waits the same for its own retry). */
  throttlePauseMs: (exchange: Exchange, response: TransportResponse) => number;
}

export function gateLayer(gate: RequestGate, options: GateLayerOptions): Layer {
  return function throughGate(next) {
    return async function sendThroughGate(exchange) {
      const release = await gate.acquire(exchange.signal);
      try {
        const response = await next(exchange);
        if (response.status === 429) gate.pause(options.throttlePauseMs(exchange, response));
        return response;
      } finally {
        release();
      }
    };
  };
}
