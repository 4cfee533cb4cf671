/**
 * EmailNotificationTemplate: an email the platform sends when an event happens. Clone a system email template
 * (chosen by id, system name or event), with the declared email, then activate it, as the HTTP template does. The
 * system template only chooses the event: the email (subject, body, sender, recipients, priority, content
 * parameters) is what the program declares, so the state is exactly the program and a refresh shows any hand edit.
 * Recipients are plain lists of {email, name?} here; the wire's recipient-provider objects stay in this file.
 * What both kinds do alike is in templateFields.ts and templateOperations.ts. Everything the platform can update updates in place; a different source template (or adoptId) replaces, deleting
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
import type { SvcClient } from "../../sdk";
import { SvcResponseError } from "../../sdk/core/errors";
import { plain, sameValue } from "../core/diff";
import { ProviderError, unlessGone } from "../core/errors";
import { defineResource, stateChecker, type CheckedInputsOf, type ProgramInputsOf } from "./define";
import { EmailFormatName, EmailPriorityName, Parameter, Recipient } from "./schemaTypes";
import { TEMPLATE_ID, templateDisabled, type TemplateTexts, templateInputFields, templateOutputFields, templateState } from "./templateFields";
import { templateDefinition } from "./templateOperations";
import { nameOf } from "./templateSelection";

const recipients = (what: string) => z.array(Recipient).max(EMAIL_LIMITS.recipients, `expected at most ${EMAIL_LIMITS.recipients} ${what}`);

/** An optional list of recipients (cc, bcc, replyTo): empty by default. */
const optionalRecipients = (what: string, description: string, example: EmailRecipientInput[]) =>
  ({ schema: recipients(what).default([]), typeName: "EmailRecipient", change: "inPlace", description, example }) as const;

const texts: TemplateTexts = {
  what: "email template",
  kindName: "email",
  disabledMeans: " (no email is sent)",
  examples: {
    systemTemplateId: "202",
    systemTemplateName: "EMAIL_ENTRY_READY",
    name: "Tell editors when an entry is ready",
    systemName: "EDITORS_ENTRY_READY",
    description: "Editors review new entries",
    eventType: "5",
  },
};

const inputs = templateInputFields(texts, {
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
  cc: optionalRecipients("cc recipients", "Copied: a list of {email, name?}, at most 50.", [{ email: "lead@example.com" }]),
  bcc: optionalRecipients("bcc recipients", "Blind-copied (in the SMTP envelope only): a list of {email, name?}, at most 50.", [
    { email: "audit@example.com" },
  ]),
  replyTo: optionalRecipients("reply-to addresses", "Where replies go: a list of {email, name?}, at most 50.", [
    { email: "video-team@example.com", name: "Video team" },
  ]),
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
} as const);
const outputs = templateOutputFields(texts);

export type EmailNotificationTemplateInputs = CheckedInputsOf<typeof inputs>;
export type EmailNotificationTemplateProgramInputs = ProgramInputsOf<typeof inputs>;
/** The state: every input and output (the mapper below is checked against both tables). */
export type EmailTemplateOutputs = ReturnType<typeof emailTemplateOutputs>;
export type EmailRecipientInput = z.output<typeof Recipient>;
export type ContentParameterInput = z.output<typeof Parameter>;

/** The input-only fields the outputs carry through from the inputs. */
type CarriedInputs = Pick<EmailNotificationTemplateInputs, "systemTemplateId" | "systemTemplateName" | "event" | "adoptId" | "connection" | "account">;

/** Fields a clone inherits from its source when not sent: declared empty, they are cleared before activation. */
const CLEARABLE = ["fromName", "cc", "bcc", "replyTo", "contentParameters"] as const;

type WireRecipients = { emailRecipients?: { email: string; name?: string }[] } | undefined;

/** The wire's recipient provider as a plain list (other keys, such as objectType, dropped). */
const recipientList = (provider: WireRecipients): EmailRecipientInput[] =>
  (provider?.emailRecipients ?? []).map(({ email, name }) => plain({ email, name }) as EmailRecipientInput);

/** A plain list as the wire's static recipient provider; undefined for an empty list (the platform wants 1 to 50). */
const recipientProvider = (list: readonly EmailRecipientInput[]) =>
  list.length === 0 ? undefined : { objectType: EMAIL_OBJECT_TYPES.staticRecipients, emailRecipients: list.map(({ email, name }) => plain({ email, name })) };

const checkedState = stateChecker(inputs, outputs);

/** Outputs: the server's record, with recipients as plain lists and enums by name. */
export function emailTemplateOutputs(template: EmailTemplate, carried: Partial<CarriedInputs>, sourceTemplateId: string | undefined) {
  return checkedState(
    templateState(template, carried, sourceTemplateId, {
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
    }),
  );
}

export const emailNotificationTemplate = defineResource<EmailNotificationTemplateInputs, EmailTemplateOutputs>({
  type: "EmailNotificationTemplate",
  runtimeExport: "emailNotificationTemplate",
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
  program: {
    title: "An email to the editors when an entry is ready",
    name: "editors-entry-ready",
    variable: "editors",
    inputs: {
      event: "entry.ready",
      name: "Tell editors when an entry is ready",
      subject: "Ready: {entry_name}",
      body: "Entry {entry_name} ({entry_id}) is ready.",
      fromEmail: "video@example.com",
      to: [{ email: "editors@example.com", name: "Editors" }],
    },
    exports: ["templateId", "id"],
  },
  takeover: { id: TEMPLATE_ID, namePrefix: "email", noun: "email template", isDisabled: templateDisabled },
  // What the clone sends (templateFields.ts, cloneFields); the systemName is unique in an account, but a hand-made
  // template may share it: every field must match.
  recovery: { creationFields: ["systemName", "name", "subject", "body", "format", "fromEmail", "description"], emptyAsUnset: ["systemName", "description"] },
  inputs,
  outputs,
  ...templateDefinition({
    texts,
    api: (client: SvcClient) => client.emailTemplates,
    listFilter: {},
    contentField: "subject",
    finishing: "finishing",
    cloneFields,
    updateFields,
    state: emailTemplateOutputs,
    get: getEmailTemplate,
    refuseAdoption: (found, id) => (found.partnerId === 0 ? `adoptId: ${id} is a system template; clone it instead (systemTemplateId: "${id}")` : undefined),
    // A fresh clone keeps what its source has and the program leaves empty: cleared before activation.
    async prepareClone(api, clone, inputs: EmailNotificationTemplateInputs, signal) {
      const clear = clearFields(clone, inputs);
      return clear ? await api.update(clone.id, clear, { signal }) : clone;
    },
  }),
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

/** The email template of this id; undefined when gone; an error naming the problem when it is another kind. */
async function getEmailTemplate(api: SvcClient["emailTemplates"], id: string, signal: AbortSignal): Promise<EmailTemplate | undefined> {
  try {
    return await unlessGone(() => api.get(id, { signal }));
  } catch (error) {
    if (error instanceof SvcResponseError) {
      throw new ProviderError(`template ${id} is not an email notification template (${error.message}); use the resource of its kind`);
    }
    throw error;
  }
}
