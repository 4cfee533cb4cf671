import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PARTNER_ID, inProcess, type InProcess } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";

describe("event notification templates", () => {
  let emu: InProcess;
  let ks: string;
  beforeEach(async () => {
    emu = inProcess();
    ks = await emu.adminKs();
  });
  afterEach(() => emu.close());

  const clone = (id: string, fields: Record<string, string | number>) =>
    emu.call(SVC, "clone", {
      ks,
      id,
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [`eventNotificationTemplate[${k}]`, v])),
    });
  const hook = { name: "My hook", systemName: "MY_HOOK", url: "https://example.test/hook", method: 2, signSecret: "s3cret-signing", secureHashingAlgo: 2 };

  it("listTemplates shows the partner-0 catalog, filterable by type", async () => {
    const all = await emu.call(SVC, "listTemplates", { ks, "filter[objectType]": "SvcEventNotificationTemplateFilter" });
    expect(all.objectType).toBe("SvcEventNotificationTemplateListResponse");
    const names = all.objects.map((t: { systemName: string }) => t.systemName);
    for (const n of [
      "HTTP_ENTRY_ADDED",
      "HTTP_ENTRY_TRANSCODING_COMPLETE",
      "HTTP_ENTRY_UPDATED",
      "HTTP_ENTRY_DELETED",
      "HTTP_ENTRY_STATUS_READY",
      "HTTP_METADATA_CHANGED",
      "HTTP_USER_ADDED_TO_CATEGORY",
    ]) {
      expect(names).toContain(n);
    }
    const http = await emu.call(SVC, "listTemplates", { ks, "filter[typeEqual]": "httpNotification.Http" });
    expect(
      http.objects.every((t: { type: string; partnerId: number; status: number }) => t.type === "httpNotification.Http" && t.partnerId === 0 && t.status === 1),
    ).toBe(true);
    expect(http.totalCount).toBe(7);
    const added = http.objects.find((t: { systemName: string }) => t.systemName === "HTTP_ENTRY_ADDED");
    expect(added).toMatchObject({ id: "101", eventType: "2", eventObjectType: "1", objectType: "SvcHttpNotificationTemplate" });
  });

  it("clone makes a disabled template of the account; updateStatus activates it", async () => {
    const t = await clone("101", hook);
    expect(t).toMatchObject({
      ...hook,
      partnerId: PARTNER_ID,
      status: 1,
      type: "httpNotification.Http",
      eventType: "2",
      eventObjectType: "1",
      objectType: "SvcHttpNotificationTemplate",
    });
    expect(Number(t.id)).toBeGreaterThan(1000);
    expect(t.event).toBeUndefined();
    const active = await emu.call(SVC, "updateStatus", { ks, id: t.id, status: 2 });
    expect(active.status).toBe(2);
    expect((await emu.call(SVC, "get", { ks, id: t.id })).status).toBe(2);
    expect((await emu.call(SVC, "updateStatus", { ks, id: t.id, status: 7 })).code).toBe("INVALID_ENUM_VALUE");
  });

  it("clone validates: name length, duplicate systemName, wrong type, unknown id, url", async () => {
    expect(await clone("101", { ...hook, name: "ab" })).toMatchObject({
      code: "PROPERTY_VALIDATION_MIN_LENGTH",
      args: { PROP_NAME: "SvcHttpNotificationTemplate::name" },
    });
    await clone("101", hook);
    expect(await clone("103", hook)).toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_DUPLICATE_SYSTEM_NAME", args: { NAME: "MY_HOOK" } });
    expect((await clone("201", { ...hook, systemName: "OTHER" })).code).toBe("EVENT_NOTIFICATION_WRONG_TYPE");
    expect(await clone("999", { ...hook, systemName: "X2" })).toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND", args: { ID: "999" } });
    expect((await clone("101", { ...hook, systemName: "X3", url: "not a url" })).code).toBe("INVALID_FIELD_VALUE");
    const { url: _u, ...noUrl } = hook;
    expect((await clone("101", { ...noUrl, systemName: "X4" })).code).toBe("PROPERTY_VALIDATION_CANNOT_BE_NULL");
    expect((await clone("101", { ...hook, systemName: "X5", method: 9 })).code).toBe("INVALID_ENUM_VALUE");
    // a clone without a systemName never clashes
    expect((await clone("101", { name: "no system name", url: hook.url })).systemName).toBeUndefined();
  });

  it("signSecret is shown to the account admin, not to app-token sessions", async () => {
    const t = await clone("101", hook);
    expect((await emu.call(SVC, "get", { ks, id: t.id })).signSecret).toBe(hook.signSecret);
    const token = await emu.call("appToken", "add", {
      ks,
      "appToken[objectType]": "SvcAppToken",
      "appToken[sessionType]": 2,
      "appToken[sessionPrivileges]": "disableentitlement",
    });
    const { createHash } = await import("node:crypto");
    const s = await emu.call("appToken", "startSession", {
      ks,
      id: token.id,
      tokenHash: createHash("sha1")
        .update(ks + token.token)
        .digest("hex"),
    });
    const seen = await emu.call(SVC, "get", { ks: s.ks, id: t.id });
    expect(seen.id).toBe(t.id);
    expect(seen.signSecret).toBeUndefined();
  });

  it("list is the account's own, id descending, paged; delete hides a template", async () => {
    const a = await clone("101", { ...hook, systemName: "A" });
    const b = await clone("103", { ...hook, systemName: "B" });
    const c = await clone("104", { ...hook, systemName: "C" });
    const list = await emu.call(SVC, "list", { ks });
    expect(list.objects.map((t: { id: string }) => t.id)).toEqual([c.id, b.id, a.id]);
    expect(list.totalCount).toBe(3);
    const page = await emu.call(SVC, "list", { ks, "pager[pageSize]": 1, "pager[pageIndex]": 2 });
    expect(page.objects.map((t: { id: string }) => t.id)).toEqual([b.id]);
    expect((await emu.call(SVC, "list", { ks, "filter[systemNameEqual]": "A" })).objects[0].id).toBe(a.id);
    expect(await emu.call(SVC, "delete", { ks, id: b.id })).toBe("");
    expect((await emu.call(SVC, "get", { ks, id: b.id })).code).toBe("EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND");
    expect((await emu.call(SVC, "delete", { ks, id: b.id })).code).toBe("EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND");
    expect((await emu.call(SVC, "list", { ks })).totalCount).toBe(2);
    expect((await emu.call(SVC, "list", { ks, "filter[statusEqual]": 3 })).objects[0].id).toBe(b.id);
    // the system name of a deleted template is free again
    expect((await clone("103", { ...hook, systemName: "B" })).systemName).toBe("B");
  });

  it("update changes fields in place and checks them", async () => {
    const t = await clone("101", hook);
    const u = await emu.call(SVC, "update", {
      ks,
      id: t.id,
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[url]": "https://example.test/v2",
      "eventNotificationTemplate[name]": "Renamed",
      "eventNotificationTemplate[description__null]": "",
    });
    expect(u).toMatchObject({ url: "https://example.test/v2", name: "Renamed", systemName: "MY_HOOK", signSecret: hook.signSecret });
    expect(
      (
        await emu.call(SVC, "update", {
          ks,
          id: t.id,
          "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
          "eventNotificationTemplate[name]": "x",
        })
      ).code,
    ).toBe("PROPERTY_VALIDATION_MIN_LENGTH");
    await clone("103", { ...hook, systemName: "TAKEN" });
    expect(
      (
        await emu.call(SVC, "update", {
          ks,
          id: t.id,
          "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
          "eventNotificationTemplate[systemName]": "TAKEN",
        })
      ).code,
    ).toBe("EVENT_NOTIFICATION_TEMPLATE_DUPLICATE_SYSTEM_NAME");
    expect((await emu.call(SVC, "update", { ks, id: t.id, "eventNotificationTemplate[objectType]": "SvcEmailNotificationTemplate" })).code).toBe(
      "EVENT_NOTIFICATION_WRONG_TYPE",
    );
    expect(
      (
        await emu.call(SVC, "update", {
          ks,
          id: "101",
          "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
          "eventNotificationTemplate[name]": "hijack",
        })
      ).code,
    ).toBe("EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND");
  });
});
