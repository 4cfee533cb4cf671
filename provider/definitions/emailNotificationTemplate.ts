/**
 * EmailNotificationTemplate: an email the platform sends when an event happens. Clone a system email template
 * (chosen by id, system name or event), with the declared email, then activate it, as the HTTP template does. The
 * system template only chooses the event: the email (subject, body, sender, recipients, priority, content
 * parameters) is what the program declares, so the state is exactly the program and a refresh shows any hand edit.
 * Recipients are plain lists of {email, name?} here; the wire's recipient-provider objects stay in this file.
 * Everything the platform can update updates in place; a different source template (or adoptId) replaces, deleting
 * first when the systemName must stay unique. A failed activation removes the clone, or, if even that fails, records
 * it as a partial failure.
 */
import { z } from "zod";
import {
  EMAIL_OBJECT_TYPES,
  EmailFormat,
  EmailPriority,
  type EmailNotificationTemplate as EmailTemplate,
  type EmailTemplateCloneFields,
  emailFieldsShape,
  EMAIL_LIMITS,
} from "../../contract/emailTemplates";
import { EVENT_KEYS } from "../../contract/events";
import { TemplateStatus } from "../../contract/platform";
import { type SvcClient, SvcResponseError } from "../../sdk";
import { plain, sameValue } from "../core/diff";
import { PartialCreateError, ProviderError, unlessGone } from "../core/errors";
import { accountScope } from "../core/accountScope";
import { createWithRecovery } from "../core/recovery";
import { CONNECTION_FIELD, defineResource, inputsSchema } from "./define";
import { EmailFormatName, EmailPriorityName, Parameter, Recipient } from "./schemaTypes";
import {
  SYSTEM_TEMPLATE_ID_DEPRECATION,
  carriedForRead,
  checkSelectors,
  chooseSource,
  eventOf,
  interruptedClone,
  keepsSystemName,
  messageOf,
  nameOf,
} from "./templateSelection";

const recipients = (what: string) => z.array(Recipient).max(EMAIL_LIMITS.recipients, `expected at most ${EMAIL_LIMITS.recipients} ${what}`);

const inputs = {
  systemTemplateId: {
    schema: z.string().min(1).optional(),
    change: "replace",
    description: "The system email template to clone, by id. Exactly one of systemTemplateId, systemTemplateName or event.",
    example: "202",
    deprecationMessage: SYSTEM_TEMPLATE_ID_DEPRECATION,
  },
  systemTemplateName: {
    schema: z.string().min(1).optional(),
    change: "replace",
    description: "The system email template to clone, by its system name. Exactly one of systemTemplateId, systemTemplateName or event.",
    example: "EMAIL_ENTRY_READY",
  },
  event: {
    schema: z.enum(EVENT_KEYS).optional(),
    change: "replace",
    description: `The system email template to clone, by the event it reacts to (${EVENT_KEYS.join(", ")}). Exactly one of systemTemplateId, systemTemplateName or event.`,
    example: "entry.ready",
  },
  name: {
    schema: z.string().min(3, "expected a name of at least 3 characters"),
    change: "inPlace",
    description: "The template's name (at least 3 characters).",
    example: "Tell editors when an entry is ready",
  },
  systemName: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, "expected letters, digits, _ . or -")
      .optional(),
    change: "inPlace",
    description: "Machine name, unique among the account's active templates.",
    example: "EDITORS_ENTRY_READY",
  },
  description: { schema: z.string().default(""), change: "inPlace", description: "What the template is for.", example: "Editors review new entries" },
  subject: {
    schema: emailFieldsShape.subject,
    change: "inPlace",
    description: "The subject: one line, at most 998 characters; `{key}` is replaced by the content parameter of that key.",
    example: "Ready: {entry_name}",
  },
  body: {
    schema: emailFieldsShape.body,
    change: "inPlace",
    description: "The body (text or HTML, see format), at most 100,000 characters; `{key}` is replaced by the content parameter of that key.",
    example: "Entry {entry_name} ({entry_id}) is ready.",
  },
  format: {
    schema: EmailFormatName.default("TEXT"),
    typeName: "EmailFormat",
    change: "inPlace",
    description: "TEXT or HTML (values filled into an HTML body are HTML-escaped).",
    example: "TEXT",
  },
  fromEmail: { schema: emailFieldsShape.fromEmail, change: "inPlace", description: "The sender's address.", example: "video@example.com" },
  fromName: {
    schema: emailFieldsShape.fromName.optional(),
    change: "inPlace",
    description: "The sender's display name (one line); left out: none.",
    example: "Video platform",
  },
  to: {
    schema: recipients("recipients").min(1, "expected at least one recipient"),
    typeName: "EmailRecipient",
    change: "inPlace",
    description: "Who the email is sent to: a list of {email, name?}, 1 to 50.",
    example: [{ email: "editors@example.com", name: "Editors" }],
  },
  cc: {
    schema: recipients("cc recipients").default([]),
    typeName: "EmailRecipient",
    change: "inPlace",
    description: "Copied: a list of {email, name?}, at most 50.",
    example: [{ email: "lead@example.com" }],
  },
  bcc: {
    schema: recipients("bcc recipients").default([]),
    typeName: "EmailRecipient",
    change: "inPlace",
    description: "Blind-copied (in the SMTP envelope only): a list of {email, name?}, at most 50.",
    example: [{ email: "audit@example.com" }],
  },
  replyTo: {
    schema: recipients("reply-to addresses").default([]),
    typeName: "EmailRecipient",
    change: "inPlace",
    description: "Where replies go: a list of {email, name?}, at most 50.",
    example: [{ email: "video-team@example.com", name: "Video team" }],
  },
  priority: {
    schema: EmailPriorityName.default("NORMAL"),
    typeName: "EmailPriority",
    change: "inPlace",
    description: "HIGH, NORMAL or LOW (the X-Priority header).",
    example: "HIGH",
  },
  contentParameters: {
    schema: z
      .array(Parameter)
      .max(EMAIL_LIMITS.contentParameters)
      .refine((ps) => new Set(ps.map((p) => p.key)).size === ps.length, { message: "keys must be unique" })
      .default([]),
    typeName: "ContentParameter",
    change: "inPlace",
    description:
      "What `{key}` in subject and body becomes: a list of {key, value, description?}; value is text with `{entry.<field>}`, `{object.<field>}` or `{template.<id|name|systemName>}` placeholders filled from the event.",
    example: [{ key: "entry_name", value: "{entry.name}" }],
  },
  active: { schema: z.boolean().default(true), change: "inPlace", description: "false keeps the template disabled (no email is sent).", example: true },
  adoptId: {
    schema: z.string().min(1).optional(),
    change: "replace",
    description: "Adopt an existing email template of the account by id instead of cloning (verified and read, never duplicated).",
    example: "2001",
  },
  connection: CONNECTION_FIELD,
} as const;

const all = inputsSchema(inputs);
/** The checked inputs (defaults filled in): what create and update receive. */
export type EmailNotificationTemplateInputs = z.output<typeof all>;
/** What a program may pass (before defaults): the resource's Args are derived from it. */
export type EmailNotificationTemplateProgramInputs = z.input<typeof all>;
export type EmailRecipientInput = z.output<typeof Recipient>;
export type ContentParameterInput = z.output<typeof Parameter>;

/** The input-only fields the outputs carry through from the inputs. */
type CarriedInputs = Pick<EmailNotificationTemplateInputs, "systemTemplateId" | "systemTemplateName" | "event" | "adoptId" | "connection">;

/** Fields a clone inherits from its source when not sent: declared empty, they are cleared before activation. */
const CLEARABLE = ["fromName", "cc", "bcc", "replyTo", "contentParameters"] as const;

type WireRecipients = { emailRecipients?: { email: string; name?: string }[] } | undefined;

/** The wire's recipient provider as a plain list (other keys, such as objectType, dropped). */
const recipientList = (provider: WireRecipients): EmailRecipientInput[] =>
  (provider?.emailRecipients ?? []).map(({ email, name }) => plain({ email, name }) as EmailRecipientInput);

/** A plain list as the wire's static recipient provider; undefined for an empty list (the platform wants 1 to 50). */
const recipientProvider = (list: readonly EmailRecipientInput[]) =>
  list.length === 0 ? undefined : { objectType: EMAIL_OBJECT_TYPES.staticRecipients, emailRecipients: list.map(({ email, name }) => plain({ email, name })) };

/** Outputs: the server's record, with recipients as plain lists and enums by name. */
export function emailTemplateOutputs(template: EmailTemplate, carried: CarriedInputs, sourceTemplateId: string | undefined) {
  return plain({
    templateId: template.id,
    partnerId: template.partnerId,
    sourceTemplateId,
    systemTemplateId: carried.systemTemplateId,
    systemTemplateName: carried.systemTemplateName,
    event: carried.event,
    name: template.name,
    systemName: template.systemName,
    description: template.description ?? "",
    subject: template.subject,
    body: template.body,
    format: nameOf(EmailFormat, template.format),
    fromEmail: template.fromEmail,
    fromName: template.fromName,
    to: recipientList(template.to),
    cc: recipientList(template.cc),
    bcc: recipientList(template.bcc),
    replyTo: recipientList(template.replyTo),
    priority: nameOf(EmailPriority, template.priority),
    contentParameters: (template.contentParameters ?? []).map(({ key, value, description }) => plain({ key, value, description }) as ContentParameterInput),
    active: template.status === TemplateStatus.ACTIVE,
    status: template.status,
    eventType: template.eventType,
    eventObjectType: template.eventObjectType,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
    adoptId: carried.adoptId,
    connection: carried.connection,
  });
}
export type EmailTemplateOutputs = ReturnType<typeof emailTemplateOutputs>;

export const emailNotificationTemplate = defineResource<EmailNotificationTemplateInputs, EmailTemplateOutputs>({
  type: "EmailNotificationTemplate",
  kind: "emailNotificationTemplate",
  description:
    "An email the platform sends when an event happens: an email notification template, cloned from a system email " +
    "template (chosen by id, system name or event) with your subject, body, sender and recipients, then activated. " +
    "The system template only chooses the event: the email is what you declare (fields left out are empty or their " +
    "default, not the system template's). Every email field updates in place; a different source template replaces " +
    "(deleting first when the systemName stays the same, as it must be unique).",
  example: `const editors = new svc.EmailNotificationTemplate("editors-entry-ready", {
  event: "entry.ready",
  name: "Tell editors when an entry is ready",
  systemName: "EDITORS_ENTRY_READY",
  subject: "Ready: {entry_name}",
  body: "Entry {entry_name} ({entry_id}) is ready.",
  fromEmail: "video@example.com",
  to: [{ email: "editors@example.com", name: "Editors" }],
  bcc: [{ email: "audit@example.com" }],
  contentParameters: [
    { key: "entry_name", value: "{entry.name}" },
    { key: "entry_id", value: "{entry.id}" },
  ],
});`,
  idDescription: "the template's id",
  inputs,
  outputs: {
    templateId: { type: "string", description: "The platform's id of the template (also the resource id).", example: "2001" },
    partnerId: { type: "integer", description: "The account (partner) the template belongs to.", example: 101 },
    sourceTemplateId: {
      type: "string",
      optional: true,
      description: "The id of the system template it was cloned from (unknown after an import).",
      example: "202",
    },
    status: { type: "integer", description: "1 disabled, 2 active, 3 deleted.", example: 2 },
    eventType: { type: "string", description: "The platform's event type the template reacts to.", example: "5" },
    eventObjectType: { type: "string", description: "The platform's object type the template reacts to.", example: "1" },
    createdAt: { type: "integer", description: "Creation time, unix seconds.", example: 1795000000 },
    updatedAt: { type: "integer", description: "Time of the last change, unix seconds.", example: 1795000000 },
  },

  validate(checked, _olds, failures) {
    checkSelectors(checked, failures, "email");
  },

  deleteBeforeReplace: keepsSystemName,

  async create(ctx, inputs) {
    const { client, signal } = ctx;
    const source = await resolveSource(client, inputs, signal);
    if (typeof inputs.adoptId === "string") return adopt(client, inputs.adoptId, inputs, source.id, signal);

    const fields = cloneFields(inputs);
    const clone = await createWithRecovery<EmailTemplate>(ctx, {
      what: "email template",
      fingerprint: `${accountScope(client)} email template ${fields.systemName ?? JSON.stringify([fields.name, fields.subject, fields.description])}`,
      create: () => client.emailTemplates.clone(source.id, fields, { signal }),
      find: (since, lookupSignal) => findCloned(client, fields, since, lookupSignal),
      idOf: (t) => t.id,
      propertiesOf: (t) => emailTemplateOutputs(t, inputs, source.id),
    });
    return finishClone(client, clone, inputs, source.id, signal);
  },

  async read({ client, signal }, id, state) {
    const template = await getEmailTemplate(client, id, signal);
    if (!template || template.status === TemplateStatus.DELETED) return undefined;
    // An import reads with no state: the event the template reacts to stands for the system template it came from.
    const carried = carriedForRead(state, template);
    return emailTemplateOutputs(template, carried, state.sourceTemplateId);
  },

  async update({ client, signal }, id, olds, news, changed) {
    let template = changed.some((key) => key !== "active")
      ? await client.emailTemplates.update(id, updateFields(news), { signal })
      : await client.emailTemplates.get(id, { signal });
    if (changed.includes("active")) {
      template = await client.emailTemplates.updateStatus(id, news.active === false ? TemplateStatus.DISABLED : TemplateStatus.ACTIVE, { signal });
    }
    return emailTemplateOutputs(template, news, olds.sourceTemplateId);
  },

  async delete({ client, signal }, id, state) {
    await unlessGone(() => client.emailTemplates.delete(id, { signal }));
  },

  async list({ client, signal }) {
    const templates = await client.emailTemplates.iterate({}, { signal, pageSize: 500 }).toArray();
    return templates
      .filter((t) => t.status !== TemplateStatus.DELETED && t.partnerId !== 0)
      .map((t) => {
        const outs = emailTemplateOutputs(t, { event: eventOf(t) }, undefined);
        return { id: t.id, name: t.systemName || t.name, inputs: outs };
      });
  },
});

/** What a clone sends: every declared field; an empty list or a left-out fromName is not sent (see clearFields). */
function cloneFields(inputs: EmailNotificationTemplateInputs): EmailTemplateCloneFields & { name: string } {
  return plain({
    name: inputs.name,
    systemName: inputs.systemName,
    description: inputs.description,
    subject: inputs.subject,
    body: inputs.body,
    format: EmailFormat[inputs.format],
    fromEmail: inputs.fromEmail,
    fromName: inputs.fromName,
    to: recipientProvider(inputs.to),
    cc: recipientProvider(inputs.cc),
    bcc: recipientProvider(inputs.bcc),
    replyTo: recipientProvider(inputs.replyTo),
    priority: EmailPriority[inputs.priority],
    contentParameters: inputs.contentParameters.length > 0 ? inputs.contentParameters.map((p) => plain({ ...p })) : undefined,
  });
}

/** What an update sends: every field, with null clearing what the program leaves out or empty. */
function updateFields(inputs: EmailNotificationTemplateInputs) {
  const { name, ...rest } = cloneFields(inputs);
  return {
    name,
    ...rest,
    systemName: inputs.systemName ?? null,
    fromName: inputs.fromName ?? null,
    cc: rest.cc ?? null,
    bcc: rest.bcc ?? null,
    replyTo: rest.replyTo ?? null,
    contentParameters: rest.contentParameters ?? null,
  };
}

/** The fields a fresh clone inherited from its source that the program declares empty: sent as null. */
function clearFields(clone: EmailTemplate, inputs: EmailNotificationTemplateInputs) {
  const outs = emailTemplateOutputs(clone, {}, undefined);
  const stale = CLEARABLE.filter((key) => !sameValue(emptyAsUndefined(outs[key]), emptyAsUndefined(inputs[key])));
  return stale.length === 0 ? undefined : Object.fromEntries(stale.map((key) => [key, null]));
}

const emptyAsUndefined = (value: unknown) => (Array.isArray(value) && value.length === 0 ? undefined : value);

/**
 * Brings a fresh clone to the declared state: clears what it inherited and the program leaves empty, then activates
 * it (unless declared inactive). On failure the clone is removed, or recorded as a partial failure when even that fails.
 */
async function finishClone(
  client: SvcClient,
  clone: EmailTemplate,
  inputs: EmailNotificationTemplateInputs,
  sourceId: string,
  signal: AbortSignal,
): Promise<{ id: string; outs: EmailTemplateOutputs }> {
  let template = clone;
  try {
    const clear = clearFields(template, inputs);
    if (clear) template = await client.emailTemplates.update(clone.id, clear, { signal });
    if (inputs.active !== false) template = await client.emailTemplates.updateStatus(clone.id, TemplateStatus.ACTIVE, { signal });
    return { id: clone.id, outs: emailTemplateOutputs(template, inputs, sourceId) };
  } catch (finishError) {
    const why = messageOf(finishError);
    // Interrupted (Cancel or the deadline): the engine still takes the answer, so the clone is reported, not deleted.
    if (signal.aborted) throw interruptedClone("Email template", clone.id, why, emailTemplateOutputs(template, inputs, sourceId));
    try {
      await client.emailTemplates.delete(clone.id, { signal });
    } catch (cleanupError) {
      // Could not remove it: hand the engine the id so the clone is recorded (and deleted by the next destroy).
      throw new PartialCreateError(
        `Email template ${clone.id} was cloned but finishing it failed (${why}), and deleting the clone failed too (${messageOf(cleanupError)}); it is recorded in the stack as inactive`,
        clone.id,
        emailTemplateOutputs(template, inputs, sourceId),
      );
    }
    throw new ProviderError(`Finishing email template ${clone.id} failed (${why}); the clone was deleted, so nothing is left behind`);
  }
}

/**
 * Email templates a lost clone may have made, created since `sinceSec` (platform clock): by systemName when given
 * (unique in the account, filtered on the server), else by name, subject and description. Deleted ones are never listed.
 */
async function findCloned(client: SvcClient, fields: ReturnType<typeof cloneFields>, sinceSec: number, signal: AbortSignal): Promise<EmailTemplate[]> {
  const filter = fields.systemName ? { systemNameEqual: fields.systemName } : {};
  const candidates = await client.emailTemplates.iterate(filter, { signal, pageSize: 500 }).toArray();
  return candidates.filter(
    (t) =>
      t.status !== TemplateStatus.DELETED &&
      t.partnerId !== 0 &&
      t.createdAt >= sinceSec &&
      (fields.systemName
        ? t.systemName === fields.systemName
        : t.name === fields.name && t.subject === fields.subject && (t.description ?? "") === (fields.description ?? "")),
  );
}

/** The system email template to clone, from whichever selector the program gave. */
async function resolveSource(client: SvcClient, inputs: EmailNotificationTemplateInputs, signal: AbortSignal): Promise<EmailTemplate> {
  const { objects } = await client.emailTemplates.listTemplates({}, { pageSize: 500 }, { signal });
  return chooseSource(objects, inputs, "email");
}

/** The email template of this id; undefined when gone; an error naming the problem when it is another kind. */
async function getEmailTemplate(client: SvcClient, id: string, signal: AbortSignal): Promise<EmailTemplate | undefined> {
  try {
    return await unlessGone(() => client.emailTemplates.get(id, { signal }));
  } catch (error) {
    if (error instanceof SvcResponseError) {
      throw new ProviderError(`template ${id} is not an email notification template (${error.message}); use the resource of its kind`);
    }
    throw error;
  }
}

/** Adopt an existing email template: verified and read, never duplicated; its fields converge to the inputs. */
async function adopt(
  client: SvcClient,
  id: string,
  inputs: EmailNotificationTemplateInputs,
  sourceId: string,
  signal: AbortSignal,
): Promise<{ id: string; outs: EmailTemplateOutputs }> {
  const found = await getEmailTemplate(client, id, signal);
  if (!found || found.status === TemplateStatus.DELETED) throw new ProviderError(`adoptId: email template ${id} was not found; nothing was created`);
  if (found.partnerId === 0) throw new ProviderError(`adoptId: ${id} is a system template; clone it instead (systemTemplateId: "${id}")`);
  let template = await client.emailTemplates.update(id, updateFields(inputs), { signal });
  const status = inputs.active === false ? TemplateStatus.DISABLED : TemplateStatus.ACTIVE;
  if (template.status !== status) template = await client.emailTemplates.updateStatus(id, status, { signal });
  return { id, outs: emailTemplateOutputs(template, inputs, sourceId) };
}
