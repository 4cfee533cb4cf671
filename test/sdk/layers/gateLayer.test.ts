import { describe, expect, it } from "vitest";
import { gateLayer } from "../../../sdk/transport/gateLayer";
import { createRequestGate } from "../../../sdk/transport/requestGate";
import { exchange, response } from "./fakeSend";

describe("gateLayer", () => {
  it("holds a slot for each attempt and frees it after the answer, also after a failure", async () => {
    const gate = createRequestGate(1);
    const layer = gateLayer(gate, { throttlePauseMs: () => 0 });
    let inFlightDuring = 0;
    await layer(async () => {
      inFlightDuring = gate.inFlight;
      return response(200);
    })(exchange());
    expect(inFlightDuring).toBe(1);
    await expect(
      layer(async () => {
        throw new Error("reset");
      })(exchange()),
    ).rejects.toThrow("reset");
    expect(gate.inFlight).toBe(0);
  });

  it("pauses the whole gate after a 429, before the slot is freed", async () => {
    let now = 1000;
    const gate = createRequestGate(1, () => now);
    const paused: number[] = [];
    const original = gate.pause;
    gate.pause = (ms) => {
      paused.push(ms);
      expect(gate.inFlight).toBe(1);
      original(ms);
    };
    const layer = gateLayer(gate, { throttlePauseMs: () => 250 });
    expect((await layer(async () => response(429))(exchange())).status).toBe(429);
    expect(paused).toEqual([250]);
    now += 250;
  });
});
