import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_SECRET, PARTNER_ID, inProcess, type InProcess } from "./helpers";

/** Independent v2 ks decoder (the format: docs/emulator.md, Sessions), written here so the test checks the format itself. */
function decodeKs(ks: string, secret: string): { partnerId: number; fields: URLSearchParams } {
  const raw = Buffer.from(ks, "base64url");
  const second = raw.indexOf("|", 3);
  const header = raw.subarray(0, second + 1).toString();
  const [, pid] = header.split("|");
  const key = createHash("sha1").update(secret).digest().subarray(0, 16);
  const d = createDecipheriv("aes-128-cbc", key, Buffer.alloc(16));
  d.setAutoPadding(false);
  let plain = Buffer.concat([d.update(raw.subarray(second + 1)), d.final()]);
  let end = plain.length;
  while (plain[end - 1] === 0) end--;
  plain = plain.subarray(0, end);
  const sig = plain.subarray(0, 20);
  const body = plain.subarray(20);
  expect(createHash("sha1").update(body).digest().equals(sig)).toBe(true);
  return { partnerId: Number(pid), fields: new URLSearchParams(body.subarray(16).toString()) };
}

/** Builds a ks with a given secret (for forged/expired sessions). */
function buildKs(secret: string, partnerId: number, fields: string): string {
  const rand = Buffer.alloc(16, 7);
  const body = Buffer.concat([rand, Buffer.from(fields)]);
  const plain = Buffer.concat([createHash("sha1").update(body).digest(), body]);
  const padded = Buffer.concat([plain, Buffer.alloc((16 - (plain.length % 16)) % 16)]);
  const c = createCipheriv("aes-128-cbc", createHash("sha1").update(secret).digest().subarray(0, 16), Buffer.alloc(16));
  c.setAutoPadding(false);
  return Buffer.concat([Buffer.from(`v2|${partnerId}|`), c.update(padded), c.final()]).toString("base64url");
}

describe("session service", () => {
  let emu: InProcess;
  let clock = 1_800_000_000_000;
  beforeEach(() => {
    clock = 1_800_000_000_000;
    emu = inProcess({ now: () => clock });
  });
  afterEach(() => emu.close());

  it("start builds a real v2 ks with _e, _t, _u and the privileges", async () => {
    const ks = await emu.call("session", "start", {
      secret: ADMIN_SECRET,
      partnerId: PARTNER_ID,
      type: 2,
      userId: "alice",
      expiry: 600,
      privileges: "disableentitlement,edit:*",
    });
    expect(typeof ks).toBe("string");
    const { partnerId, fields } = decodeKs(ks, ADMIN_SECRET);
    expect(partnerId).toBe(PARTNER_ID);
    expect(fields.get("_t")).toBe("2");
    expect(fields.get("_u")).toBe("alice");
    expect(Number(fields.get("_e"))).toBe(clock / 1000 + 600);
    expect(fields.get("disableentitlement")).toBe("");
    expect(fields.get("edit")).toBe("*");
  });

  it("defaults: USER type and 86400 seconds", async () => {
    const ks = await emu.call("session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID });
    const { fields } = decodeKs(ks, ADMIN_SECRET);
    expect(fields.get("_t")).toBe("0");
    expect(Number(fields.get("_e"))).toBe(clock / 1000 + 86400);
  });

  it("a wrong secret or unknown partner gives START_SESSION_ERROR", async () => {
    const bad = await emu.call("session", "start", { secret: "nope", partnerId: PARTNER_ID, type: 2 });
    expect(bad).toMatchObject({ code: "START_SESSION_ERROR", objectType: "SvcAPIException", args: { PID: PARTNER_ID } });
    expect(JSON.stringify(bad)).not.toContain("nope");
    const unknown = await emu.call("session", "start", { secret: ADMIN_SECRET, partnerId: 1, type: 2 });
    expect(unknown.code).toBe("START_SESSION_ERROR");
  });

  it("missing secret is MISSING_MANDATORY_PARAMETER; a bad type is INVALID_ENUM_VALUE", async () => {
    expect(await emu.call("session", "start", { partnerId: PARTNER_ID })).toMatchObject({
      code: "MISSING_MANDATORY_PARAMETER",
      args: { PARAM_NAME: "secret" },
    });
    expect((await emu.call("session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 1 })).code).toBe("INVALID_ENUM_VALUE");
  });

  it("a missing ks is MISSING_KS; garbage, forged and expired sessions are INVALID_KS", async () => {
    expect((await emu.call("appToken", "list")).code).toBe("MISSING_KS");
    const garbled = await emu.call("appToken", "list", { ks: "not-a-ks" });
    expect(garbled).toMatchObject({ code: "INVALID_KS", args: { ERR_CODE: -1, ERR_DESC: "INVALID_STR" } });
    const forged = buildKs("another-secret", PARTNER_ID, `_e=${clock / 1000 + 100}&_t=2&_u=x`);
    expect((await emu.call("appToken", "list", { ks: forged })).code).toBe("INVALID_KS");
    const good = buildKs(ADMIN_SECRET, PARTNER_ID, `_e=${clock / 1000 + 100}&_t=2&_u=x`);
    expect((await emu.call("appToken", "list", { ks: good })).objectType).toBe("SvcAppTokenListResponse");
    clock += 101_000;
    const expired = await emu.call("appToken", "list", { ks: good });
    expect(expired).toMatchObject({ code: "INVALID_KS", args: { ERR_CODE: -5, ERR_DESC: "EXPIRED" } });
    expect(JSON.stringify(expired)).not.toContain(good);
    const otherPartner = buildKs(ADMIN_SECRET, 999, `_e=${clock / 1000 + 100}&_t=2&_u=x`);
    expect((await emu.call("appToken", "list", { ks: otherPartner })).args.ERR_DESC).toBe("INVALID_PARTNER");
  });

  it("a flipped byte breaks the signature", async () => {
    const ks: string = await emu.call("session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2 });
    const raw = Buffer.from(ks, "base64url");
    raw[raw.length - 20] = (raw[raw.length - 20] ?? 0) ^ 0xff;
    expect((await emu.call("appToken", "list", { ks: raw.toString("base64url") })).code).toBe("INVALID_KS");
  });

  it("USER sessions are forbidden where ADMIN is needed; templates need disableentitlement", async () => {
    const user = await emu.call("session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 0, privileges: "disableentitlement" });
    expect((await emu.call("appToken", "list", { ks: user })).code).toBe("SERVICE_FORBIDDEN");
    const plainAdmin = await emu.adminKs("");
    expect((await emu.call("appToken", "list", { ks: plainAdmin })).objectType).toBe("SvcAppTokenListResponse");
    const denied = await emu.call("eventnotification_eventnotificationtemplate", "listTemplates", { ks: plainAdmin });
    expect(denied.code).toBe("SERVICE_FORBIDDEN");
    const allowed = await emu.call("eventnotification_eventnotificationtemplate", "listTemplates", { ks: await emu.adminKs() });
    expect(allowed.objectType).toBe("SvcEventNotificationTemplateListResponse");
  });

  it("a partnerId parameter naming another account is SERVICE_FORBIDDEN", async () => {
    const ks = await emu.adminKs();
    expect((await emu.call("appToken", "list", { ks, partnerId: 777 })).code).toBe("SERVICE_FORBIDDEN");
  });

  it("end invalidates the session for good", async () => {
    const ks = await emu.adminKs();
    expect(await emu.call("session", "end", { ks })).toBe("");
    expect(await emu.call("appToken", "list", { ks })).toMatchObject({ code: "INVALID_KS", args: { ERR_DESC: "LOGOUT" } });
    const other = await emu.adminKs();
    expect((await emu.call("appToken", "list", { ks: other })).objectType).toBe("SvcAppTokenListResponse");
  });

  it("get describes a session", async () => {
    const ks = await emu.call("session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2, userId: "bob", privileges: "a:1,b" });
    expect(await emu.call("session", "get", { ks })).toMatchObject({
      sessionType: 2,
      partnerId: PARTNER_ID,
      userId: "bob",
      privileges: "a:1,b",
      objectType: "SvcSessionInfo",
    });
  });

  it("a widget session is usable only for appToken.startSession", async () => {
    const w = await emu.call("session", "startWidgetSession", { widgetId: `_${PARTNER_ID}` });
    expect(w).toMatchObject({ partnerId: PARTNER_ID, objectType: "SvcStartWidgetSessionResponse" });
    expect((await emu.call("appToken", "list", { ks: w.ks })).code).toBe("SERVICE_FORBIDDEN");
    expect((await emu.call("baseEntry", "add", { ks: w.ks, "entry[name]": "x" })).code).toBe("SERVICE_FORBIDDEN");
    expect((await emu.call("appToken", "startSession", { ks: w.ks, id: "0_missing1", tokenHash: "00" })).code).toBe("APP_TOKEN_ID_NOT_FOUND");
    expect((await emu.call("session", "startWidgetSession", { widgetId: "_1" })).code).toBe("INVALID_WIDGET_ID");
  });
});
