/**
 * Email notification templates (`client.emailTemplates`): the email kind of service
 * `eventnotification_eventnotificationtemplate`, typed with the contract's email schemas. Thin methods over the
 * shared request function: list and listTemplates always filter on type `emailNotification.Email`, clone and
 * update send `objectType: SvcEmailNotificationTemplate`, responses are parsed as email templates.
 */
import { z } from "zod";
import {
  EMAIL_CLEARABLE,
  EmailNotificationTemplate,
  EmailTemplateCloneFields,
  EmailTemplateUpdateFields,
  type EmailTemplateCloneFields as EmailTemplateCloneInput,
} from "../../contract/emailTemplates";
import { OBJECT_TYPES, Pager, TemplateFilter, TemplateType } from "../../contract/platform";
import { paginate, type Paginated } from "../core/pagination";
import type { CallOptions } from "../transport";
import type { PlatformApi } from "./platformApi";
import { validateInput } from "./validate";

const SERVICE = "eventnotification_eventnotificationtemplate";
const Id = z.string().min(1, "must be a non-empty string");
const Status = z.number().int().min(1);
const VoidResponse = z.unknown();

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

/** The filter of list/listTemplates; the type is always the email kind. */
const EmailTemplateFilter = z.strictObject(TemplateFilter.omit({ typeEqual: true }).shape);
export type EmailTemplateFilter = z.input<typeof EmailTemplateFilter>;

// Built once: a zod schema compiles itself on its first parse, so one made per call costs that every call.
const StrictCloneFields = z.strictObject({ ...EmailTemplateCloneFields.shape, name: z.string().min(3, "must be at least 3 characters") });
const StrictPager = z.strictObject(Pager.shape);

export class EmailNotificationTemplates {
  constructor(private readonly api: PlatformApi) {}

  /** System email templates (partner 0) to clone from, e.g. EMAIL_ENTRY_READY. */
  async listTemplates(filter: EmailTemplateFilter = {}, pager: Pager = {}, options?: CallOptions): Promise<EmailNotificationTemplateListResponse> {
    return this.listAction("listTemplates", filter, pager, options);
  }

  /** Clone a system (or own) email template; it starts disabled (see updateStatus). `name` and `to` are required. */
  async clone(id: string, fields: EmailTemplateCloneInput & { name: string }, options?: CallOptions): Promise<EmailNotificationTemplate> {
    validateInput(Id, id, "emailTemplates.clone: id");
    const template = validateInput(StrictCloneFields, fields, "emailTemplates.clone");
    return this.api.call(
      {
        service: SERVICE,
        action: "clone",
        params: { id, eventNotificationTemplate: { objectType: OBJECT_TYPES.emailTemplate, ...template } },
        schema: EmailNotificationTemplate,
      },
      options,
    );
  }

  /** The template; an HTTP template's id fails response validation (objectType is not the email kind). */
  async get(id: string, options?: CallOptions): Promise<EmailNotificationTemplate> {
    validateInput(Id, id, "emailTemplates.get: id");
    return this.api.call({ service: SERVICE, action: "get", params: { id }, schema: EmailNotificationTemplate }, options);
  }

  /** The account's email templates (id descending; deleted ones only with statusEqual 3). */
  async list(filter: EmailTemplateFilter = {}, pager: Pager = {}, options?: CallOptions): Promise<EmailNotificationTemplateListResponse> {
    return this.listAction("list", filter, pager, options);
  }

  /** Every email template of the account matching `filter`, across all pages. */
  iterate(filter: EmailTemplateFilter = {}, options: CallOptions & { pageSize?: number } = {}): Paginated<EmailNotificationTemplate> {
    const { pageSize, ...callOptions } = options;
    return paginate((pageIndex, size) => this.list(filter, { pageIndex, pageSize: size }, callOptions), pageSize);
  }

  /** In place; a list or recipients object sent replaces the stored one whole; null clears a clearable field. */
  async update(id: string, fields: EmailTemplateUpdateInput, options?: CallOptions): Promise<EmailNotificationTemplate> {
    validateInput(Id, id, "emailTemplates.update: id");
    const template = validateInput(EmailTemplateUpdateInput, fields, "emailTemplates.update");
    return this.api.call(
      {
        service: SERVICE,
        action: "update",
        params: { id, eventNotificationTemplate: { objectType: OBJECT_TYPES.emailTemplate, ...template } },
        schema: EmailNotificationTemplate,
      },
      options,
    );
  }

  /** status 2 activates (its event then sends the email), 1 disables. */
  async updateStatus(id: string, status: number, options?: CallOptions): Promise<EmailNotificationTemplate> {
    validateInput(Id, id, "emailTemplates.updateStatus: id");
    validateInput(Status, status, "emailTemplates.updateStatus: status");
    return this.api.call({ service: SERVICE, action: "updateStatus", params: { id, status }, schema: EmailNotificationTemplate }, options);
  }

  /** A retried delete that finds the template gone counts as done. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    validateInput(Id, id, "emailTemplates.delete: id");
    await this.api.call({ service: SERVICE, action: "delete", params: { id }, schema: VoidResponse }, options);
  }

  private async listAction(
    action: "list" | "listTemplates",
    filter: EmailTemplateFilter,
    pager: Pager,
    options?: CallOptions,
  ): Promise<EmailNotificationTemplateListResponse> {
    const f = validateInput(EmailTemplateFilter, filter, `emailTemplates.${action}: filter`);
    const p = validateInput(StrictPager, pager, `emailTemplates.${action}: pager`);
    return this.api.call(
      {
        service: SERVICE,
        action,
        params: {
          filter: { objectType: OBJECT_TYPES.templateFilter, ...f, typeEqual: TemplateType.EMAIL },
          pager: { objectType: OBJECT_TYPES.pager, ...p },
        },
        schema: EmailNotificationTemplateListResponse,
      },
      options,
    );
  }
}
