import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { FaultController } from "../../emulator/middleware/faults";
import { ADMIN_SECRET, PARTNER_ID, form, inProcess } from "./helpers";

const setFaults = async (emu: RunningEmulator, config: unknown) => {
  const res = await request(`${emu.controlUrl}/faults`, { method: "POST", body: JSON.stringify(config), headers: { "content-type": "application/json" } });
  expect(res.statusCode).toBe(200);
  return res.body.json();
};

const listTokens = (emu: RunningEmulator, ks: string) =>
  request(`${emu.baseUrl}/service/appToken/action/list`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form({ format: 1, ks }),
  });

describe("fault injection", () => {
  let emu: RunningEmulator;
  let ks: string;
  beforeEach(async () => {
    emu = await startEmulator({ partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET, quiet: true });
    const res = await request(`${emu.baseUrl}/service/session/action/start`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ format: 1, secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2 }),
    });
    ks = (await res.body.json()) as string;
  });
  afterEach(() => emu.close());

  it("the next N outcomes are injected in order, then requests succeed", async () => {
    await setFaults(emu, { next: ["error", "throttle", "drop", "ok"], retryAfterSeconds: 7 });
    const first = await listTokens(emu, ks);
    expect(first.statusCode).toBe(503);
    await first.body.dump();
    const second = await listTokens(emu, ks);
    expect(second.statusCode).toBe(429);
    expect(second.headers["retry-after"]).toBe("7");
    await second.body.dump();
    await expect(listTokens(emu, ks)).rejects.toThrow(); // the socket was destroyed
    const fourth = await listTokens(emu, ks);
    expect(fourth.statusCode).toBe(200);
    expect(((await fourth.body.json()) as { objectType: string }).objectType).toBe("SvcAppTokenListResponse");
    const state = (await (await request(`${emu.controlUrl}/faults`)).body.json()) as { injected: Record<string, number>; pending: string[] };
    expect(state.injected).toMatchObject({ error: 1, throttle: 1, drop: 1, ok: 1 });
    expect(state.pending).toEqual([]);
  });

  it("the control API is never faulted, and DELETE clears faults", async () => {
    await setFaults(emu, { errorRate: 1 });
    expect((await listTokens(emu, ks)).statusCode).toBe(503);
    const stats = await request(`${emu.controlUrl}/stats`);
    expect(stats.statusCode).toBe(200);
    await stats.body.dump();
    await (await request(`${emu.controlUrl}/faults`, { method: "DELETE" })).body.dump();
    expect((await listTokens(emu, ks)).statusCode).toBe(200);
  });

  it("pathIncludes limits faults to matching requests", async () => {
    await setFaults(emu, { errorRate: 1, pathIncludes: "/service/session/" });
    expect((await listTokens(emu, ks)).statusCode).toBe(200);
    const s = await request(`${emu.baseUrl}/service/session/action/start`, { method: "POST", body: form({ format: 1 }) });
    expect(s.statusCode).toBe(503);
    await s.body.dump();
  });

  it("commitThenDrop and commitThenError strike after the write: the token exists though the answer was lost", async () => {
    const addToken = (description: string) =>
      request(`${emu.baseUrl}/service/appToken/action/add`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form({ format: 1, ks, "appToken[objectType]": "SvcAppToken", "appToken[description]": description }),
      });
    await setFaults(emu, { next: ["commitThenDrop", "commitThenError"] });
    await expect(addToken("dropped after commit")).rejects.toThrow(); // the socket was destroyed without an answer
    const second = await addToken("502 after commit");
    expect(second.statusCode).toBe(502);
    await second.body.dump();
    const list = (await (await listTokens(emu, ks)).body.json()) as { objects: Array<{ description?: string }> };
    expect(list.objects.map((t) => t.description).sort()).toEqual(["502 after commit", "dropped after commit"]);
    const state = (await (await request(`${emu.controlUrl}/faults`)).body.json()) as { injected: Record<string, number> };
    expect(state.injected).toMatchObject({ commitThenDrop: 1, commitThenError: 1, ok: 1 });
  });

  it("slow answers come after slowMs, the write already done", async () => {
    await setFaults(emu, { next: ["slow"], slowMs: 400 });
    const res = await request(`${emu.baseUrl}/service/appToken/action/add`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ format: 1, ks, "appToken[objectType]": "SvcAppToken", "appToken[description]": "slow" }),
      signal: AbortSignal.timeout(150),
    }).catch((error: unknown) => error);
    expect(res).toBeInstanceOf(Error); // the client gave up before the answer

    // The write happened before the delay: it is listed while the late answer is still pending.
    const list = (await (await listTokens(emu, ks)).body.json()) as { objects: Array<{ description?: string }> };
    expect(list.objects.map((t) => t.description)).toEqual(["slow"]);
    expect(((await (await request(`${emu.controlUrl}/faults`)).body.json()) as { injected: Record<string, number> }).injected.slow).toBe(1);
  });

  it("rates of every kind are accepted and shown; rates adding up past 1 are refused", async () => {
    const shown = (await setFaults(emu, { commitThenDropRate: 0.1, commitThenErrorRate: 0.1, slowRate: 0.05, slowMs: 50, seed: 3 })) as Record<string, unknown>;
    expect(shown).toMatchObject({
      commitThenDropRate: 0.1,
      commitThenErrorRate: 0.1,
      slowRate: 0.05,
      slowMs: 50,
      injected: { commitThenDrop: 0, commitThenError: 0, slow: 0 },
    });
    const res = await request(`${emu.controlUrl}/faults`, { method: "POST", body: JSON.stringify({ errorRate: 0.6, slowRate: 0.6 }) });
    expect(res.statusCode).toBe(400);
    expect(await res.body.text()).toContain("add up to at most 1");
  });

  it("bad fault config is a 400 naming the field", async () => {
    const res = await request(`${emu.controlUrl}/faults`, { method: "POST", body: JSON.stringify({ errorRate: 2 }) });
    expect(res.statusCode).toBe(400);
    expect(await res.body.text()).toContain("errorRate");
  });
});

describe("fault schedule", () => {
  it("rates are drawn from a seeded PRNG: the same seed gives the same schedule", () => {
    const a = new FaultController({ errorRate: 0.3, throttleRate: 0.2, dropRate: 0.1, seed: 42 });
    const b = new FaultController({ errorRate: 0.3, throttleRate: 0.2, dropRate: 0.1, seed: 42 });
    const c = new FaultController({ errorRate: 0.3, throttleRate: 0.2, dropRate: 0.1, seed: 43 });
    const run = (f: FaultController) => Array.from({ length: 200 }, () => f.decide("/api_v3/x"));
    const mixed = new FaultController({ commitThenDropRate: 0.2, commitThenErrorRate: 0.2, slowRate: 0.2, seed: 5 });
    const kinds = new Set(Array.from({ length: 200 }, () => mixed.decide("/api_v3/x")));
    expect([...kinds].sort()).toEqual(["commitThenDrop", "commitThenError", "ok", "slow"]);
    const ra = run(a);
    expect(run(b)).toEqual(ra);
    expect(run(c)).not.toEqual(ra);
    const share = (k: string) => ra.filter((x) => x === k).length / ra.length;
    expect(share("error")).toBeGreaterThan(0.15);
    expect(share("error")).toBeLessThan(0.45);
    expect(share("ok")).toBeGreaterThan(0.25);
  });

  it("in-process (no socket) a dropped connection answers 502", async () => {
    const emu = inProcess({ faults: { next: ["drop"] } });
    const res = await emu.app.request("/api_v3/service/appToken/action/list", { method: "POST" });
    expect(res.status).toBe(502);
    await emu.close();
  });
});
