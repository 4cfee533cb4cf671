/**
 * Service `eventnotification_eventnotificationtemplate`: listTemplates (the partner-0 catalog), clone, get, list,
 * update, updateStatus and delete (soft, status 3). Every action needs an ADMIN session with `disableentitlement`, on
 * an account with the event notification plugin (FEATURE_FORBIDDEN otherwise).
 * signSecret is returned to the account admin only (app-token sessions do not see it), like app token values.
 */
import {
  EVENT_NOTIFICATION_PLUGIN,
  HttpTemplateUpdateFields,
  OBJECT_TYPES,
  TemplateStatus,
  TemplateType,
  type EventNotificationTemplate,
} from "../../contract/platform";
import { ApiCall, type ServiceDefinition } from "../api/call";
import { pageOf, paginate } from "../api/pager";
import type { ParamTree } from "../api/params";
import type { EmulatorContext, SessionInfo } from "../context/emulatorContext";
import { ApiError, cannotBeNull, invalidEnum, minLength, missingParameter } from "../shared/errors";
import { SYSTEM_TEMPLATES, type TemplateRecord } from "../events/catalog";
import { applyEmailFields, assertEmailComplete } from "./emailTemplates";
import type { DocCondition } from "../store/store";
import { requireFeature } from "../store/partnerFeatures";

const PRIVILEGE = "disableentitlement";
const KIND_OF: Record<string, string> = { [OBJECT_TYPES.httpTemplate]: TemplateType.HTTP, [OBJECT_TYPES.emailTemplate]: TemplateType.EMAIL };
const FILTER_KIND_OF: Record<string, string> = {
  [OBJECT_TYPES.httpTemplateFilter]: TemplateType.HTTP,
  [OBJECT_TYPES.emailTemplateFilter]: TemplateType.EMAIL,
};

const notFound = (id: string): ApiError =>
  new ApiError("EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND", `Event notification template id [${id}] not found`, { ID: id });

function view(t: TemplateRecord, s: SessionInfo): EventNotificationTemplate {
  const { event: _event, signSecret, ...rest } = t;
  return signSecret !== undefined && ApiCall.isAccountAdmin(s) ? { ...rest, signSecret } : rest;
}

export function createEventNotificationTemplateService(ctx: EmulatorContext): ServiceDefinition {
  const nowSec = (): number => Math.floor(ctx.now() / 1000);
  /** Every change of a stored template: stamp it, then persist it before answering. */
  const touchAndSave = (t: TemplateRecord): void => {
    t.updatedAt = nowSec();
    ctx.store.putDoc("template", t.id, t.partnerId, t);
  };
  /** An ADMIN session with disableentitlement, on an account that has the event notification plugin. */
  const admin = (call: ApiCall): SessionInfo => {
    const s = call.admin(PRIVILEGE);
    requireFeature(ctx.store, s.partnerId, EVENT_NOTIFICATION_PLUGIN);
    return s;
  };

  function findOwn(partnerId: number, id: string): TemplateRecord {
    const t = ctx.store.getDoc<TemplateRecord>("template", id);
    if (!t || t.partnerId !== partnerId || t.status === TemplateStatus.DELETED) throw notFound(id);
    return t;
  }

  function assertUniqueSystemName(partnerId: number, systemName: string | undefined, exceptId?: string): void {
    if (!systemName) return;
    const where: DocCondition[] = [
      { field: "systemName", value: systemName },
      { field: "status", value: String(TemplateStatus.DELETED), not: true },
    ];
    if (exceptId !== undefined) where.push({ field: "id", value: exceptId, not: true });
    const clash = ctx.store.pageDocs<TemplateRecord>("template", partnerId, { where, limit: 1, offset: 0 }).total > 0;
    if (clash) {
      throw new ApiError("EVENT_NOTIFICATION_TEMPLATE_DUPLICATE_SYSTEM_NAME", `Event notification template system name [${systemName}] already exists`, {
        NAME: systemName,
      });
    }
  }

  /** Applies clone/update fields to a record, validating each; nulls clear optional fields. */
  function apply(call: ApiCall, t: TemplateRecord): void {
    const className = t.objectType;
    const { fields, nulls } = call.parseObject("eventNotificationTemplate", className, HttpTemplateUpdateFields, false);
    for (const k of nulls) {
      if (k === "name" || k === "url") throw cannotBeNull(`${className}::${k}`);
      if (k === "systemName" || k === "description" || k === "signSecret") delete t[k];
    }
    if (fields.name !== undefined) {
      if (fields.name.length < 3) throw minLength(`${className}::name`, 3);
      t.name = fields.name;
    }
    if (fields.systemName !== undefined) t.systemName = fields.systemName;
    if (fields.description !== undefined) t.description = fields.description;
    if (t.type === TemplateType.HTTP) {
      // The contract's schema already refused anything but https (or http on loopback).
      if (fields.url !== undefined) t.url = fields.url;
      if (fields.method !== undefined) t.method = inRange(fields.method, 1, 4, "method", "SvcHttpNotificationMethod");
      if (fields.signSecret !== undefined) t.signSecret = fields.signSecret;
      if (fields.secureHashingAlgo !== undefined) {
        t.secureHashingAlgo = inRange(fields.secureHashingAlgo, 1, 3, "secureHashingAlgo", "SvcSecureHashingAlgo");
      }
    }
    applyEmailFields(call, t);
  }

  function listTemplates(call: ApiCall): Record<string, unknown> {
    const s = admin(call);
    const where = filterConditions(call, true);
    const items = SYSTEM_TEMPLATES.filter((t) => meetsAll(t, where));
    const page = paginate(call, items);
    return { objects: page.objects.map((t) => view(t, s)), totalCount: page.totalCount, objectType: OBJECT_TYPES.templateList };
  }

  function clone(call: ApiCall): EventNotificationTemplate {
    const s = admin(call);
    // Arguments first (the real dispatcher builds them all before the action looks anything up).
    const id = call.str("id");
    const targetKind = templateKindArgument(call);
    const source = SYSTEM_TEMPLATES.find((t) => t.id === id) ?? findOwn(s.partnerId, id);
    if (targetKind !== source.type) {
      throw new ApiError("EVENT_NOTIFICATION_WRONG_TYPE", `Wrong event notification template type: template [${id}] is ${source.type}, not ${targetKind}`, {
        ID: id,
        TYPE: source.type,
      });
    }
    const now = nowSec();
    const { systemName: _inherited, ...base } = structuredClone(source);
    const t: TemplateRecord = { ...base, id: "", partnerId: s.partnerId, status: TemplateStatus.DISABLED, createdAt: now, updatedAt: now };
    apply(call, t);
    if (t.type === TemplateType.HTTP && !t.url) throw cannotBeNull(`${t.objectType}::url`);
    assertEmailComplete(t);
    assertUniqueSystemName(s.partnerId, t.systemName);
    t.id = String(ctx.store.nextSeq("template", 1001));
    ctx.store.putDoc("template", t.id, t.partnerId, t);
    return view(t, s);
  }

  function get(call: ApiCall): EventNotificationTemplate {
    const s = admin(call);
    const id = call.str("id");
    return view(SYSTEM_TEMPLATES.find((t) => t.id === id) ?? findOwn(s.partnerId, id), s);
  }

  function list(call: ApiCall): Record<string, unknown> {
    const s = admin(call);
    // Filtered, counted and paged by the store, newest first.
    const page = ctx.store.pageDocs<TemplateRecord>("template", s.partnerId, { where: filterConditions(call, false), order: "idDescending", ...pageOf(call) });
    return { objects: page.docs.map((t) => view(t, s)), totalCount: page.total, objectType: OBJECT_TYPES.templateList };
  }

  function update(call: ApiCall): EventNotificationTemplate {
    const s = admin(call);
    const id = call.str("id");
    const wantedKind = templateKindArgument(call);
    const t = findOwn(s.partnerId, id);
    if (wantedKind !== t.type) {
      throw new ApiError("EVENT_NOTIFICATION_WRONG_TYPE", `Wrong event notification template type: template [${t.id}] is ${t.type}`, {
        ID: t.id,
        TYPE: t.type,
      });
    }
    apply(call, t);
    assertUniqueSystemName(s.partnerId, t.systemName, t.id);
    touchAndSave(t);
    return view(t, s);
  }

  function updateStatus(call: ApiCall): EventNotificationTemplate {
    const s = admin(call);
    const id = call.str("id");
    const status = call.int("status");
    const t = findOwn(s.partnerId, id);
    if (status !== TemplateStatus.ACTIVE && status !== TemplateStatus.DISABLED) {
      throw invalidEnum(String(status), "status", "SvcEventNotificationTemplateStatus");
    }
    t.status = status;
    touchAndSave(t);
    return view(t, s);
  }

  function del(call: ApiCall): undefined {
    const s = admin(call);
    const t = findOwn(s.partnerId, call.str("id"));
    t.status = TemplateStatus.DELETED;
    touchAndSave(t);
    return undefined;
  }

  return {
    name: "eventnotification_eventnotificationtemplate",
    actions: { listTemplates, clone, get, list, update, updateStatus, delete: del },
  };
}

/**
 * `eventNotificationTemplate[objectType]`, required on clone and update (like `appToken[objectType]`): the kind of
 * template it names. Absent: MISSING_MANDATORY_PARAMETER; a type that is no template: INVALID_ENUM_VALUE.
 */
function templateKindArgument(call: ApiCall): string {
  const wanted = call.object("eventNotificationTemplate")?.objectType;
  if (wanted === undefined || wanted === null || wanted === "") throw missingParameter("eventNotificationTemplate:objectType");
  const kind = typeof wanted === "string" && Object.hasOwn(KIND_OF, wanted) ? KIND_OF[wanted] : undefined;
  if (kind === undefined) throw invalidEnum(String(wanted), "eventNotificationTemplate:objectType", "SvcEventNotificationTemplate");
  return kind;
}

/**
 * filter[objectType]: the base filter (or none) lists every kind; the HTTP or email filter type narrows the list
 * to that kind; any other type is refused (INVALID_OBJECT_TYPE) rather than silently ignored.
 */
function filterKind(f: ParamTree): string | undefined {
  const given = f.objectType;
  if (given === undefined || given === null || given === "" || given === OBJECT_TYPES.templateFilter) return undefined;
  const kind = typeof given === "string" && Object.hasOwn(FILTER_KIND_OF, given) ? FILTER_KIND_OF[given] : undefined;
  if (kind === undefined) throw new ApiError("INVALID_OBJECT_TYPE", `Invalid object type "${String(given)}"`, { TYPE: String(given) });
  return kind;
}

/**
 * filter[objectType|typeEqual|statusEqual|idEqual|systemNameEqual] as conditions on the record's fields; the
 * account's deleted templates only when asked for (the system catalog has none).
 */
function filterConditions(call: ApiCall, system: boolean): DocCondition[] {
  const f = call.object("filter") ?? {};
  const str = (k: string): string | undefined => (typeof f[k] === "string" && f[k] !== "" ? (f[k] as string) : undefined);
  const kind = filterKind(f);
  const [type, status, id, systemName] = [str("typeEqual"), str("statusEqual"), str("idEqual"), str("systemNameEqual")];
  const where: DocCondition[] = [];
  if (kind !== undefined) where.push({ field: "type", value: kind });
  if (type !== undefined) where.push({ field: "type", value: type });
  if (status !== undefined) where.push({ field: "status", value: status });
  else if (!system) where.push({ field: "status", value: String(TemplateStatus.DELETED), not: true });
  if (id !== undefined) where.push({ field: "id", value: id });
  if (systemName !== undefined) where.push({ field: "systemName", value: systemName });
  return where;
}

/** The store's comparison (the field's value as text; a missing field equals nothing), for the in-memory catalog. */
function meetsAll(t: TemplateRecord, where: DocCondition[]): boolean {
  return where.every((c) => {
    const value = (t as Record<string, unknown>)[c.field];
    const text = value === undefined || value === null ? undefined : String(value);
    return c.not ? text !== c.value : text === c.value;
  });
}

function inRange(value: number, min: number, max: number, field: string, enumName: string): number {
  if (!Number.isInteger(value) || value < min || value > max) throw invalidEnum(String(value), `eventNotificationTemplate:${field}`, enumName);
  return value;
}
