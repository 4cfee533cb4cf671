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
import { paginate } from "../api/pager";
import type { EmulatorContext } from "../context";
import { cannotBeNull, invalidEnum, notUpdatable } from "../errors";
import { parsePrivileges } from "../sessions/ks";
import { startSessionAction } from "./appTokenSession";
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

export function createAppTokenService(ctx: EmulatorContext): ServiceDefinition {
  const nowSec = (): number => Math.floor(ctx.now() / 1000);
  /** Every change of a stored token: stamp it, then persist it before answering. */
  const touchAndSave = (token: AppTokenRecord): void => {
    token.updatedAt = nowSec();
    ctx.store.putDoc("appToken", token.id, token.partnerId, token);
  };

  /** The wire view: the token only for the account admin (and always on add). */
  const view = (t: AppTokenRecord, withToken: boolean): AppToken => {
    const { token, ...rest } = t;
    return withToken ? { ...rest, token } : rest;
  };

  function add(call: ApiCall): AppToken {
    call.admin();
    call.requireObjectType("appToken", CLASS);
    const { fields } = call.parseObject("appToken", CLASS, AppTokenAddFields);
    const hashType = fields.hashType ?? "SHA1";
    if (fields.sessionPrivileges !== undefined) parsePrivileges(fields.sessionPrivileges);
    const now = nowSec();
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

  function get(call: ApiCall): AppToken {
    const s = call.admin();
    return view(findAppToken(ctx, s.partnerId, call.str("id")), ApiCall.isAccountAdmin(s));
  }

  function list(call: ApiCall): Record<string, unknown> {
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
    const items = ctx.store
      .listDocs<AppTokenRecord>("appToken", s.partnerId)
      .filter((t) => (statusEqual !== undefined ? String(t.status) === statusEqual : t.status !== AppTokenStatus.DELETED))
      .filter((t) => hashTypeEqual === undefined || t.hashType === hashTypeEqual)
      .filter((t) => sessionTypeEqual === undefined || String(t.sessionType) === sessionTypeEqual)
      .filter((t) => idEqual === undefined || t.id === idEqual);
    const page = paginate(call, items);
    const admin = ApiCall.isAccountAdmin(s);
    return { objects: page.objects.map((t) => view(t, admin)), totalCount: page.totalCount, objectType: OBJECT_TYPES.appTokenList };
  }

  function update(call: ApiCall): AppToken {
    const s = call.admin();
    // Arguments first (the real dispatcher builds them all before the action looks anything up).
    const id = call.str("id");
    call.requireObjectType("appToken", CLASS);
    const { fields, nulls } = call.parseObject("appToken", CLASS, AppTokenUpdateFields);
    const token = findAppToken(ctx, s.partnerId, id);
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
    touchAndSave(token);
    return view(token, ApiCall.isAccountAdmin(s));
  }

  function del(call: ApiCall): undefined {
    const s = call.admin();
    const token = findAppToken(ctx, s.partnerId, call.str("id"));
    token.status = AppTokenStatus.DELETED;
    touchAndSave(token);
    return undefined;
  }

  return {
    name: "appToken",
    actions: { add, get, list, update, delete: del, startSession: (call) => startSessionAction(ctx, call) },
  };
}
