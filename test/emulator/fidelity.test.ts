/**
 * Wire fidelity with the real server (issue 19, items 1-3): multirequest references count sub-requests by execution
 * order from 1 whatever keys were sent; an action's arguments are all built (MISSING_MANDATORY_PARAMETER) before
 * it looks anything up; `eventNotificationTemplate[objectType]` is required on clone and update; filter[objectType]
 * is honoured.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { form, inProcess, type InProcess } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";
const HTTP = "SvcHttpNotificationTemplate";

describe("wire fidelity: multirequest, argument order, template objectType", () => {
  let emu: InProcess;
  let ks: string;
  beforeEach(async () => {
    emu = inProcess();
    ks = await emu.adminKs();
  });
  afterEach(() => emu.close());

  const multi = async (params: Record<string, string | number>) => {
    const res = await emu.app.request("/api_v3/service/multirequest", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ format: 1, ks, ...params }),
    });
    return res.json();
  };

  it("multirequest: keys from 0 (the official client) and {1:result} is the first sub-request's result", async () => {
    const body = await multi({
      "0:service": "appToken",
      "0:action": "add",
      "0:appToken[objectType]": "SvcAppToken",
      "0:appToken[description]": "first",
      "1:service": "appToken",
      "1:action": "get",
      "1:id": "{1:result:id}",
    });
    expect(body).toHaveLength(2);
    expect(body[0]).toMatchObject({ objectType: "SvcAppToken", description: "first" });
    // On the old emulator {1:result:id} named the request itself (key 1), which had no result yet.
    expect(body[1]).toMatchObject({ objectType: "SvcAppToken", id: body[0].id });
  });

  it("multirequest: references count by execution order, not by the (sparse) keys sent", async () => {
    const body = await multi({
      "5:service": "appToken",
      "5:action": "add",
      "5:appToken[objectType]": "SvcAppToken",
      "5:appToken[description]": "five",
      "9:service": "appToken",
      "9:action": "update",
      "9:id": "{1:result:id}",
      "9:appToken[objectType]": "SvcAppToken",
      "9:appToken[description]": "after {1:result:description}",
      "12:service": "appToken",
      "12:action": "get",
      "12:id": "{2:result:id}",
    });
    expect(body.map((b: { description?: string }) => b.description)).toEqual(["five", "after five", "after five"]);
  });

  it("updateStatus: a missing status is reported before the unknown id", async () => {
    const r = await emu.call(SVC, "updateStatus", { ks, id: "999999" });
    expect(r).toMatchObject({ code: "MISSING_MANDATORY_PARAMETER", args: { PARAM_NAME: "status" } });
    expect((await emu.call(SVC, "updateStatus", { ks, id: "999999", status: 2 })).code).toBe("EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND");
  });

  it("appToken.update: a missing or untyped appToken is reported before the unknown id", async () => {
    expect(await emu.call("appToken", "update", { ks, id: "0_nothere0" })).toMatchObject({
      code: "MISSING_MANDATORY_PARAMETER",
      args: { PARAM_NAME: "appToken:objectType" },
    });
    expect(await emu.call("appToken", "update", { ks, id: "0_nothere0", "appToken[objectType]": "SvcAppToken" })).toMatchObject({
      code: "APP_TOKEN_ID_NOT_FOUND",
    });
  });

  it("clone and update require eventNotificationTemplate[objectType], before any lookup", async () => {
    const fields = { "eventNotificationTemplate[name]": "Hook", "eventNotificationTemplate[url]": "https://example.test/h" };
    expect(await emu.call(SVC, "clone", { ks, id: "101", ...fields })).toMatchObject({
      code: "MISSING_MANDATORY_PARAMETER",
      args: { PARAM_NAME: "eventNotificationTemplate:objectType" },
    });
    expect((await emu.call(SVC, "clone", { ks, id: "no-such", ...fields })).code).toBe("MISSING_MANDATORY_PARAMETER");
    const t = await emu.call(SVC, "clone", { ks, id: "101", "eventNotificationTemplate[objectType]": HTTP, ...fields });
    expect(t.objectType).toBe(HTTP);
    expect((await emu.call(SVC, "update", { ks, id: t.id, "eventNotificationTemplate[name]": "Renamed" })).code).toBe("MISSING_MANDATORY_PARAMETER");
    expect((await emu.call(SVC, "update", { ks, id: "77777", "eventNotificationTemplate[name]": "Renamed" })).code).toBe("MISSING_MANDATORY_PARAMETER");
    expect((await emu.call(SVC, "update", { ks, id: t.id, "eventNotificationTemplate[objectType]": "SvcNope" })).code).toBe("INVALID_ENUM_VALUE");
    const u = await emu.call(SVC, "update", { ks, id: t.id, "eventNotificationTemplate[objectType]": HTTP, "eventNotificationTemplate[name]": "Renamed" });
    expect(u.name).toBe("Renamed");
  });

  it("filter[objectType] narrows listTemplates and list to one kind of template", async () => {
    const kinds = async (action: string, filterType?: string) =>
      (await emu.call(SVC, action, { ks, ...(filterType ? { "filter[objectType]": filterType } : {}) })).objects.map(
        (t: { objectType: string }) => t.objectType,
      );
    const all = await kinds("listTemplates", "SvcEventNotificationTemplateFilter");
    expect(new Set(all)).toEqual(new Set([HTTP, "SvcEmailNotificationTemplate"]));
    expect(new Set(await kinds("listTemplates", "SvcEmailNotificationTemplateFilter"))).toEqual(new Set(["SvcEmailNotificationTemplate"]));
    expect(new Set(await kinds("listTemplates", "SvcHttpNotificationTemplateFilter"))).toEqual(new Set([HTTP]));
    await emu.call(SVC, "clone", { ks, id: "101", "eventNotificationTemplate[objectType]": HTTP, "eventNotificationTemplate[url]": "https://example.test/h" });
    expect(await kinds("list", "SvcEmailNotificationTemplateFilter")).toEqual([]);
    expect(await kinds("list", "SvcHttpNotificationTemplateFilter")).toEqual([HTTP]);
    expect(await emu.call(SVC, "listTemplates", { ks, "filter[objectType]": "SvcAppTokenFilter" })).toMatchObject({
      code: "INVALID_OBJECT_TYPE",
      args: { TYPE: "SvcAppTokenFilter" },
    });
  });
});
