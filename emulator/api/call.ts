/**
 * One api_v3 call as a service action sees it: its parameters, typed readers that raise the platform's
 * errors, and the session checks (missing, invalid, widget-only, wrong partner, ADMIN, privileges).
 */
import type { z } from "zod";
import { SessionType } from "../../contract/platform";
import type { EmulatorContext, SessionInfo } from "../context/emulatorContext";
import { ApiError, forbidden, invalidEnum, invalidField, missingParameter } from "../shared/errors";
import { leaf, subtree, type ParamTree } from "./params";

export type ActionHandler = (call: ApiCall) => unknown;

/** A service: its canonical name (as stats and errors show it) and its actions (canonical names). */
export interface ServiceDefinition {
  name: string;
  actions: Record<string, ActionHandler>;
}

export class ApiCall {
  private cachedSession: SessionInfo | undefined;

  constructor(
    readonly ctx: EmulatorContext,
    readonly service: string,
    readonly action: string,
    readonly params: ParamTree,
  ) {}

  get ks(): string | undefined {
    const ks = leaf(this.params, "ks");
    return ks ? ks : undefined;
  }

  /** Any valid session of an account (not a widget session). */
  session(): SessionInfo {
    const s = this.anySession();
    if (s.isWidget) throw forbidden(this.service, this.action);
    return s;
  }

  /** Like session(), but a widget session is accepted too (appToken.startSession). */
  anySession(): SessionInfo {
    if (this.cachedSession) return this.cachedSession;
    const ks = this.ks;
    if (!ks) throw new ApiError("MISSING_KS", "Missing KS, session not established");
    const s = this.ctx.sessions.verify(ks);
    const partnerParam = leaf(this.params, "partnerId");
    if (partnerParam !== undefined && partnerParam !== "" && Number(partnerParam) !== s.partnerId) {
      throw forbidden(this.service, this.action);
    }
    this.cachedSession = s;
    return s;
  }

  /** An ADMIN session (type 2) carrying every named privilege. */
  admin(...privileges: string[]): SessionInfo {
    const s = this.session();
    if (s.type !== SessionType.ADMIN) throw forbidden(this.service, this.action);
    for (const p of privileges) if (!(p in s.privileges)) throw forbidden(this.service, this.action);
    return s;
  }

  /** The account admin: an ADMIN session started with the admin secret (not one minted from an app token). */
  static isAccountAdmin(s: SessionInfo): boolean {
    return s.type === SessionType.ADMIN && s.appTokenId === undefined;
  }

  str(name: string): string {
    const v = leaf(this.params, name);
    if (v === undefined || v === "") throw missingParameter(name);
    return v;
  }

  optStr(name: string): string | undefined {
    return leaf(this.params, name);
  }

  int(name: string): number {
    return toInt(this.str(name), name);
  }

  optInt(name: string): number | undefined {
    const v = leaf(this.params, name);
    return v === undefined || v === "" ? undefined : toInt(v, name);
  }

  object(name: string): ParamTree | undefined {
    return subtree(this.params, name);
  }

  /**
   * The spec requires a nested object to name its type (`appToken[objectType]=SvcAppToken`): absent is a missing
   * parameter, another type INVALID_OBJECT_TYPE.
   */
  requireObjectType(name: string, className: string): void {
    const given = this.object(name)?.objectType;
    if (given === undefined || given === null || given === "") throw missingParameter(`${name}:objectType`);
    if (given !== className) throw new ApiError("INVALID_OBJECT_TYPE", `Invalid object type "${String(given)}"`, { TYPE: String(given) });
  }

  /**
   * Parses a nested object (`name[field]`) with a contract schema. Returns the parsed fields and the names of
   * the fields sent as null (`field__null`). Validation failures become platform errors naming the field.
   */
  parseObject<S extends z.ZodType>(name: string, className: string, schema: S, required = true): { fields: z.output<S>; nulls: string[]; sent: string[] } {
    const tree = this.object(name);
    if (!tree && required) throw missingParameter(name);
    const values: Record<string, string> = {};
    const nulls: string[] = [];
    for (const [k, v] of Object.entries(tree ?? {})) {
      if (k === "objectType") continue;
      if (v === null) nulls.push(k);
      else if (typeof v === "string") values[k] = v;
    }
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? name);
      const value = values[field] ?? "";
      if (issue?.code === "invalid_value") throw invalidEnum(value, `${name}:${field}`, `${className}::${field}`);
      if (values[field] === undefined)
        throw new ApiError("PROPERTY_VALIDATION_CANNOT_BE_NULL", `Property "${className}::${field}" cannot be null`, { PROP_NAME: `${className}::${field}` });
      throw invalidField(`${className}::${field}`, issue?.message ?? "invalid value");
    }
    return { fields: parsed.data, nulls, sent: [...Object.keys(values), ...nulls] };
  }
}

function toInt(v: string, name: string): number {
  if (!/^-?\d+$/.test(v.trim())) throw invalidField(name, "expected an integer");
  return Number(v);
}
