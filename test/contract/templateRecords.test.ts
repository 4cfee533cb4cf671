/**
 * Templates of both kinds are written once, in the contract: the emulator's record is the contract's record schemas
 * plus its catalog event, and every catalog event has one system template of each kind.
 */
import { describe, expect, it } from "vitest";
import { EmailTemplateRecord } from "../../contract/emailTemplates";
import { EVENT_KEYS, templateMatchesEvent } from "../../contract/events";
import { HttpTemplateRecord } from "../../contract/platform";
import { SYSTEM_TEMPLATES, TemplateRecord } from "../../emulator/events/catalog";

describe("template records", () => {
  it("the emulator's template record is the contract's two record schemas plus its catalog event, nothing written again", () => {
    const contractFields = new Set([...Object.keys(HttpTemplateRecord.shape), ...Object.keys(EmailTemplateRecord.shape), "event"]);
    expect(new Set(Object.keys(TemplateRecord.shape))).toEqual(contractFields);
    for (const t of SYSTEM_TEMPLATES) {
      const schema = t.objectType === "SvcEmailNotificationTemplate" ? EmailTemplateRecord : HttpTemplateRecord;
      expect(schema.safeParse(t).success, t.systemName).toBe(true);
    }
  });

  it("every catalog event has exactly one email system template", () => {
    for (const key of EVENT_KEYS) {
      const email = SYSTEM_TEMPLATES.filter((t) => t.objectType === "SvcEmailNotificationTemplate" && templateMatchesEvent(t, key));
      expect(
        email.map((t) => t.event),
        key,
      ).toEqual([key]);
    }
  });
});
