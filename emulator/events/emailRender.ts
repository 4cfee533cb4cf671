/**
 * Renders an email template for one event: each content parameter's value is computed from the event (its
 * `{object.x}`, `{entry.x}` and `{template.x}` placeholders), then `{key}` in subject and body is replaced with
 * the parameter's value. A `{key}` that names no parameter is left as written (as the real service leaves it).
 * In an HTML body, values are HTML-escaped (an entry name is user input); in the subject, line breaks become spaces.
 */
import { CONTENT_PATH, EmailFormat, EmailTemplateRecord } from "../../contract/emailTemplates";
import { EVENTS, type EventKey } from "../../contract/events";
import type { RenderedEmail } from "../store/emailDeliveryStore";
import type { TemplateRecord } from "./catalog";

export function renderEmail(template: TemplateRecord, event: EventKey, object: Record<string, unknown>): RenderedEmail {
  const t = EmailTemplateRecord.parse(template);
  const scope = {
    object,
    entry: EVENTS[event].objectType === "SvcMediaEntry" ? object : undefined,
    template: { id: t.id, name: t.name, systemName: t.systemName },
  };
  const parameters: Record<string, string> = {};
  for (const p of t.contentParameters ?? []) {
    parameters[p.key] = p.value.replace(CONTENT_PATH, (_all, path: string) => text(valueAt(scope, path.split("."))));
  }
  const html = t.format === EmailFormat.HTML;
  return {
    from: { email: t.fromEmail, ...(t.fromName ? { name: t.fromName } : {}) },
    to: t.to?.emailRecipients ?? [],
    cc: t.cc?.emailRecipients ?? [],
    bcc: t.bcc?.emailRecipients ?? [],
    replyTo: t.replyTo?.emailRecipients ?? [],
    subject: fill(t.subject, parameters, (v) => v.replace(/[\r\n]+/g, " ")),
    body: fill(t.body, parameters, html ? escapeHtml : (v) => v),
    format: t.format,
    priority: t.priority,
    parameters,
  };
}

function fill(text: string, parameters: Record<string, string>, encode: (v: string) => string): string {
  return text.replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, (all, key: string) => (Object.hasOwn(parameters, key) ? encode(parameters[key] as string) : all));
}

function valueAt(root: unknown, path: string[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function text(v: unknown): string {
  if (v === undefined || v === null) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

function escapeHtml(v: string): string {
  return v.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}
