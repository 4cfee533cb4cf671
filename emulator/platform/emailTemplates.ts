/**
 * The email kind's part of `eventnotification_eventnotificationtemplate` clone and update: reads the email fields
 * of `eventNotificationTemplate[...]` (nested objects and lists as `to[emailRecipients][0][email]`, or nested JSON)
 * with the contract's schema, applies them to the record, and checks what a clone must have (`to`).
 * The shared service file calls applyEmailFields and assertEmailComplete; everything else about the email kind
 * (rendering, sending) lives in emulator/events/ and emulator/mail/.
 */
import type { z } from "zod";
import { EMAIL_CLEARABLE, EmailTemplateUpdateFields } from "../../contract/emailTemplates";
import { TemplateType } from "../../contract/platform";
import type { ApiCall } from "../api/call";
import type { ParamTree, ParamValue } from "../api/params";
import { ApiError, cannotBeNull, invalidEnum, invalidField } from "../shared/errors";
import type { TemplateRecord } from "../events/catalog";

const OBJECT = "eventNotificationTemplate";
/** Fields applyEmailFields owns; name, systemName and description stay with the shared service. */
const EMAIL_FIELDS = ["format", "subject", "body", "fromEmail", "fromName", "to", "cc", "bcc", "replyTo", "priority", "contentParameters"] as const;
type EmailField = (typeof EMAIL_FIELDS)[number];

/** Applies the email fields sent with a clone or update to an email template; a sent object or list replaces the stored one. */
export function applyEmailFields(call: ApiCall, t: TemplateRecord): void {
  if (t.type !== TemplateType.EMAIL) return;
  const className = t.objectType;
  const tree = call.object(OBJECT) ?? {};
  const values: Record<string, unknown> = {};
  const nulls: EmailField[] = [];
  for (const field of EMAIL_FIELDS) {
    const v = tree[field];
    if (v === undefined) continue;
    if (v === null) nulls.push(field);
    else values[field] = toPlain(v);
  }
  for (const field of nulls) {
    if (!(EMAIL_CLEARABLE as readonly string[]).includes(field)) throw cannotBeNull(`${className}::${field}`);
    delete t[field];
  }
  const fields = parseFields(values, className);
  for (const field of EMAIL_FIELDS) {
    if (fields[field] !== undefined) Object.assign(t, { [field]: fields[field] });
  }
}

/** A clone of the email kind must say who is told: `to` (PROPERTY_VALIDATION_CANNOT_BE_NULL otherwise). */
export function assertEmailComplete(t: TemplateRecord): void {
  if (t.type === TemplateType.EMAIL && !t.to?.emailRecipients.length) throw cannotBeNull(`${t.objectType}::to`);
}

function parseFields(values: Record<string, unknown>, className: string): z.output<typeof EmailTemplateUpdateFields> {
  const parsed = EmailTemplateUpdateFields.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map(String);
  const field = path[0] ?? OBJECT;
  if (field === "format" || field === "priority") {
    throw invalidEnum(String(values[field]), `${OBJECT}:${field}`, field === "format" ? "SvcEmailNotificationFormat" : "SvcEmailNotificationTemplatePriority");
  }
  if (issue.code === "invalid_type" && valueAt(values, path) === undefined) throw cannotBeNull(`${className}::${path.join(".")}`);
  if (issue.code === "invalid_value" && path[path.length - 1] === "objectType") {
    throw new ApiError("INVALID_OBJECT_TYPE", `Invalid object type "${String(valueAt(values, path))}"`, { TYPE: String(valueAt(values, path)) });
  }
  throw invalidField(`${className}::${path.join(".")}`, issue.message);
}

/** A param subtree as plain data: objects whose keys are all indexes (`[0]`, `[1]`) become arrays, in index order. */
function toPlain(v: ParamValue): unknown {
  if (v === null || typeof v === "string") return v;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => toPlain((v as ParamTree)[k] as ParamValue));
  }
  return Object.fromEntries(keys.map((k) => [k, toPlain(v[k] as ParamValue)]));
}

function valueAt(input: unknown, path: string[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
