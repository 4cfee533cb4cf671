/**
 * Service `appToken`: add, get, list, update, delete (soft: status 3) and startSession (in appTokenSession.ts).
 * Every action but startSession needs an ADMIN session. The token value is returned by add, and by get/list
 * only to the account admin (an ADMIN ks started with the admin secret; sessions minted from an app token
 * are not the account admin, so they never see token values).
 */
import { randomBytes, randomInt } from "node:crypto";
import {
  AppTokenAddFields,
  AppTokenStatus,
  AppTokenUpdateFields,
  APP_TOKEN_UPDATABLE,
  HashType,
  OBJECT_TYPES,
  SessionType,
  TOKEN_HEX_LENGTH,
  type AppToken,
} from "../../contract/platform";
import { ApiCall, type ServiceDefinition } from "../api/call";
import { pageOf } from "../api/pager";
import type { EmulatorContext } from "../context/emulatorContext";
import { cannotBeNull, invalidEnum, notUpdatable } from "../shared/errors";
import { parsePrivileges } from "../sessions/ks";
import type { DocCondition } from "../store/store";
import { startAppTokenSession } from "./appTokenSession";
import { findAppToken, type AppTokenRecord } from "./appTokenRecords";

const CLASS = OBJECT_TYPES.appToken;
/** Known fields that update refuses (unknown ones are ignored, as on the real service). */
const READ_ONLY = ["id", "token", "partnerId", "status", "sessionType", "hashType", "expiry", "createdAt", "updatedAt"];

function newId(ctx: EmulatorContext): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  for (;;) {
    let id = "0_";
    for (let i = 0; i < 8; i++) id += alphabet[randomInt(alphabet.length)];
    if (!ctx.store.getDoc("appToken", id)) return id;
  }
}

/** The wire view: the token only for the account admin (and always on add). */
function view(t: AppTokenRecord, withToken: boolean): AppToken {
  const { token, ...rest } = t;
  return withToken ? { ...rest, token } : rest;
}

function nowSeconds(ctx: EmulatorContext): number {
  return Math.floor(ctx.now() / 1000);
}

/** Every change of a stored token: stamp it, then persist it before answering. */
function touchAndSave(ctx: EmulatorContext, token: AppTokenRecord): void {
  token.updatedAt = nowSeconds(ctx);
  ctx.store.putDoc("appToken", token.id, token.partnerId, token);
}

/** appToken.add */
export function addAppToken(call: ApiCall): AppToken {
  const ctx = call.ctx;
  call.admin();
  call.requireObjectType("appToken", CLASS);
  const { fields } = call.parseObject("appToken", CLASS, AppTokenAddFields);
  const hashType = fields.hashType ?? "SHA1";
  if (fields.sessionPrivileges !== undefined) parsePrivileges(fields.sessionPrivileges);
  const now = nowSeconds(ctx);
  const token: AppTokenRecord = {
    id: newId(ctx),
    token: randomBytes(TOKEN_HEX_LENGTH[hashType] / 2).toString("hex"),
    partnerId: call.session().partnerId,
    status: AppTokenStatus.ACTIVE,
    sessionType: fields.sessionType ?? SessionType.USER,
    sessionDuration: fields.sessionDuration ?? 0,
    ...(fields.sessionPrivileges ? { sessionPrivileges: fields.sessionPrivileges } : {}),
    sessionUserId: fields.sessionUserId ?? "",
    hashType,
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    expiry: fields.expiry ?? 0,
    createdAt: now,
    updatedAt: now,
    objectType: CLASS,
  };
  ctx.store.putDoc("appToken", token.id, token.partnerId, token);
  return view(token, true);
}

/** appToken.get */
export function getAppToken(call: ApiCall): AppToken {
  const s = call.admin();
  return view(findAppToken(call.ctx, s.partnerId, call.str("id")), ApiCall.isAccountAdmin(s));
}

/** appToken.list */
export function listAppTokens(call: ApiCall): Record<string, unknown> {
  const s = call.admin();
  const f = call.object("filter") ?? {};
  const str = (k: string): string | undefined => (typeof f[k] === "string" && f[k] !== "" ? (f[k] as string) : undefined);
  const statusEqual = str("statusEqual");
  const hashTypeEqual = str("hashTypeEqual");
  const sessionTypeEqual = str("sessionTypeEqual");
  const idEqual = str("idEqual");
  if (hashTypeEqual !== undefined && !HashType.safeParse(hashTypeEqual).success) {
    throw invalidEnum(hashTypeEqual, "filter:hashTypeEqual", "SvcAppTokenHashType");
  }
  // Filtered, counted and paged by the store: a page of an account with thousands of tokens parses one page.
  const where: DocCondition[] = [
    statusEqual !== undefined ? { field: "status", value: statusEqual } : { field: "status", value: String(AppTokenStatus.DELETED), not: true },
  ];
  if (hashTypeEqual !== undefined) where.push({ field: "hashType", value: hashTypeEqual });
  if (sessionTypeEqual !== undefined) where.push({ field: "sessionType", value: sessionTypeEqual });
  if (idEqual !== undefined) where.push({ field: "id", value: idEqual });
  const page = call.ctx.store.pageDocs<AppTokenRecord>("appToken", s.partnerId, { where, ...pageOf(call) });
  const admin = ApiCall.isAccountAdmin(s);
  return { objects: page.docs.map((t) => view(t, admin)), totalCount: page.total, objectType: OBJECT_TYPES.appTokenList };
}

/** appToken.update */
export function updateAppToken(call: ApiCall): AppToken {
  const s = call.admin();
  // Arguments first (the real dispatcher builds them all before the action looks anything up).
  const id = call.str("id");
  call.requireObjectType("appToken", CLASS);
  const { fields, nulls } = call.parseObject("appToken", CLASS, AppTokenUpdateFields);
  const token = findAppToken(call.ctx, s.partnerId, id);
  const sent = Object.keys(call.object("appToken") ?? {}).map((k) => k.replace(/__null$/, ""));
  for (const k of sent) if (READ_ONLY.includes(k)) throw notUpdatable(`${CLASS}::${k}`);
  for (const k of nulls) {
    if (k === "sessionDuration") throw cannotBeNull(`${CLASS}::${k}`);
    if (k === "description" || k === "sessionPrivileges") delete token[k];
    if (k === "sessionUserId") token.sessionUserId = "";
  }
  for (const k of APP_TOKEN_UPDATABLE) {
    const v = fields[k];
    if (v === undefined) continue;
    if (k === "sessionPrivileges") parsePrivileges(v as string);
    (token as Record<string, unknown>)[k] = v;
  }
  touchAndSave(call.ctx, token);
  return view(token, ApiCall.isAccountAdmin(s));
}

/** appToken.delete: the token is kept with status DELETED (3), as on the real service. */
export function deleteAppToken(call: ApiCall): undefined {
  const s = call.admin();
  const token = findAppToken(call.ctx, s.partnerId, call.str("id"));
  token.status = AppTokenStatus.DELETED;
  touchAndSave(call.ctx, token);
  return undefined;
}

/** Service `appToken`: each action names the function that answers it (a plain table, for go-to-definition). */
export const APP_TOKEN_SERVICE: ServiceDefinition = {
  name: "appToken",
  actions: {
    add: addAppToken,
    get: getAppToken,
    list: listAppTokens,
    update: updateAppToken,
    delete: deleteAppToken,
    startSession: startAppTokenSession,
  },
};
