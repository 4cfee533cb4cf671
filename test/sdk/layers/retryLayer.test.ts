import { describe, expect, it } from "vitest";
import { retryLayer } from "../../../sdk/transport/retryLayer";
import { errno, exchange, response, scriptedSend } from "./fakeSend";

const tuning = { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 5 };

function layer(onRetry: (delayMs: number) => void = () => {}) {
  return retryLayer({ tuning, random: () => 0.5, onRetry: (_ex, notice) => onRetry(notice.delayMs) });
}

describe("retryLayer", () => {
  it("retries an idempotent call on 503 and returns the first final answer, numbering attempts", async () => {
    const send = scriptedSend([response(503), response(503), response(200)]);
    const answer = await layer()(send)(exchange());
    expect(answer).toMatchObject({ status: 200, attempts: 3 });
    expect(send.seen.map((ex) => ex.attempt)).toEqual([1, 2, 3]);
  });

  it("never repeats a create after a status that may have acted, but does after a refused connection", async () => {
    const created = scriptedSend([response(503)]);
    expect(await layer()(created)(exchange({ idempotent: false }))).toMatchObject({ status: 503 });
    expect(created.seen).toHaveLength(1);

    const refused = scriptedSend([errno("ECONNREFUSED"), response(200)]);
    expect(await layer()(refused)(exchange({ idempotent: false }))).toMatchObject({ status: 200, attempts: 2 });
  });

  it("ends with NETWORK_ERROR or TIMEOUT naming the attempts when no answer came", async () => {
    const reset = scriptedSend([errno("ECONNRESET")]);
    await expect(layer()(reset)(exchange({ maxRetries: 1 }))).rejects.toMatchObject({ code: "NETWORK_ERROR", errno: "ECONNRESET" });
    expect(reset.seen).toHaveLength(2);
    const slow = scriptedSend([errno("UND_ERR_HEADERS_TIMEOUT")]);
    await expect(layer()(slow)(exchange({ idempotent: false }))).rejects.toMatchObject({ code: "TIMEOUT", message: /after 1 attempt/ });
  });

  it("honours Retry-After (capped) and reports each retry", async () => {
    const delays: number[] = [];
    const send = scriptedSend([response(429, { "retry-after": "60" }), response(200)]);
    await layer((ms) => delays.push(ms))(send)(exchange({ idempotent: false }));
    expect(delays).toEqual([5]);
  });

  it("does not wait past the deadline: the last answer is returned instead", async () => {
    const send = scriptedSend([response(429, { "retry-after": "1" }), response(200)]);
    const answer = await retryLayer({ tuning: { ...tuning, maxRetryAfterMs: 10_000 }, random: () => 0.5, onRetry: () => {} })(send)(
      exchange({ deadlineAt: performance.now() + 100 }),
    );
    expect(answer.status).toBe(429);
  });

  it("ends with the abort reason when the call's signal fires", async () => {
    const controller = new AbortController();
    const reason = Object.assign(new Error("cut"), { code: "ABORTED" });
    const send = scriptedSend([errno("ECONNRESET")]);
    const run = layer(() => controller.abort(reason))(send)(exchange({ signal: controller.signal }));
    await expect(run).rejects.toBe(reason);
  });
});
