/**
 * Email notification templates (objectType SvcEmailNotificationTemplate, type emailNotification.Email): the wire
 * shapes, defined once. The spec names this second kind of template and shows none of its fields; these follow
 * the real service's template (format, subject, body, fromEmail, fromName, to/cc/bcc/replyTo recipient providers,
 * priority, contentParameters), kept to a small coherent subset (docs/design.md "Email notification templates").
 *
 * Content parameters fill `{key}` placeholders in subject and body. A parameter's value is a text in which
 * `{path}` placeholders name a field of the event: `{entry.name}`, `{object.id}`, `{template.name}`
 * (CONTENT_PATH_ROOTS). The real service evaluates code there; ours is this documented simple form.
 */
import { z } from "zod";
import { OBJECT_TYPES, TemplateType, templateBaseShape } from "./platform";

export const EmailFormat = { HTML: 1, TEXT: 2 } as const;
export type EmailFormat = (typeof EmailFormat)[keyof typeof EmailFormat];
export const EmailPriority = { HIGH: 1, NORMAL: 3, LOW: 5 } as const;
export type EmailPriority = (typeof EmailPriority)[keyof typeof EmailPriority];

export const EMAIL_OBJECT_TYPES = {
  staticRecipients: "SvcEmailNotificationStaticRecipientProvider",
  recipient: "SvcEmailNotificationRecipient",
  contentParameter: "SvcEventNotificationParameter",
} as const;

/** Roots a content parameter's `{path}` may start with: the event's object (any kind), the entry (entry events), the template. */
export const CONTENT_PATH_ROOTS = ["object", "entry", "template"] as const;
/** `{root.field(.field)*}` inside a content parameter value. */
export const CONTENT_PATH = /\{((?:object|entry|template)(?:\.[A-Za-z0-9_]+)+)\}/g;
/** A content parameter key: what `{key}` in subject and body refers to. */
export const CONTENT_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Lengths the emulator enforces (the real service stores subject in a varchar and body in a file). */
export const EMAIL_LIMITS = { subject: 998, body: 100_000, recipients: 50, contentParameters: 50 } as const;

const intEnum = <T extends Record<string, number>>(values: T, name: string) => {
  const allowed = Object.values(values);
  return z.coerce
    .number()
    .int()
    .refine((v) => allowed.includes(v), {
      message: `expected ${name}: ${Object.entries(values)
        .map(([k, v]) => `${v} (${k})`)
        .join(", ")}`,
    })
    .transform((v) => v as T[keyof T]);
};

/** An email address (RFC 5321 length, one @, no spaces or angle brackets). */
export const EmailAddress = z
  .string()
  .max(254)
  .regex(/^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/, "expected an email address such as editors@example.com");

export const EmailRecipient = z.object({
  objectType: z.literal(EMAIL_OBJECT_TYPES.recipient).optional(),
  email: EmailAddress,
  /** Display name; no line breaks. */
  name: z
    .string()
    .max(200)
    .regex(/^[^\r\n]*$/, "must be one line")
    .optional(),
});
export type EmailRecipient = z.output<typeof EmailRecipient>;

/** A recipient provider. Only the static list is modelled (the real service also resolves category, user and group recipients). */
export const EmailRecipients = z.object({
  objectType: z.literal(EMAIL_OBJECT_TYPES.staticRecipients).default(EMAIL_OBJECT_TYPES.staticRecipients),
  emailRecipients: z.array(EmailRecipient).min(1, "expected at least one recipient").max(EMAIL_LIMITS.recipients),
});
export type EmailRecipients = z.output<typeof EmailRecipients>;
export type EmailRecipientsInput = z.input<typeof EmailRecipients>;

export const ContentParameter = z.object({
  objectType: z.literal(EMAIL_OBJECT_TYPES.contentParameter).optional(),
  key: z.string().regex(CONTENT_KEY, "expected a key of letters, digits and _ starting with a letter, such as entry_name"),
  description: z.string().max(500).optional(),
  /** Text with `{object.x}`, `{entry.x}` or `{template.x}` placeholders (a value without any is a constant). */
  value: z
    .string()
    .max(1_000)
    .refine((v) => unknownPlaceholders(v).length === 0, {
      message: "placeholders must be {object.<field>}, {entry.<field>} or {template.<field>}",
    }),
});
export type ContentParameter = z.output<typeof ContentParameter>;

/** `{...}` placeholders of a content parameter value that are not a known path. */
export function unknownPlaceholders(value: string): string[] {
  const known = new Set([...value.matchAll(CONTENT_PATH)].map((m) => m[0]));
  return [...value.matchAll(/\{[^{}]*\}/g)].map((m) => m[0]).filter((p) => !known.has(p));
}

const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\r\n]*$/, "must be one line");

/** The email fields of a template, as stored and answered. */
export const emailFieldsShape = {
  format: intEnum(EmailFormat, "format"),
  subject: oneLine(EMAIL_LIMITS.subject),
  body: z.string().max(EMAIL_LIMITS.body),
  fromEmail: EmailAddress,
  fromName: oneLine(200),
  to: EmailRecipients,
  cc: EmailRecipients,
  bcc: EmailRecipients,
  replyTo: EmailRecipients,
  priority: intEnum(EmailPriority, "priority"),
  contentParameters: z
    .array(ContentParameter)
    .max(EMAIL_LIMITS.contentParameters)
    .refine((ps) => new Set(ps.map((p) => p.key)).size === ps.length, { message: "keys must be unique" }),
};

/** Fields accepted by clone (`eventNotificationTemplate[...]`, objectType SvcEmailNotificationTemplate); all optional (the source template gives the rest), `to` is required on the result. */
export const EmailTemplateCloneFields = z.object({
  name: z.string().optional(),
  systemName: z.string().optional(),
  description: z.string().optional(),
  ...emailFieldsShape,
  format: emailFieldsShape.format.optional(),
  subject: emailFieldsShape.subject.optional(),
  body: emailFieldsShape.body.optional(),
  fromEmail: emailFieldsShape.fromEmail.optional(),
  fromName: emailFieldsShape.fromName.optional(),
  to: emailFieldsShape.to.optional(),
  cc: emailFieldsShape.cc.optional(),
  bcc: emailFieldsShape.bcc.optional(),
  replyTo: emailFieldsShape.replyTo.optional(),
  priority: emailFieldsShape.priority.optional(),
  contentParameters: emailFieldsShape.contentParameters.optional(),
});
export type EmailTemplateCloneFields = z.input<typeof EmailTemplateCloneFields>;

/** Fields accepted by update: the same, each in place; a sent object or list replaces the stored one whole. */
export const EmailTemplateUpdateFields = EmailTemplateCloneFields;
export type EmailTemplateUpdateFields = z.input<typeof EmailTemplateUpdateFields>;

/** Email fields that `<field>__null` clears; the others cannot be null (PROPERTY_VALIDATION_CANNOT_BE_NULL). */
export const EMAIL_CLEARABLE = ["fromName", "cc", "bcc", "replyTo", "contentParameters"] as const;

/** An email template as stored (the emulator's record is this plus its catalog event). */
export const EmailTemplateRecord = z.object({
  ...templateBaseShape,
  type: z.literal(TemplateType.EMAIL),
  objectType: z.literal(OBJECT_TYPES.emailTemplate),
  eventType: z.string(),
  eventObjectType: z.string(),
  ...emailFieldsShape,
  fromName: emailFieldsShape.fromName.optional(),
  to: emailFieldsShape.to.optional(),
  cc: emailFieldsShape.cc.optional(),
  bcc: emailFieldsShape.bcc.optional(),
  replyTo: emailFieldsShape.replyTo.optional(),
  contentParameters: emailFieldsShape.contentParameters.optional(),
});
export type EmailTemplateRecord = z.output<typeof EmailTemplateRecord>;

/**
 * The email fields as the sdk reads them: the same fields (the key set is checked against emailFieldsShape), typed
 * but without the emulator's input rules (address form, lengths, enum membership), so an answer of the real service
 * that differs in those is still read. Recipients and content parameters keep unknown keys.
 */
const recipientsRead = z.looseObject({
  objectType: z.string().optional(),
  emailRecipients: z.array(z.looseObject({ email: z.string(), name: z.string().optional() })).optional(),
});
const emailFieldsRead = {
  format: z.number().int(),
  subject: z.string(),
  body: z.string(),
  fromEmail: z.string(),
  fromName: z.string().optional(),
  to: recipientsRead.optional(),
  cc: recipientsRead.optional(),
  bcc: recipientsRead.optional(),
  replyTo: recipientsRead.optional(),
  priority: z.number().int(),
  contentParameters: z.array(z.looseObject({ key: z.string(), description: z.string().optional(), value: z.string() })).optional(),
} satisfies Record<keyof typeof emailFieldsShape, z.ZodType>;

/** An email template as the sdk reads it (loose: the real service adds fields over time). */
export const EmailNotificationTemplate = z.looseObject({
  ...templateBaseShape,
  type: z.literal(TemplateType.EMAIL),
  objectType: z.literal(OBJECT_TYPES.emailTemplate),
  ...emailFieldsRead,
});
export type EmailNotificationTemplate = z.output<typeof EmailNotificationTemplate>;
