/**
 * Service `eventnotification_eventnotificationtemplate`: one client for the one service, typed per kind of template
 * (templateKinds.ts). `client.templates` is its HTTP kind, `client.emailTemplates` its email kind: the same calls,
 * sending and reading each kind's fields. Thin methods over the shared request function.
 */
import { z } from "zod";
import { OBJECT_TYPES, Pager } from "../../contract/platform";
import { paginate, type Paginated, type PaginationBounds } from "../core/pagination";
import type { CallOptions } from "../transport";
import type { PlatformApi } from "./platformApi";
import type { EmailTemplateTypes, HttpTemplateTypes, TemplateKind, TemplateTypes } from "./templateKinds";
import { validateInput } from "./validate";

const SERVICE = "eventnotification_eventnotificationtemplate";
const Id = z.string().min(1, "must be a non-empty string");
const Status = z.number().int().min(1);
const VoidResponse = z.unknown();
const StrictPager = z.strictObject(Pager.shape);

export class EventNotificationTemplates<T extends TemplateTypes = HttpTemplateTypes> {
  private readonly label: string;

  constructor(
    private readonly api: PlatformApi,
    private readonly kind: TemplateKind<T>,
  ) {
    this.label = kind.label;
  }

  /**
   * System templates (partner 0) to clone from: of the email kind, e.g. EMAIL_ENTRY_READY; of the HTTP kind, every
   * kind unless filter.typeEqual says (`httpNotification.Http` selects HTTP ones).
   */
  async listTemplates(filter?: T["filter"], pager: Pager = {}, options?: CallOptions): Promise<T["list"]> {
    return this.listAction("listTemplates", filter, pager, options);
  }

  /**
   * Clone a system (or own) template into one of this kind; it starts disabled (see updateStatus). The HTTP kind
   * requires `signSecret`, checked before any call (SvcValidationError): without it the platform would sign
   * deliveries with the account's admin secret. The email kind requires `name` (and the platform `to`).
   */
  async clone(id: string, fields: T["clone"], options?: CallOptions): Promise<T["template"]> {
    return this.write("clone", id, this.kind.clone, fields, options);
  }

  /** The template; through the email kind, an HTTP template's id fails response validation (objectType is not the email kind). */
  async get(id: string, options?: CallOptions): Promise<T["template"]> {
    validateInput(Id, id, `${this.label}.get: id`);
    return this.api.read({ service: SERVICE, action: "get", params: { id }, schema: this.kind.template }, options);
  }

  /** The account's templates of this kind (id descending; deleted ones only with statusEqual 3). */
  async list(filter?: T["filter"], pager: Pager = {}, options?: CallOptions): Promise<T["list"]> {
    return this.listAction("list", filter, pager, options);
  }

  /**
   * Every template of the account matching `filter`, across all pages. The walk fails (LIST_TOO_LONG) past
   * `maxItems` items or `maxBytes` bytes of answers (PAGINATION_DEFAULTS) rather than hold a list without end.
   */
  iterate(filter?: T["filter"], options: CallOptions & PaginationBounds & { pageSize?: number } = {}): Paginated<T["template"]> {
    const { pageSize, maxItems, maxBytes, ...callOptions } = options;
    return paginate(
      async (pageIndex, size) => {
        let answerBytes: number | undefined;
        const page = await this.listAction("list", filter, { pageIndex, pageSize: size }, callOptions, (bytes) => {
          answerBytes = bytes;
        });
        return { ...page, answerBytes };
      },
      { pageSize, maxItems, maxBytes, call: { service: SERVICE, action: "list" } },
    );
  }

  /** In place; an email kind's list or recipients object sent replaces the stored one whole; null clears a clearable field. */
  async update(id: string, fields: T["update"], options?: CallOptions): Promise<T["template"]> {
    return this.write("update", id, this.kind.update, fields, options);
  }

  /** status 2 activates (its event then sends the POST or the email), 1 disables. */
  async updateStatus(id: string, status: number, options?: CallOptions): Promise<T["template"]> {
    validateInput(Id, id, `${this.label}.updateStatus: id`);
    validateInput(Status, status, `${this.label}.updateStatus: status`);
    return this.api.call({ service: SERVICE, action: "updateStatus", params: { id, status }, schema: this.kind.template }, options);
  }

  /** A retried delete that finds the template gone counts as done. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    validateInput(Id, id, `${this.label}.delete: id`);
    await this.api.call({ service: SERVICE, action: "delete", params: { id }, schema: VoidResponse }, options);
  }

  /** clone and update: the id and this kind's fields, sent as `eventNotificationTemplate` with the kind's objectType. */
  private async write(action: "clone" | "update", id: string, schema: z.ZodType, fields: object, options?: CallOptions): Promise<T["template"]> {
    validateInput(Id, id, `${this.label}.${action}: id`);
    const template = validateInput(schema, fields, `${this.label}.${action}`) as object;
    return this.api.call(
      {
        service: SERVICE,
        action,
        params: { id, eventNotificationTemplate: { objectType: this.kind.objectType, ...template } },
        schema: this.kind.template,
      },
      options,
    );
  }

  private async listAction(
    action: "list" | "listTemplates",
    filter: T["filter"] | undefined,
    pager: Pager,
    options?: CallOptions,
    onAnswerBytes?: (bytes: number) => void,
  ): Promise<T["list"]> {
    const f = validateInput(this.kind.filter, filter ?? {}, `${this.label}.${action}: filter`) as object;
    const p = validateInput(StrictPager, pager, `${this.label}.${action}: pager`);
    return this.api.call(
      {
        service: SERVICE,
        action,
        params: {
          filter: { objectType: OBJECT_TYPES.templateFilter, ...f, ...this.kind.fixedFilter },
          pager: { objectType: OBJECT_TYPES.pager, ...p },
        },
        schema: this.kind.list,
        onAnswerBytes,
      },
      options,
    );
  }
}

/**
 * @deprecated The email kind is now the same client as the HTTP kind: type `client.emailTemplates` as
 * `EventNotificationTemplates<EmailTemplateTypes>`. This alias stays for one release.
 */
export const EmailNotificationTemplates = EventNotificationTemplates;
/** @deprecated See the value of the same name. */
export type EmailNotificationTemplates = EventNotificationTemplates<EmailTemplateTypes>;
