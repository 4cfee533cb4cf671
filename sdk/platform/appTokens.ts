/** Service `appToken`: thin methods that build (service, action, params) and call the shared request function. */
import { z } from "zod";
import {
  AppToken,
  AppTokenAddFields,
  AppTokenFilter,
  AppTokenListResponse,
  AppTokenSession,
  AppTokenUpdateFields,
  OBJECT_TYPES,
  Pager,
  StartAppTokenSessionParams,
} from "../../contract/platform";
import { paginate, type Paginated, type PaginationBounds } from "../core/pagination";
import type { CallOptions } from "../transport";
import type { PlatformApi } from "./platformApi";
import type { PlatformWire } from "./platformWire";
import { validateInput } from "./validate";

const SERVICE = "appToken";
const Id = z.string().min(1, "must be a non-empty string");
const VoidResponse = z.unknown();

/** appToken.startSession's parameters (the contract's), unknown keys refused. */
export const StartAppTokenSessionInput = z.strictObject(StartAppTokenSessionParams.shape);
export type StartAppTokenSessionInput = z.input<typeof StartAppTokenSessionInput>;

// Built once: a zod schema compiles itself on its first parse, so one made per call costs that every call.
const StrictAppTokenAddFields = z.strictObject(AppTokenAddFields.shape);
const StrictAppTokenFilter = z.strictObject(AppTokenFilter.shape);
const StrictPager = z.strictObject(Pager.shape);
const StrictAppTokenUpdateFields = z.strictObject(AppTokenUpdateFields.shape);

export class AppTokens {
  constructor(private readonly api: PlatformApi) {}

  async add(fields: AppTokenAddFields, options?: CallOptions): Promise<AppToken> {
    const appToken = validateInput(StrictAppTokenAddFields, fields, "appTokens.add");
    return this.api.call(
      { service: SERVICE, action: "add", params: { appToken: { objectType: OBJECT_TYPES.appToken, ...appToken } }, schema: AppToken },
      options,
    );
  }

  async get(id: string, options?: CallOptions): Promise<AppToken> {
    validateInput(Id, id, "appTokens.get: id");
    return this.api.read({ service: SERVICE, action: "get", params: { id }, schema: AppToken }, options);
  }

  async list(filter: AppTokenFilter = {}, pager: Pager = {}, options?: CallOptions): Promise<AppTokenListResponse> {
    return this.listPage(filter, pager, options);
  }

  /**
   * Every token matching `filter`, across all pages (fetched lazily). The walk fails (LIST_TOO_LONG) past
   * `maxItems` items or `maxBytes` bytes of answers (PAGINATION_DEFAULTS) rather than hold a list without end.
   */
  iterate(filter: AppTokenFilter = {}, options: CallOptions & PaginationBounds & { pageSize?: number } = {}): Paginated<AppToken> {
    const { pageSize, maxItems, maxBytes, ...callOptions } = options;
    return paginate(
      async (pageIndex, size) => {
        let answerBytes: number | undefined;
        const page = await this.listPage(filter, { pageIndex, pageSize: size }, callOptions, (bytes) => {
          answerBytes = bytes;
        });
        return { ...page, answerBytes };
      },
      { pageSize, maxItems, maxBytes, call: { service: SERVICE, action: "list" } },
    );
  }

  private async listPage(filter: AppTokenFilter, pager: Pager, options?: CallOptions, onAnswerBytes?: (bytes: number) => void): Promise<AppTokenListResponse> {
    const f = validateInput(StrictAppTokenFilter, filter, "appTokens.list: filter");
    const p = validateInput(StrictPager, pager, "appTokens.list: pager");
    return this.api.call(
      {
        service: SERVICE,
        action: "list",
        params: { filter: { objectType: OBJECT_TYPES.appTokenFilter, ...f }, pager: { objectType: OBJECT_TYPES.pager, ...p } },
        schema: AppTokenListResponse,
        onAnswerBytes,
      },
      options,
    );
  }

  async update(id: string, fields: AppTokenUpdateFields, options?: CallOptions): Promise<AppToken> {
    validateInput(Id, id, "appTokens.update: id");
    const appToken = validateInput(StrictAppTokenUpdateFields, fields, "appTokens.update");
    return this.api.call(
      { service: SERVICE, action: "update", params: { id, appToken: { objectType: OBJECT_TYPES.appToken, ...appToken } }, schema: AppToken },
      options,
    );
  }

  /** Revokes the token (status 3). A retried delete that finds the token gone counts as done. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    validateInput(Id, id, "appTokens.delete: id");
    await this.api.call({ service: SERVICE, action: "delete", params: { id }, schema: VoidResponse }, options);
  }

  /** Exchange a token for a session; `ks` is the (widget) session the tokenHash was computed with. */
  startSession(input: StartAppTokenSessionInput, ks: string, options?: CallOptions): Promise<AppTokenSession> {
    return startAppTokenSession(this.api.wire, input, ks, options);
  }
}

/** appToken.startSession on the wire: the client's session source uses it before any managed session exists. */
export function startAppTokenSession(wire: PlatformWire, input: StartAppTokenSessionInput, ks: string, options?: CallOptions): Promise<AppTokenSession> {
  const params = validateInput(StartAppTokenSessionInput, input, "appTokens.startSession");
  return wire.call({ service: SERVICE, action: "startSession", params, schema: AppTokenSession }, ks, options);
}
