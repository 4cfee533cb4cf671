import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_SECRET, PARTNER_ID, form, inProcess, type InProcess } from "./helpers";

describe("api_v3 wire format", () => {
  let emu: InProcess;
  let ks: string;
  beforeEach(async () => {
    emu = inProcess();
    ks = await emu.adminKs();
  });
  afterEach(() => emu.close());

  const post = (path: string, body: string, type = "application/x-www-form-urlencoded") =>
    emu.app.request(path, { method: "POST", headers: { "content-type": type }, body });

  it("unknown service and action are platform errors with HTTP 200", async () => {
    const res = await post("/api_v3/service/nope/action/list", form({ format: 1, ks }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ code: "SERVICE_DOES_NOT_EXISTS", objectType: "SvcAPIException" });
    expect(await emu.call("appToken", "explode", { ks })).toMatchObject({ code: "ACTION_DOES_NOT_EXISTS", objectType: "SvcAPIException" });
  });

  it("errors with no args carry args: []", async () => {
    const body = await emu.call("appToken", "list");
    expect(body).toEqual({ code: "MISSING_KS", message: expect.any(String), objectType: "SvcAPIException", args: [] });
  });

  it("service and action may come from the query string, names are case-insensitive", async () => {
    const res = await post(`/api_v3/?service=APPTOKEN&action=LIST&format=1`, form({ ks }));
    expect((await res.json()).objectType).toBe("SvcAppTokenListResponse");
    const get = await post(`/api_v3/service/appToken/action/list?format=1&ks=${encodeURIComponent(ks)}`, "");
    expect((await get.json()).objectType).toBe("SvcAppTokenListResponse");
  });

  it("without format the answer is minimal XML", async () => {
    const ok = await post("/api_v3/service/session/action/start", form({ secret: ADMIN_SECRET, partnerId: PARTNER_ID }));
    expect(ok.headers.get("content-type")).toContain("xml");
    expect(await ok.text()).toMatch(/^<\?xml[^>]*><xml><result>[A-Za-z0-9_-]+<\/result><executionTime>/);
    const err = await post("/api_v3/service/appToken/action/list", "");
    expect(await err.text()).toContain("<error><code>MISSING_KS</code>");
  });

  it("null fields are omitted; times are unix seconds", async () => {
    const t = await emu.call("appToken", "add", { ks, "appToken[objectType]": "SvcAppToken" });
    expect("description" in t).toBe(false);
    expect("sessionPrivileges" in t).toBe(false);
    expect(t.createdAt).toBeLessThan(1e11);
  });

  it("multirequest runs in order, copies ks, resolves references and survives failures", async () => {
    const res = await post(
      "/api_v3/service/multirequest",
      form({
        format: 1,
        ks,
        "1:service": "appToken",
        "1:action": "add",
        "1:appToken[objectType]": "SvcAppToken",
        "1:appToken[description]": "first",
        "2:service": "appToken",
        "2:action": "get",
        "2:id": "0_missing0",
        "3:service": "appToken",
        "3:action": "update",
        "3:id": "{1:result:id}",
        "3:appToken:objectType": "SvcAppToken",
        "3:appToken:description": "second of {1:result:id}",
        "4:service": "appToken",
        "4:action": "delete",
        "4:id": "{1:result:id}",
      }),
    );
    const body = await res.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(4);
    expect(body[0]).toMatchObject({ objectType: "SvcAppToken", description: "first" });
    expect(body[1]).toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND", objectType: "SvcAPIException" });
    expect(body[2]).toMatchObject({ id: body[0].id, description: `second of ${body[0].id}` });
    expect(body[3]).toBeNull();
    expect((await emu.call("appToken", "get", { ks, id: body[0].id })).code).toBe("APP_TOKEN_ID_NOT_FOUND");
    expect(emu.ctx.stats.snapshot()).toMatchObject({ multirequest: 1, "appToken.add": 1, "appToken.get": 2, "appToken.update": 1, "appToken.delete": 1 });
  });

  it("multirequest through service=multirequest and a JSON body", async () => {
    const res = await post(
      "/api_v3/?service=multirequest",
      JSON.stringify({ format: 1, ks, "1": { service: "session", action: "get" }, "2": { service: "nope", action: "x" } }),
      "application/json",
    );
    const body = await res.json();
    expect(body[0]).toMatchObject({ objectType: "SvcSessionInfo", partnerId: PARTNER_ID });
    expect(body[1].code).toBe("SERVICE_DOES_NOT_EXISTS");
  });

  it("the stats endpoint counts calls per service.action and resets", async () => {
    await emu.call("appToken", "list", { ks });
    await emu.call("appToken", "list", { ks });
    const stats = await (await emu.app.request("/_emulator/stats")).json();
    expect(stats).toMatchObject({ "session.start": 1, "appToken.list": 2 });
    await emu.app.request("/_emulator/stats/reset", { method: "POST" });
    expect(await (await emu.app.request("/_emulator/stats")).json()).toEqual({});
  });

  it("the entry API adds, gets, updates and deletes", async () => {
    const e = await emu.call("media", "add", { ks, "mediaEntry[name]": "clip", "mediaEntry[mediaType]": 1 });
    expect(e).toMatchObject({ name: "clip", status: 2, objectType: "SvcMediaEntry", partnerId: PARTNER_ID });
    expect((await emu.call("baseEntry", "get", { ks, entryId: e.id })).name).toBe("clip");
    expect((await emu.call("baseEntry", "update", { ks, entryId: e.id, "entry[name]": "clip2" })).name).toBe("clip2");
    expect(await emu.call("baseEntry", "delete", { ks, entryId: e.id })).toBe("");
    expect((await emu.call("baseEntry", "get", { ks, entryId: e.id })).code).toBe("ENTRY_ID_NOT_FOUND");
  });
});
