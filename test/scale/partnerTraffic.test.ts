/**
 * The emulator's per-account traffic through its control API: faults aimed at one partner (`/partners/:id/faults`)
 * reach that partner's calls only, and `/traffic` counts each partner's calls and the most it had in flight.
 */
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { form } from "../emulator/helpers";

describe("per-account traffic in the emulator", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
  });
  afterAll(() => emulator.close());

  const control = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${emulator.controlUrl}${path}`, {
      method: method as "GET",
      ...(body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const startSession = (partnerId: number, secret: string) =>
    request(`${emulator.baseUrl}/service/session/action/start`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ format: 1, secret, partnerId, type: 2 }),
    });
  const list = (ks: string) =>
    request(`${emulator.baseUrl}/service/appToken/action/list`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ format: 1, ks }),
    });

  it("aims a 429 at one partner and counts each partner's calls", async () => {
    const other = (await control("POST", "/partners", {})).body as { partnerId: number; adminSecret: string };
    const seedKs = (await (await startSession(emulator.partnerId, emulator.adminSecret)).body.json()) as string;
    const otherKs = (await (await startSession(other.partnerId, other.adminSecret)).body.json()) as string;
    await control("POST", "/traffic/reset");

    const aimed = await control("POST", `/partners/${other.partnerId}/faults`, { throttleRate: 1, retryAfterSeconds: 9 });
    expect(aimed.status).toBe(200);
    const throttled = await list(otherKs);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers["retry-after"]).toBe("9");
    await throttled.body.dump();
    const served = await list(seedKs);
    expect(served.statusCode).toBe(200);
    await served.body.dump();

    const traffic = (await control("GET", "/traffic")).body.partners;
    expect(traffic[String(other.partnerId)]).toEqual({ inFlight: 0, peakInFlight: 1, requests: 1 });
    expect(traffic[String(emulator.partnerId)]).toEqual({ inFlight: 0, peakInFlight: 1, requests: 1 });
    expect((await control("GET", `/partners/${other.partnerId}/faults`)).body.injected.throttle).toBe(1);

    await control("DELETE", `/partners/${other.partnerId}/faults`);
    const after = await list(otherKs);
    expect(after.statusCode).toBe(200);
    await after.body.dump();
  });

  it("refuses faults for an unknown account and a config that is not one", async () => {
    expect((await control("POST", "/partners/1/faults", { throttleRate: 1 })).status).toBe(404);
    expect((await control("POST", `/partners/${emulator.partnerId}/faults`, { throttleRate: 2 })).status).toBe(400);
  });
});
