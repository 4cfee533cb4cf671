import { describe, expect, it } from "vitest";
import type { TransportEvent } from "../../../sdk";
import { createTelemetry } from "../../../sdk/transport/telemetryLayer";
import { errno, exchange, response } from "./fakeSend";

describe("telemetry layer", () => {
  it("reports request and response of each attempt, with the path only", async () => {
    const events: TransportEvent[] = [];
    const telemetry = createTelemetry((event) => events.push(event));
    await telemetry.layer(async () => ({ ...response(200, { date: "Tue, 24 Nov 2026 10:00:00 GMT" }), requestId: "r1" }))(
      exchange({ url: "https://h/api_v3/service/appToken/action/list?ks=secret", attempt: 2 }),
    );
    expect(events).toEqual([
      { type: "request", service: "appToken", action: "list", method: "POST", path: "/api_v3/service/appToken/action/list", attempt: 2 },
      expect.objectContaining({ type: "response", status: 200, requestId: "r1", attempt: 2, serverTimeMs: Date.parse("2026-11-24T10:00:00Z") }),
    ]);
  });

  it("reports a failed attempt with its low-level code, or the call's code when the deadline cut it", async () => {
    const events: TransportEvent[] = [];
    const telemetry = createTelemetry((event) => events.push(event));
    await expect(telemetry.layer(async () => Promise.reject(errno("ECONNRESET")))(exchange())).rejects.toThrow();
    const controller = new AbortController();
    controller.abort(Object.assign(new Error("late"), { code: "TIMEOUT" }));
    await expect(telemetry.layer(async () => Promise.reject(new Error("aborted")))(exchange({ signal: controller.signal }))).rejects.toThrow();
    expect(events.filter((e) => e.type === "error").map((e) => (e as { errorCode: string }).errorCode)).toEqual(["ECONNRESET", "TIMEOUT"]);
  });

  it("reports retries, swallows a throwing hook, and is no layer at all without one", async () => {
    const telemetry = createTelemetry(() => {
      throw new Error("hook bug");
    });
    expect((await telemetry.layer(async () => response(200))(exchange())).status).toBe(200);
    telemetry.retried(exchange(), { delayMs: 5, reason: "status 503", status: 503 });

    const silent = createTelemetry(undefined);
    const send = async () => response(200);
    expect(silent.layer(send)).toBe(send);
  });
});
