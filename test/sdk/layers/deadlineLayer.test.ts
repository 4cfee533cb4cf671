import { describe, expect, it } from "vitest";
import { deadlineLayer } from "../../../sdk/transport/deadlineLayer";
import type { Exchange } from "../../../sdk/transport/exchange";
import { exchange, response } from "./fakeSend";

/** An inner send that never answers until its signal fires (then fails as undici does). */
function hanging(seen: Exchange[] = []) {
  return (ex: Exchange) => {
    seen.push(ex);
    return new Promise<never>((_resolve, reject) => ex.signal.addEventListener("abort", () => reject(new Error("aborted by undici"))));
  };
}

describe("deadlineLayer", () => {
  it("gives the exchange a signal and a deadline, and passes the answer through", async () => {
    let seen: Exchange | undefined;
    const answer = await deadlineLayer()(async (ex) => {
      seen = ex;
      return response(200);
    })(exchange({ timeoutMs: 1000 }));
    expect(answer.status).toBe(200);
    expect(seen?.signal.aborted).toBe(false);
    expect(seen?.deadlineAt).toBeLessThanOrEqual(performance.now() + 1000);
  });

  it("ends the call with TIMEOUT when the deadline passes", async () => {
    await expect(deadlineLayer()(hanging())(exchange({ timeoutMs: 20 }))).rejects.toMatchObject({
      code: "TIMEOUT",
      message: "appToken.list: no answer within 20 ms",
    });
  });

  it("ends the call with ABORTED when the caller cancels, also when already cancelled", async () => {
    const controller = new AbortController();
    const run = deadlineLayer()(hanging())(exchange({ callerSignal: controller.signal }));
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: "ABORTED", message: "appToken.list: cancelled by the caller" });
    await expect(deadlineLayer()(hanging())(exchange({ callerSignal: controller.signal }))).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("says whether a request was on the wire, unanswered, when the call was cut", async () => {
    // Cut while an attempt is out (the wire count the innermost send keeps): the platform may still act on it.
    const onWire = new AbortController();
    const sent = deadlineLayer()((ex) => {
      ex.wire.unanswered++;
      return hanging()(ex);
    })(exchange({ callerSignal: onWire.signal }));
    onWire.abort();
    await expect(sent).rejects.toMatchObject({ code: "ABORTED", requestOnWire: true });
    // Cut while waiting (a Retry-After, a slot) with every request answered.
    const waiting = new AbortController();
    const held = deadlineLayer()(hanging())(exchange({ callerSignal: waiting.signal }));
    waiting.abort();
    await expect(held).rejects.toMatchObject({ code: "ABORTED", requestOnWire: false });
    await expect(deadlineLayer()(hanging())(exchange({ timeoutMs: 20 }))).rejects.toMatchObject({ code: "TIMEOUT", requestOnWire: false });
  });

  it("leaves no listener on the caller's signal after the call", async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => (listeners++, add(...args))) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => (listeners--, remove(...args))) as typeof remove;
    await deadlineLayer()(async () => response(200))(exchange({ callerSignal: signal }));
    expect(listeners).toBe(0);
  });
});
