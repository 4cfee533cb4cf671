/** Sessions: admin and app token minting on the wire, caching, single-flight, renewal (MockAgent + injected clock). */
import { describe, expect, it } from "vitest";
import { appTokenHash, SvcSessionError } from "../../sdk";
import { SessionManager } from "../../sdk/auth/sessionManager";
import { ADMIN_SECRET, PARTNER_ID, apiError, harness, recorder } from "./helpers";

const START = "/api_v3/service/session/action/start";
const LIST = { objects: [], totalCount: 0, objectType: "SvcAppTokenListResponse" };

describe("admin secret sessions", () => {
  it("session.start sends secret, partnerId, type 2, disableentitlement and expiry; the ks is then reused", async () => {
    const { pool, client } = harness({ auth: { adminSecret: ADMIN_SECRET, sessionExpiry: 3600 } });
    const starts: Record<string, string>[] = [];
    const lists: Record<string, string>[] = [];
    pool.intercept({ path: START, method: "POST" }).reply(recorder(starts, "djJ8minted-session-one-abcdefgh"));
    pool.intercept({ path: "/api_v3/service/appToken/action/list", method: "POST" }).reply(recorder(lists, LIST)).times(2);
    await client.appTokens.list();
    await client.appTokens.list();
    expect(starts).toEqual([{ format: "1", secret: ADMIN_SECRET, partnerId: String(PARTNER_ID), type: "2", expiry: "3600", privileges: "disableentitlement" }]);
    expect(lists.map((b) => b.ks)).toEqual(["djJ8minted-session-one-abcdefgh", "djJ8minted-session-one-abcdefgh"]);
  });

  it("INVALID_KS renews the session once and repeats the call (even a create: the ks is checked first)", async () => {
    const { pool, client } = harness({ auth: { adminSecret: ADMIN_SECRET } });
    const adds: Record<string, string>[] = [];
    pool.intercept({ path: START, method: "POST" }).reply(200, JSON.stringify("djJ8first-session-abcdefghijk"));
    pool.intercept({ path: START, method: "POST" }).reply(200, JSON.stringify("djJ8second-session-abcdefghij"));
    pool
      .intercept({ path: "/api_v3/service/appToken/action/add", method: "POST" })
      .reply(recorder(adds, apiError("INVALID_KS", "Invalid KS", { ERR_CODE: -1 })));
    pool
      .intercept({ path: "/api_v3/service/appToken/action/add", method: "POST" })
      .reply(recorder(adds, apiError("INVALID_KS", "Invalid KS", { ERR_CODE: -1 })));
    await expect(client.appTokens.add({})).rejects.toMatchObject({ code: "INVALID_KS" });
    expect(adds.map((b) => b.ks)).toEqual(["djJ8first-session-abcdefghijk", "djJ8second-session-abcdefghij"]);
  });

  it("a given ks that is rejected cannot be renewed: SESSION_ERROR", async () => {
    const { pool, client } = harness();
    pool.intercept({ path: "/api_v3/service/appToken/action/list", method: "POST" }).reply(200, apiError("INVALID_KS", "Invalid KS"));
    const error = await client.appTokens.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcSessionError);
  });
});

describe("app token sessions", () => {
  it("startWidgetSession(_partnerId), then startSession with hex(hash(widgetKs + token)) and the widget ks", async () => {
    const token = `${"c0ffee".repeat(10)}abcd`;
    const { pool, client } = harness({ auth: { appTokenId: "0_tok", appToken: token, hashType: "SHA256" } });
    const widget: Record<string, string>[] = [];
    const start: Record<string, string>[] = [];
    const lists: Record<string, string>[] = [];
    const widgetKs = "djJ8widget-session-abcdefghijk";
    pool
      .intercept({ path: "/api_v3/service/session/action/startWidgetSession", method: "POST" })
      .reply(recorder(widget, { ks: widgetKs, partnerId: PARTNER_ID, userId: "", objectType: "SvcStartWidgetSessionResponse" }));
    pool
      .intercept({ path: "/api_v3/service/appToken/action/startSession", method: "POST" })
      .reply(recorder(start, { ks: "djJ8apptoken-session-abcdefgh", expiry: Math.floor(Date.now() / 1000) + 600, objectType: "SvcSessionInfo" }));
    pool.intercept({ path: "/api_v3/service/appToken/action/list", method: "POST" }).reply(recorder(lists, LIST));
    await client.appTokens.list();
    expect(widget[0]).toEqual({ format: "1", widgetId: `_${PARTNER_ID}` });
    expect(start[0]).toEqual({ format: "1", ks: widgetKs, id: "0_tok", tokenHash: appTokenHash("SHA256", widgetKs, token) });
    expect(start[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(lists[0]?.ks).toBe("djJ8apptoken-session-abcdefgh");
    expect(client.sessions.current()?.expiresAt).toBeGreaterThan(Date.now());
  });
});

describe("SessionManager", () => {
  it("single-flight: concurrent callers share one mint; it renews before expiry", async () => {
    let now = 1_000_000;
    let mints = 0;
    // The first mint is held until all ten callers have asked: they are concurrent by construction, not by timing.
    let letMintFinish!: () => void;
    const mintMayFinish = new Promise<void>((r) => (letMintFinish = r));
    const manager = new SessionManager({
      mint: async () => {
        mints++;
        await mintMayFinish;
        return { ks: `ks-number-${mints}`, expiresAt: now + 1000_000 };
      },
      end: async () => undefined,
      renewable: true,
      now: () => now,
    });
    const asked = Promise.all(Array.from({ length: 10 }, () => manager.ks()));
    letMintFinish();
    const all = await asked;
    expect(new Set(all)).toEqual(new Set(["ks-number-1"]));
    expect(mints).toBe(1);
    now += 850_000; // 15% of the lifetime left: still good
    expect(await manager.ks()).toBe("ks-number-1");
    now += 100_000; // 5% left: renew
    expect(await manager.ks()).toBe("ks-number-2");
    // renew(rejected) of an already replaced ks does not mint again
    expect(await manager.renew("ks-number-1")).toBe("ks-number-2");
    expect(mints).toBe(2);
  });

  it("a failed mint is shared by all waiters and the next call tries again", async () => {
    let calls = 0;
    const manager = new SessionManager({
      mint: async () => {
        calls++;
        if (calls === 1) throw new Error("down");
        return { ks: "ks-after-failure" };
      },
      end: async () => undefined,
      renewable: true,
    });
    const results = await Promise.allSettled([manager.ks(), manager.ks()]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await manager.ks()).toBe("ks-after-failure");
  });
});
