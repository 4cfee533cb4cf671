/**
 * The two kinds of event notification template that the one client of service
 * `eventnotification_eventnotificationtemplate` (eventNotificationTemplates.ts) is typed for: what each kind's calls
 * send and how its answers are read. The HTTP kind (`client.templates`) lists every kind unless a filter says
 * otherwise and clones webhooks; the email kind (`client.emailTemplates`) always filters on type
 * `emailNotification.Email`, sends `objectType: SvcEmailNotificationTemplate` and reads answers as email templates.
 */
import { z } from "zod";
import {
  EMAIL_CLEARABLE,
  EmailNotificationTemplate,
  EmailTemplateCloneFields,
  EmailTemplateUpdateFields,
  type EmailTemplateCloneFields as EmailTemplateCloneInput,
} from "../../contract/emailTemplates";
import {
  EventNotificationTemplate,
  EventNotificationTemplateListResponse,
  HttpTemplateCloneFields,
  HttpTemplateUpdateFields,
  OBJECT_TYPES,
  TemplateFilter,
  TemplateType,
} from "../../contract/platform";

/** The types a kind's calls take and answer. */
export interface TemplateTypes {
  template: unknown;
  list: { objects: TemplateTypes["template"][]; totalCount: number };
  clone: object;
  update: object;
  filter: object;
}

/** What a kind's calls send and how its answers are read. */
export interface TemplateKind<T extends TemplateTypes> {
  /** How messages name the client: `templates.clone: id`, `emailTemplates.update`. */
  readonly label: string;
  /** The objectType of the template clone and update send. */
  readonly objectType: string;
  readonly template: z.ZodType<T["template"]>;
  readonly list: z.ZodType<T["list"]>;
  /** The strict schemas of clone's and update's fields and of a list's filter (an unknown field is refused). */
  readonly clone: z.ZodType;
  readonly update: z.ZodType;
  readonly filter: z.ZodType;
  /** Sent with every filter of list and listTemplates, after the caller's. */
  readonly fixedFilter: Readonly<{ typeEqual?: string }>;
}

/**
 * The sdk requires a signing secret on clone (and refuses an empty one on update): a template without one is signed
 * with the account's admin secret, which would then become every receiver's verification key by accident.
 */
const SignSecret = z
  .string({ error: (issue) => (issue.input === undefined ? "is required (a template without one is signed with the account's admin secret)" : undefined) })
  .min(1, "must be a non-empty signing secret (a template without one is signed with the account's admin secret)");

export interface HttpTemplateTypes {
  template: EventNotificationTemplate;
  list: EventNotificationTemplateListResponse;
  /** The contract's type, where signSecret is optional, so callers whose value is only known at run time compile. */
  clone: HttpTemplateCloneFields;
  update: HttpTemplateUpdateFields;
  filter: TemplateFilter;
}

// Built once: a zod schema compiles itself on its first parse, so one made per call costs that every call.
export const HTTP_TEMPLATES: TemplateKind<HttpTemplateTypes> = {
  label: "templates",
  objectType: OBJECT_TYPES.httpTemplate,
  template: EventNotificationTemplate,
  list: EventNotificationTemplateListResponse,
  clone: z.strictObject({ ...HttpTemplateCloneFields.shape, signSecret: SignSecret }),
  update: z.strictObject({ ...HttpTemplateUpdateFields.shape, signSecret: SignSecret.optional() }),
  filter: z.strictObject(TemplateFilter.shape),
  fixedFilter: {},
};

export const EmailNotificationTemplateListResponse = z.looseObject({
  objects: z.array(EmailNotificationTemplate),
  totalCount: z.number().int(),
  objectType: z.literal(OBJECT_TYPES.templateList),
});
export type EmailNotificationTemplateListResponse = z.output<typeof EmailNotificationTemplateListResponse>;

/** Update input: every clone field, and null clears the clearable ones (systemName, description, fromName, cc, bcc, replyTo, contentParameters). */
const nullable = Object.fromEntries(
  (["systemName", "description", ...EMAIL_CLEARABLE] as const).map((k) => [k, EmailTemplateUpdateFields.shape[k].nullable()]),
) as { [K in "systemName" | "description" | (typeof EMAIL_CLEARABLE)[number]]: z.ZodNullable<(typeof EmailTemplateUpdateFields.shape)[K]> };
const EmailTemplateUpdateInput = z.strictObject({ ...EmailTemplateUpdateFields.shape, ...nullable });
export type EmailTemplateUpdateInput = z.input<typeof EmailTemplateUpdateInput>;

/** The filter of the email kind's list and listTemplates; the type is always the email kind. */
const EmailTemplateFilter = z.strictObject(TemplateFilter.omit({ typeEqual: true }).shape);
export type EmailTemplateFilter = z.input<typeof EmailTemplateFilter>;

export interface EmailTemplateTypes {
  template: EmailNotificationTemplate;
  list: EmailNotificationTemplateListResponse;
  /** `name` and, on the platform, `to` are required. */
  clone: EmailTemplateCloneInput & { name: string };
  update: EmailTemplateUpdateInput;
  filter: EmailTemplateFilter;
}

export const EMAIL_TEMPLATES: TemplateKind<EmailTemplateTypes> = {
  label: "emailTemplates",
  objectType: OBJECT_TYPES.emailTemplate,
  template: EmailNotificationTemplate,
  list: EmailNotificationTemplateListResponse,
  clone: z.strictObject({ ...EmailTemplateCloneFields.shape, name: z.string().min(3, "must be at least 3 characters") }),
  update: EmailTemplateUpdateInput,
  filter: EmailTemplateFilter,
  fixedFilter: { typeEqual: TemplateType.EMAIL },
};
