/** Service `eventnotification_eventnotificationtemplate`: thin methods over the shared request function. */
import { z } from "zod";
import {
  EventNotificationTemplate,
  EventNotificationTemplateListResponse,
  HttpTemplateCloneFields,
  HttpTemplateUpdateFields,
  OBJECT_TYPES,
  Pager,
  TemplateFilter,
} from "../../contract/platform";
import { paginate, type Paginated } from "../core/pagination";
import type { CallOptions } from "../transport";
import type { PlatformApi } from "./platformApi";
import { validateInput } from "./validate";

const SERVICE = "eventnotification_eventnotificationtemplate";
const Id = z.string().min(1, "must be a non-empty string");
const Status = z.number().int().min(1);
const VoidResponse = z.unknown();

/**
 * The sdk requires a signing secret on clone (and refuses an empty one on update): a template without one is signed
 * with the account's admin secret, which would then become every receiver's verification key by accident.
 */
const SignSecret = z
  .string({ error: (issue) => (issue.input === undefined ? "is required (a template without one is signed with the account's admin secret)" : undefined) })
  .min(1, "must be a non-empty signing secret (a template without one is signed with the account's admin secret)");

// Built once: a zod schema compiles itself on its first parse, so one made per call costs that every call.
const StrictHttpTemplateCloneFields = z.strictObject({ ...HttpTemplateCloneFields.shape, signSecret: SignSecret });
const StrictHttpTemplateUpdateFields = z.strictObject({ ...HttpTemplateUpdateFields.shape, signSecret: SignSecret.optional() });

const StrictTemplateFilter = z.strictObject(TemplateFilter.shape);
const StrictPager = z.strictObject(Pager.shape);

export class EventNotificationTemplates {
  constructor(private readonly api: PlatformApi) {}

  /** System templates (partner 0) to clone from; filter.typeEqual "httpNotification.Http" selects HTTP ones. */
  async listTemplates(filter: TemplateFilter = {}, pager: Pager = {}, options?: CallOptions): Promise<EventNotificationTemplateListResponse> {
    return this.listAction("listTemplates", filter, pager, options);
  }

  /**
   * Clone a system template into an HTTP webhook template (it starts disabled; see updateStatus). `signSecret` is
   * required, checked before any call (SvcValidationError): without it the platform would sign deliveries with the
   * account's admin secret. (The parameter keeps the contract's type, where it is optional, so callers whose value is
   * only known at run time still compile.)
   */
  async clone(id: string, fields: HttpTemplateCloneFields, options?: CallOptions): Promise<EventNotificationTemplate> {
    validateInput(Id, id, "templates.clone: id");
    const template = validateInput(StrictHttpTemplateCloneFields, fields, "templates.clone");
    return this.api.call(
      {
        service: SERVICE,
        action: "clone",
        params: { id, eventNotificationTemplate: { objectType: OBJECT_TYPES.httpTemplate, ...template } },
        schema: EventNotificationTemplate,
      },
      options,
    );
  }

  async get(id: string, options?: CallOptions): Promise<EventNotificationTemplate> {
    validateInput(Id, id, "templates.get: id");
    return this.api.call({ service: SERVICE, action: "get", params: { id }, schema: EventNotificationTemplate }, options);
  }

  async list(filter: TemplateFilter = {}, pager: Pager = {}, options?: CallOptions): Promise<EventNotificationTemplateListResponse> {
    return this.listAction("list", filter, pager, options);
  }

  /** Every template of the account matching `filter`, across all pages. */
  iterate(filter: TemplateFilter = {}, options: CallOptions & { pageSize?: number } = {}): Paginated<EventNotificationTemplate> {
    const { pageSize, ...callOptions } = options;
    return paginate((pageIndex, size) => this.list(filter, { pageIndex, pageSize: size }, callOptions), pageSize);
  }

  async update(id: string, fields: HttpTemplateUpdateFields, options?: CallOptions): Promise<EventNotificationTemplate> {
    validateInput(Id, id, "templates.update: id");
    const template = validateInput(StrictHttpTemplateUpdateFields, fields, "templates.update");
    return this.api.call(
      {
        service: SERVICE,
        action: "update",
        params: { id, eventNotificationTemplate: { objectType: OBJECT_TYPES.httpTemplate, ...template } },
        schema: EventNotificationTemplate,
      },
      options,
    );
  }

  /** status 2 activates (the endpoint then receives POSTs), 1 disables. */
  async updateStatus(id: string, status: number, options?: CallOptions): Promise<EventNotificationTemplate> {
    validateInput(Id, id, "templates.updateStatus: id");
    validateInput(Status, status, "templates.updateStatus: status");
    return this.api.call({ service: SERVICE, action: "updateStatus", params: { id, status }, schema: EventNotificationTemplate }, options);
  }

  /** A retried delete that finds the template gone counts as done. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    validateInput(Id, id, "templates.delete: id");
    await this.api.call({ service: SERVICE, action: "delete", params: { id }, schema: VoidResponse }, options);
  }

  private async listAction(
    action: "list" | "listTemplates",
    filter: TemplateFilter,
    pager: Pager,
    options?: CallOptions,
  ): Promise<EventNotificationTemplateListResponse> {
    const f = validateInput(StrictTemplateFilter, filter, `templates.${action}: filter`);
    const p = validateInput(StrictPager, pager, `templates.${action}: pager`);
    return this.api.call(
      {
        service: SERVICE,
        action,
        params: { filter: { objectType: OBJECT_TYPES.templateFilter, ...f }, pager: { objectType: OBJECT_TYPES.pager, ...p } },
        schema: EventNotificationTemplateListResponse,
      },
      options,
    );
  }
}
