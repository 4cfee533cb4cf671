/**
 * getNotificationTemplate: one notification template of the account, a webhook (HTTP) or an email, by id or by
 * systemName. Deleted templates are not found; a webhook's signing secret is never returned.
 */
import { z } from "zod";
import { EmailFormat, EmailPriority, type EmailNotificationTemplate as EmailTemplate } from "../../contract/emailTemplates";
import { type EventNotificationTemplate, HttpMethod, SecureHashingAlgo, TemplateStatus, TemplateType } from "../../contract/platform";
import type { SvcClient } from "../../sdk";
import { plain } from "../core/diff";
import { ProviderError, unlessGone } from "../core/errors";
import { ACCOUNT_ARGUMENT, defineFunction } from "./defineFunction";
import { TemplateKind } from "./schemaTypes";
import { eventOf, nameOf } from "./templateSelection";

const inputs = {
  id: { schema: z.string().min(1).optional(), description: "The template's id. Exactly one of id or systemName.", example: "2001" },
  systemName: {
    schema: z.string().min(1).optional(),
    description: "The template's system name. Exactly one of id or systemName.",
    example: "PUBLISHING_ENTRY_READY",
  },
  kind: {
    schema: TemplateKind.optional(),
    typeName: "TemplateKind" as const,
    description: "Only a template of this kind: HTTP (a webhook) or EMAIL. Left out: either.",
    example: "HTTP",
  },
  account: ACCOUNT_ARGUMENT,
};

export type GetNotificationTemplateArgs = {
  id?: string;
  systemName?: string;
  kind?: TemplateKind /** A named account of the provider (`accounts`); its own account when left out. */;
  account?: string;
};
/** The template found: the fields of both kinds, those of the other kind absent. */
export type GetNotificationTemplateResult = ReturnType<typeof common> &
  Partial<Omit<ReturnType<typeof httpResult>, keyof ReturnType<typeof common>>> &
  Partial<Omit<ReturnType<typeof emailResult>, keyof ReturnType<typeof common>>>;
const KIND_OF_TYPE: Record<string, TemplateKind> = { [TemplateType.HTTP]: "HTTP", [TemplateType.EMAIL]: "EMAIL" };

export const getNotificationTemplate = defineFunction<GetNotificationTemplateArgs, GetNotificationTemplateResult>({
  name: "getNotificationTemplate",
  description:
    "Looks up a notification template of the account, a webhook (HTTP) or an email, by id or by system name. Fails, " +
    "naming the account and what was searched, when there is none. A webhook's signing secret is never returned.",
  example: `const webhook = svc.getNotificationTemplateOutput({ systemName: "PUBLISHING_ENTRY_READY", kind: "HTTP" });
export const webhookUrl = webhook.url;`,
  inputs,
  outputs: {
    templateId: { type: "string", description: "The template's id.", example: "2001" },
    kind: { type: "string", typeName: "TemplateKind", description: "HTTP or EMAIL.", example: "HTTP" },
    partnerId: { type: "integer", description: "The account (partner) the template belongs to.", example: 101 },
    name: { type: "string", description: "Its name.", example: "Entry ready -> publishing" },
    systemName: { type: "string", optional: true, description: "Its system name.", example: "PUBLISHING_ENTRY_READY" },
    description: { type: "string", description: "What it is for.", example: "Tells publishing an entry is ready" },
    active: { type: "boolean", description: "Whether it is active.", example: true },
    status: { type: "integer", description: "1 disabled, 2 active.", example: 2 },
    event: { type: "string", optional: true, description: "The catalog event it reacts to, when it is one.", example: "entry.ready" },
    eventType: { type: "string", optional: true, description: "The platform's event type.", example: "3" },
    eventObjectType: { type: "string", optional: true, description: "The platform's object type.", example: "1" },
    url: { type: "string", optional: true, description: "HTTP: where deliveries are sent.", example: "https://publishing.example.com/hooks/entry-ready" },
    method: { type: "string", typeName: "HttpMethod", optional: true, description: "HTTP: the method of deliveries.", example: "POST" },
    secureHashingAlgo: {
      type: "string",
      typeName: "SecureHashingAlgo",
      optional: true,
      description: "HTTP: the hash of the delivery signature.",
      example: "SHA256",
    },
    subject: { type: "string", optional: true, description: "EMAIL: the subject.", example: "Ready: {entry_name}" },
    fromEmail: { type: "string", optional: true, description: "EMAIL: the sender's address.", example: "video@example.com" },
    format: { type: "string", typeName: "EmailFormat", optional: true, description: "EMAIL: TEXT or HTML.", example: "TEXT" },
    priority: { type: "string", typeName: "EmailPriority", optional: true, description: "EMAIL: HIGH, NORMAL or LOW.", example: "NORMAL" },
    to: {
      type: "array",
      typeName: "EmailRecipient",
      optional: true,
      description: "EMAIL: who the email is sent to.",
      example: [{ email: "editors@example.com" }],
    },
    createdAt: { type: "integer", description: "Creation time, unix seconds.", example: 1795000000 },
    updatedAt: { type: "integer", description: "Time of the last change, unix seconds.", example: 1795000000 },
  },

  async invoke(ctx, { id, systemName, kind }) {
    if ((id === undefined) === (systemName === undefined)) {
      throw new ProviderError(
        `getNotificationTemplate: expected exactly one of id or systemName; got ${id === undefined ? "neither" : "both"}; nothing was searched`,
      );
    }
    const { client, signal } = ctx;
    const found = id !== undefined ? await unlessGone(() => client.templates.get(id, { signal })) : await bySystemName(client, systemName!, signal);
    if (!found || found.status === TemplateStatus.DELETED || (kind !== undefined && KIND_OF_TYPE[found.type] !== kind)) {
      const what = kind === "HTTP" ? "HTTP notification template" : kind === "EMAIL" ? "email notification template" : "notification template (HTTP or email)";
      const by = id !== undefined ? `id ${JSON.stringify(id)}` : `systemName ${JSON.stringify(systemName)}`;
      throw new ProviderError(`getNotificationTemplate: no ${what} with ${by} in ${ctx.accountName} (deleted templates are not found)`);
    }
    if (found.type === TemplateType.EMAIL) return emailResult(await client.emailTemplates.get(found.id, { signal }));
    return httpResult(found);
  },
});

async function bySystemName(client: SvcClient, systemName: string, signal: AbortSignal): Promise<EventNotificationTemplate | undefined> {
  const { objects } = await client.templates.list({ systemNameEqual: systemName }, { pageSize: 500 }, { signal });
  return objects.find((t) => t.status !== TemplateStatus.DELETED && t.systemName === systemName);
}

function common(t: EventNotificationTemplate | EmailTemplate, kind: TemplateKind) {
  return {
    templateId: t.id,
    kind,
    partnerId: t.partnerId,
    name: t.name,
    systemName: t.systemName,
    description: t.description ?? "",
    active: t.status === TemplateStatus.ACTIVE,
    status: t.status,
    event: eventOf(t),
    eventType: t.eventType,
    eventObjectType: t.eventObjectType,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

function httpResult(t: EventNotificationTemplate) {
  return plain({
    ...common(t, "HTTP"),
    url: t.url,
    method: nameOf(HttpMethod, t.method),
    secureHashingAlgo: nameOf(SecureHashingAlgo, t.secureHashingAlgo),
  });
}

function emailResult(t: EmailTemplate) {
  return plain({
    ...common(t, "EMAIL"),
    subject: t.subject,
    fromEmail: t.fromEmail,
    format: nameOf(EmailFormat, t.format),
    priority: nameOf(EmailPriority, t.priority),
    to: (t.to?.emailRecipients ?? []).map(({ email, name }) => plain({ email, name })),
  });
}
