/** Email notification templates in the emulator: catalog, clone/update/updateStatus/delete/list rules and errors. */
import { describe, expect, it } from "vitest";
import { sampleObject, SYSTEM_TEMPLATES } from "../../emulator/events/catalog";
import { renderEmail } from "../../emulator/events/emailRender";
import { editors, emailFields } from "./emailHelpers";
import { freshEmulator, PARTNER_ID, type Params } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";
const EMAIL = "SvcEmailNotificationTemplate";

describe("email notification templates", () => {
  const t = freshEmulator();
  const call = (action: string, params: Params) => t.emu.call(SVC, action, { ks: t.ks, ...params });
  const clone = (id: string, fields: Record<string, unknown>, objectType = EMAIL) =>
    call("clone", { id, "eventNotificationTemplate[objectType]": objectType, ...emailFields(fields) });
  const update = (id: string, fields: Record<string, unknown>) =>
    call("update", { id, "eventNotificationTemplate[objectType]": EMAIL, ...emailFields(fields) });

  it("listTemplates filters the catalog's email templates by type", async () => {
    const list = await call("listTemplates", { "filter[objectType]": "SvcEventNotificationTemplateFilter", "filter[typeEqual]": "emailNotification.Email" });
    expect(list.objects.map((x: { systemName: string }) => x.systemName)).toEqual([
      "EMAIL_ENTRY_ADDED",
      "EMAIL_ENTRY_READY",
      "EMAIL_ENTRY_DELETED",
      "EMAIL_USER_ADDED_TO_CATEGORY",
      "EMAIL_ENTRY_TRANSCODING_COMPLETE",
      "EMAIL_ENTRY_UPDATED",
      "EMAIL_METADATA_CHANGED",
    ]);
    const ready = list.objects[1];
    expect(ready).toMatchObject({
      id: "202",
      partnerId: 0,
      status: 1,
      type: "emailNotification.Email",
      objectType: EMAIL,
      eventType: "12",
      eventObjectType: "1",
      format: 2,
      priority: 3,
      fromEmail: expect.stringContaining("@"),
      subject: expect.stringContaining("{entry_name}"),
    });
    expect(ready.to).toBeUndefined();
    expect(ready.contentParameters.map((p: { key: string }) => p.key)).toEqual(["entry_id", "entry_name", "partner_id"]);
  });

  it("clone makes a disabled email template with the fields sent; the rest comes from the system template", async () => {
    const made = await clone("202", editors);
    expect(made).toMatchObject({
      name: "Tell editors",
      systemName: "EDITORS_ENTRY_READY",
      partnerId: PARTNER_ID,
      status: 1,
      type: "emailNotification.Email",
      objectType: EMAIL,
      eventType: "12",
      format: 2,
      subject: "Ready: {entry_name}",
      fromEmail: "platform@example.com",
      priority: 1,
      to: { objectType: "SvcEmailNotificationStaticRecipientProvider", emailRecipients: [{ email: "editors@example.com", name: "Editors" }] },
      bcc: { objectType: "SvcEmailNotificationStaticRecipientProvider", emailRecipients: [{ email: "audit@example.com" }] },
      contentParameters: editors.contentParameters,
    });
    expect(made.event).toBeUndefined();
    expect(await call("get", { id: made.id })).toEqual(made);
    // the same fields as JSON, as the real service also takes them
    const json = await t.emu.app.request("/api_v3/service/eventnotification_eventnotificationtemplate/action/clone", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ format: 1, ks: t.ks, id: "201", eventNotificationTemplate: { ...editors, objectType: EMAIL, systemName: "JSON_ONE" } }),
    });
    expect(await json.json()).toMatchObject({ systemName: "JSON_ONE", to: editors.to, contentParameters: editors.contentParameters });
  });

  it("refuses bad fields with the platform's errors, naming the field", async () => {
    const to = editors.to;
    expect(await clone("202", { name: "Recipients missing" })).toMatchObject({
      code: "PROPERTY_VALIDATION_CANNOT_BE_NULL",
      args: { PROP_NAME: `${EMAIL}::to` },
    });
    expect(await clone("202", { name: "ab", to })).toMatchObject({ code: "PROPERTY_VALIDATION_MIN_LENGTH", args: { PROP_NAME: `${EMAIL}::name` } });
    expect(await clone("202", { name: "Bad email", to: { emailRecipients: [{ email: "not-an-address" }] } })).toMatchObject({
      code: "INVALID_FIELD_VALUE",
      args: { FIELD_NAME: `${EMAIL}::to.emailRecipients.0.email` },
    });
    expect(await clone("202", { name: "Bad format", to, format: 7 })).toMatchObject({
      code: "INVALID_ENUM_VALUE",
      args: { PARAM_NAME: "eventNotificationTemplate:format", VALUE: "7" },
    });
    expect(await clone("202", { name: "Bad priority", to, priority: 2 })).toMatchObject({ code: "INVALID_ENUM_VALUE", args: { VALUE: "2" } });
    expect(await clone("202", { name: "Bad from", to, fromEmail: "x" })).toMatchObject({
      code: "INVALID_FIELD_VALUE",
      args: { FIELD_NAME: `${EMAIL}::fromEmail` },
    });
    expect(await clone("202", { name: "Bad placeholder", to, contentParameters: [{ key: "k", value: "{entry.name} {ks}" }] })).toMatchObject({
      code: "INVALID_FIELD_VALUE",
      args: { FIELD_NAME: `${EMAIL}::contentParameters.0.value` },
    });
    expect(
      await clone("202", {
        name: "Twice",
        to,
        contentParameters: [
          { key: "a", value: "1" },
          { key: "a", value: "2" },
        ],
      }),
    ).toMatchObject({ code: "INVALID_FIELD_VALUE", args: { FIELD_NAME: `${EMAIL}::contentParameters` } });
    expect(
      await clone("202", { name: "Other provider", to: { objectType: "SvcEmailNotificationCategoryRecipientProvider", emailRecipients: [] } }),
    ).toMatchObject({ code: "INVALID_OBJECT_TYPE" });
    expect(await clone("202", { name: "Header injection", to, subject: "a\r\nBcc: x@example.com" })).toMatchObject({
      code: "INVALID_FIELD_VALUE",
      args: { FIELD_NAME: `${EMAIL}::subject` },
    });
    // the other kind, either way round
    expect(await clone("202", { name: "As HTTP", url: "https://example.test/h" }, "SvcHttpNotificationTemplate")).toMatchObject({
      code: "EVENT_NOTIFICATION_WRONG_TYPE",
    });
    expect(await clone("105", { name: "As email", to })).toMatchObject({ code: "EVENT_NOTIFICATION_WRONG_TYPE" });
    // systemName unique among the account's templates
    await clone("202", editors);
    expect(await clone("201", editors)).toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_DUPLICATE_SYSTEM_NAME", args: { NAME: "EDITORS_ENTRY_READY" } });
  });

  it("update changes fields in place, replaces lists whole, clears the clearable ones with __null", async () => {
    const made = await clone("202", { ...editors, cc: { emailRecipients: [{ email: "a@example.com" }, { email: "b@example.com" }] } });
    const changed = await update(made.id, { subject: "New {entry_id}", cc: { emailRecipients: [{ email: "c@example.com" }] }, format: 1 });
    expect(changed).toMatchObject({ subject: "New {entry_id}", format: 1, cc: { emailRecipients: [{ email: "c@example.com" }] }, to: editors.to });
    const cleared = await update(made.id, { cc: null, contentParameters: null, fromName: null });
    expect(cleared.cc).toBeUndefined();
    expect(cleared.contentParameters).toBeUndefined();
    expect(cleared.fromName).toBeUndefined();
    expect(await update(made.id, { subject: null })).toMatchObject({ code: "PROPERTY_VALIDATION_CANNOT_BE_NULL", args: { PROP_NAME: `${EMAIL}::subject` } });
    expect(await update(made.id, { to: null })).toMatchObject({ code: "PROPERTY_VALIDATION_CANNOT_BE_NULL", args: { PROP_NAME: `${EMAIL}::to` } });
    expect(await call("update", { id: made.id, "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate" })).toMatchObject({
      code: "EVENT_NOTIFICATION_WRONG_TYPE",
    });
    expect(await update("202", { subject: "system" })).toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND" });
  });

  it("list filters by type; updateStatus and delete work as for HTTP; another account sees nothing", async () => {
    const mail = await clone("202", editors);
    await call("clone", {
      id: "105",
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[name]": "A hook",
      "eventNotificationTemplate[url]": "https://example.test/hook",
    });
    const emails = await call("list", { "filter[objectType]": "SvcEventNotificationTemplateFilter", "filter[typeEqual]": "emailNotification.Email" });
    expect(emails.objects.map((x: { id: string }) => x.id)).toEqual([mail.id]);
    expect((await call("updateStatus", { id: mail.id, status: 2 })).status).toBe(2);
    expect(await call("delete", { id: mail.id })).toBe("");
    expect(await call("get", { id: mail.id })).toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND" });

    const kept = await clone("202", editors);
    const other = t.emu.ctx.createPartner("other-partner-secret-01");
    const otherKs = await t.emu.call("session", "start", { secret: other.adminSecret, partnerId: other.id, type: 2, privileges: "disableentitlement" });
    expect(await t.emu.call(SVC, "get", { ks: otherKs, id: kept.id })).toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND" });
    expect(
      (
        await t.emu.call(SVC, "list", {
          ks: otherKs,
          "filter[objectType]": "SvcEventNotificationTemplateFilter",
          "filter[typeEqual]": "emailNotification.Email",
        })
      ).totalCount,
    ).toBe(0);
  });

  it("every system email template renders its sample event with no placeholder left", () => {
    for (const system of SYSTEM_TEMPLATES.filter((x) => x.type === "emailNotification.Email")) {
      const mail = renderEmail({ ...system, to: editors.to }, system.event, sampleObject(system.event, PARTNER_ID, 1_700_000_000));
      expect(`${mail.subject}\n${mail.body}`, system.systemName).not.toMatch(/\{[A-Za-z_.]+\}/);
      expect(
        Object.values(mail.parameters).every((v) => v !== ""),
        system.systemName,
      ).toBe(true);
      expect(mail.to).toEqual(editors.to.emailRecipients);
    }
  });
});
