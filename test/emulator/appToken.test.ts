import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_SECRET, PARTNER_ID, inProcess, type InProcess } from "./helpers";

const hash = (algo: string, text: string): string => createHash(algo).update(text).digest("hex");

describe("appToken service", () => {
  let emu: InProcess;
  let ks: string;
  let clock = 1_800_000_000_000;
  beforeEach(async () => {
    clock = 1_800_000_000_000;
    emu = inProcess({ now: () => clock });
    ks = await emu.adminKs();
  });
  afterEach(() => emu.close());

  const add = (fields: Record<string, string | number> = {}) =>
    emu.call("appToken", "add", {
      ks,
      "appToken[objectType]": "SvcAppToken",
      ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [`appToken[${k}]`, v])),
    });

  it("add returns the token (hex of the hash type's length) and the defaults", async () => {
    const t = await add({ hashType: "SHA256", description: "ci", sessionPrivileges: "disableentitlement" });
    expect(t).toMatchObject({
      objectType: "SvcAppToken",
      partnerId: PARTNER_ID,
      status: 2,
      sessionType: 0,
      sessionDuration: 0,
      hashType: "SHA256",
      description: "ci",
      expiry: 0,
      sessionUserId: "",
    });
    expect(t.id).toMatch(/^0_[0-9a-z]{8}$/);
    expect(t.token).toMatch(/^[0-9a-f]{64}$/);
    expect(t.createdAt).toBe(1_800_000_000);
    expect((await add()).token).toMatch(/^[0-9a-f]{40}$/); // SHA1 by default
    expect((await add({ hashType: "MD5" })).token).toHaveLength(32);
    expect((await add({ hashType: "SHA512" })).token).toHaveLength(128);
  });

  it("add rejects a bad hashType and accepts the colon and JSON spellings", async () => {
    expect((await add({ hashType: "SHA3" })).code).toBe("INVALID_ENUM_VALUE");
    const colon = await emu.call("appToken", "add", { ks, "appToken:objectType": "SvcAppToken", "appToken:description": "colon" });
    expect(colon.description).toBe("colon");
    const res = await emu.app.request("/api_v3/service/appToken/action/add", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ format: 1, ks, appToken: { objectType: "SvcAppToken", description: "json", sessionType: 2 } }),
    });
    expect(await res.json()).toMatchObject({ description: "json", sessionType: 2 });
  });

  it("get returns the token to the account admin only", async () => {
    const t = await add({ hashType: "SHA256", sessionType: 2, sessionPrivileges: "disableentitlement" });
    expect((await emu.call("appToken", "get", { ks, id: t.id })).token).toBe(t.token);
    const w = await emu.call("session", "startWidgetSession", { widgetId: `_${PARTNER_ID}` });
    const s = await emu.call("appToken", "startSession", { ks: w.ks, id: t.id, tokenHash: hash("sha256", w.ks + t.token) });
    const viaToken = await emu.call("appToken", "get", { ks: s.ks, id: t.id });
    expect(viaToken.id).toBe(t.id);
    expect(viaToken.token).toBeUndefined();
    const listed = await emu.call("appToken", "list", { ks: s.ks });
    expect(listed.objects[0].token).toBeUndefined();
    expect((await emu.call("appToken", "get", { ks, id: "0_nothere" })).code).toBe("APP_TOKEN_ID_NOT_FOUND");
  });

  it("list filters, pages (1-based, default 30, max 500) and hides deleted tokens", async () => {
    for (let i = 0; i < 33; i++) await add({ description: `t${i}`, hashType: i % 2 ? "SHA256" : "SHA1", sessionType: i < 3 ? 2 : 0 });
    const page1 = await emu.call("appToken", "list", { ks });
    expect(page1).toMatchObject({ totalCount: 33, objectType: "SvcAppTokenListResponse" });
    expect(page1.objects).toHaveLength(30);
    expect(page1.objects[0].token).toMatch(/^[0-9a-f]+$/);
    const page2 = await emu.call("appToken", "list", { ks, "pager[pageSize]": 30, "pager[pageIndex]": 2 });
    expect(page2.objects.map((o: { description: string }) => o.description)).toEqual(["t30", "t31", "t32"]);
    expect((await emu.call("appToken", "list", { ks, "pager[pageSize]": 5000 })).objects).toHaveLength(33);
    expect((await emu.call("appToken", "list", { ks, "filter[hashTypeEqual]": "SHA256" })).totalCount).toBe(16);
    expect((await emu.call("appToken", "list", { ks, "filter[sessionTypeEqual]": 2 })).totalCount).toBe(3);
    const one = page1.objects[4];
    expect((await emu.call("appToken", "list", { ks, "filter[idEqual]": one.id })).objects[0].id).toBe(one.id);
    await emu.call("appToken", "delete", { ks, id: one.id });
    expect((await emu.call("appToken", "list", { ks })).totalCount).toBe(32);
    expect((await emu.call("appToken", "list", { ks, "filter[statusEqual]": 2 })).totalCount).toBe(32);
    const deleted = await emu.call("appToken", "list", { ks, "filter[statusEqual]": 3 });
    expect(deleted.objects.map((o: { id: string }) => o.id)).toEqual([one.id]);
  });

  it("update changes only the updatable fields; hashType/sessionType are not updatable", async () => {
    const t = await add({ description: "a", sessionUserId: "u1", sessionPrivileges: "x" });
    clock += 5_000;
    const u = await emu.call("appToken", "update", {
      ks,
      id: t.id,
      "appToken[objectType]": "SvcAppToken",
      "appToken[description]": "b",
      "appToken[sessionDuration]": 600,
      "appToken[unknownField]": "ignored",
    });
    expect(u).toMatchObject({ description: "b", sessionDuration: 600, sessionUserId: "u1", sessionPrivileges: "x", updatedAt: 1_800_000_005 });
    expect(u.unknownField).toBeUndefined();
    const hashType = await emu.call("appToken", "update", { ks, id: t.id, "appToken[objectType]": "SvcAppToken", "appToken[hashType]": "SHA256" });
    expect(hashType).toMatchObject({ code: "PROPERTY_VALIDATION_NOT_UPDATABLE", args: { PROP_NAME: "SvcAppToken::hashType" } });
    expect((await emu.call("appToken", "update", { ks, id: t.id, "appToken[objectType]": "SvcAppToken", "appToken[sessionType]": 2 })).args.PROP_NAME).toBe(
      "SvcAppToken::sessionType",
    );
    const cleared = await emu.call("appToken", "update", {
      ks,
      id: t.id,
      "appToken[objectType]": "SvcAppToken",
      "appToken[description__null]": "",
      "appToken[sessionUserId__null]": "",
    });
    expect(cleared.description).toBeUndefined();
    expect(cleared.sessionUserId).toBe("");
    expect((await emu.call("appToken", "update", { ks, id: t.id, "appToken[objectType]": "SvcAppToken", "appToken[sessionDuration__null]": "" })).code).toBe(
      "PROPERTY_VALIDATION_CANNOT_BE_NULL",
    );
  });

  it("delete is soft: status 3, then not found; issued sessions stay valid", async () => {
    const t = await add({ hashType: "SHA256", sessionType: 2 });
    const w = await emu.call("session", "startWidgetSession", { widgetId: `_${PARTNER_ID}` });
    const s = await emu.call("appToken", "startSession", { ks: w.ks, id: t.id, tokenHash: hash("sha256", w.ks + t.token) });
    expect(await emu.call("appToken", "delete", { ks, id: t.id })).toBe("");
    expect((await emu.call("appToken", "get", { ks, id: t.id })).code).toBe("APP_TOKEN_ID_NOT_FOUND");
    expect((await emu.call("appToken", "delete", { ks, id: t.id })).code).toBe("APP_TOKEN_ID_NOT_FOUND");
    expect((await emu.call("appToken", "startSession", { ks: w.ks, id: t.id, tokenHash: hash("sha256", w.ks + t.token) })).code).toBe("APP_TOKEN_ID_NOT_FOUND");
    expect((await emu.call("appToken", "list", { ks: s.ks })).objectType).toBe("SvcAppTokenListResponse");
    await emu.call("session", "end", { ks: s.ks });
    expect((await emu.call("appToken", "list", { ks: s.ks })).code).toBe("INVALID_KS");
  });

  it("startSession mints a ks with the token's type, user, privileges and bounded expiry", async () => {
    const t = await add({
      hashType: "SHA256",
      sessionType: 2,
      sessionDuration: 3600,
      sessionUserId: "robot",
      sessionPrivileges: "disableentitlement,edit:*",
      expiry: 1_800_000_000 + 1800,
    });
    const w = await emu.call("session", "startWidgetSession", { widgetId: `_${PARTNER_ID}` });
    const s = await emu.call("appToken", "startSession", { ks: w.ks, id: t.id, tokenHash: hash("sha256", w.ks + t.token).toUpperCase(), userId: "ignored" });
    expect(s).toMatchObject({ sessionType: 2, partnerId: PARTNER_ID, userId: "robot", expiry: 1_800_000_000 + 1800, objectType: "SvcSessionInfo" });
    expect(s.privileges).toContain("disableentitlement");
    expect(s.privileges).toContain(`apptoken:${t.id}`);
    expect(s.privileges).toMatch(/sessionid:[0-9a-f]{32}/);
    const info = await emu.call("session", "get", { ks: s.ks });
    expect(info).toMatchObject({ sessionType: 2, userId: "robot", expiry: 1_800_000_000 + 1800 });
    // the minted ks is an ADMIN session with disableentitlement: templates accept it
    expect((await emu.call("eventnotification_eventnotificationtemplate", "listTemplates", { ks: s.ks })).totalCount).toBeGreaterThan(0);
  });

  it("startSession uses the account default (86400) for duration 0 and takes userId when the token fixes none", async () => {
    const t = await add({ hashType: "MD5" });
    const admin = ks; // any session of the account may be the hashing ks
    const s = await emu.call("appToken", "startSession", { ks: admin, id: t.id, tokenHash: hash("md5", admin + t.token), userId: "carol", expiry: 100000 });
    expect(s).toMatchObject({ sessionType: 0, userId: "carol", expiry: 1_800_000_000 + 86400 });
    const shorter = await emu.call("appToken", "startSession", { ks: admin, id: t.id, tokenHash: hash("md5", admin + t.token), expiry: 60 });
    expect(shorter.expiry).toBe(1_800_000_060);
  });

  it("startSession errors: bad hash, missing token, expired token", async () => {
    const t = await add({ hashType: "SHA1", expiry: 1_800_000_000 + 10 });
    const w = await emu.call("session", "startWidgetSession", { widgetId: `_${PARTNER_ID}` });
    expect((await emu.call("appToken", "startSession", { ks: w.ks, id: t.id, tokenHash: hash("sha1", t.token) })).code).toBe("INVALID_APP_TOKEN_HASH");
    expect((await emu.call("appToken", "startSession", { ks: w.ks, id: t.id, tokenHash: hash("sha256", w.ks + t.token) })).code).toBe("INVALID_APP_TOKEN_HASH");
    const ok = await emu.call("appToken", "startSession", { ks: w.ks, id: t.id, tokenHash: hash("sha1", w.ks + t.token) });
    expect(ok.expiry).toBe(1_800_000_010);
    clock += 11_000;
    const w2 = await emu.call("session", "startWidgetSession", { widgetId: `_${PARTNER_ID}` });
    expect((await emu.call("appToken", "startSession", { ks: w2.ks, id: t.id, tokenHash: hash("sha1", w2.ks + t.token) })).code).toBe("APP_TOKEN_EXPIRED");
    expect((await emu.call("appToken", "startSession", { ks: w2.ks, id: t.id })).code).toBe("MISSING_MANDATORY_PARAMETER");
    expect((await emu.call("appToken", "startSession", { id: t.id, tokenHash: "x" })).code).toBe("MISSING_KS");
  });

  it("startSession refuses a token that is not active", async () => {
    const t = await add({ hashType: "SHA256" });
    // Status 1 (disabled) is not reachable through the API; set it in the store as an operator would.
    emu.ctx.store.putDoc("appToken", t.id, PARTNER_ID, { ...t, status: 1 });
    const w = await emu.call("session", "startWidgetSession", { widgetId: `_${PARTNER_ID}` });
    expect((await emu.call("appToken", "startSession", { ks: w.ks, id: t.id, tokenHash: hash("sha256", w.ks + t.token) })).code).toBe("APP_TOKEN_NOT_ACTIVE");
  });

  it("another account cannot see the token", async () => {
    const t = await add();
    const other = emu.ctx.createPartner("other-secret-123");
    const otherKs = await emu.call("session", "start", { secret: "other-secret-123", partnerId: other.id, type: 2 });
    expect((await emu.call("appToken", "get", { ks: otherKs, id: t.id })).code).toBe("APP_TOKEN_ID_NOT_FOUND");
    expect((await emu.call("appToken", "list", { ks: otherKs })).totalCount).toBe(0);
    expect(ADMIN_SECRET).not.toBe("other-secret-123");
  });
});
