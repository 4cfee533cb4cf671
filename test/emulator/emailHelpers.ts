/** Helpers of the email template tests: form fields of an email template and a sample one. */
import type { Params } from "./helpers";

/** `eventNotificationTemplate[...]` form fields of an email template (nested objects and lists as a[b][0][c]). */
export function emailFields(fields: Record<string, unknown>, prefix = "eventNotificationTemplate"): Params {
  const out: Params = {};
  const walk = (value: unknown, name: string): void => {
    if (value === null) out[`${name}__null`] = "";
    else if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${name}[${i}]`);
    else if (typeof value === "object") for (const [k, v] of Object.entries(value as object)) walk(v, `${name}[${k}]`);
    else out[name] = value as string | number;
  };
  for (const [k, v] of Object.entries(fields)) walk(v, `${prefix}[${k}]`);
  return out;
}

export const editors = {
  name: "Tell editors",
  systemName: "EDITORS_ENTRY_READY",
  subject: "Ready: {entry_name}",
  body: "Entry {entry_name} ({entry_id}) is ready. {unknown_key} stays.",
  fromEmail: "platform@example.com",
  fromName: "Video platform",
  to: { objectType: "SvcEmailNotificationStaticRecipientProvider" as const, emailRecipients: [{ email: "editors@example.com", name: "Editors" }] },
  bcc: { emailRecipients: [{ email: "audit@example.com" }] },
  priority: 1,
  contentParameters: [
    { key: "entry_name", description: "Entry name", value: "{entry.name}" },
    { key: "entry_id", value: "{object.id}" },
  ],
};
