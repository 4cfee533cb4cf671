/**
 * Service `session`: start (admin secret -> ks), startWidgetSession (widget ks, only good for
 * appToken.startSession), get (what a ks says) and end (durably invalidates the ks that was sent).
 */
import { timingSafeEqual } from "node:crypto";
import { OBJECT_TYPES, SessionType } from "../../contract/platform";
import type { ApiCall, ServiceDefinition } from "../api/call";
import type { EmulatorContext } from "../context/emulatorContext";
import { ApiError, invalidEnum } from "../shared/errors";
import { formatPrivileges, parsePrivileges } from "../sessions/ks";

/** Lifetime when the caller sends none (and the "account default" of sessionDuration 0). */
export const DEFAULT_SESSION_SECONDS = 86_400;

export function secretsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function sessionType(value: number | undefined, name = "type"): SessionType {
  if (value === undefined) return 0;
  if (value !== SessionType.USER && value !== SessionType.ADMIN) throw invalidEnum(String(value), name, "SvcSessionType");
  return value;
}

export function createSessionService(ctx: EmulatorContext): ServiceDefinition {
  const nowSec = (): number => Math.floor(ctx.now() / 1000);

  function start(call: ApiCall): string {
    const secret = call.str("secret");
    const partnerId = call.int("partnerId");
    const partner = ctx.store.getPartner(partnerId);
    if (!partner || !secretsEqual(secret, partner.adminSecret)) {
      throw new ApiError("START_SESSION_ERROR", `Error while starting session for partner [${partnerId}]`, { PID: partnerId });
    }
    const type = sessionType(call.optInt("type"));
    const expiry = call.optInt("expiry");
    return ctx.sessions.issue({
      partnerId,
      type,
      userId: call.optStr("userId") ?? "",
      expiry: nowSec() + (expiry && expiry > 0 ? expiry : DEFAULT_SESSION_SECONDS),
      privileges: parsePrivileges(call.optStr("privileges")),
    });
  }

  function startWidgetSession(call: ApiCall): Record<string, unknown> {
    const widgetId = call.str("widgetId");
    const m = /^_(\d+)$/.exec(widgetId);
    const partner = m ? ctx.store.getPartner(Number(m[1])) : undefined;
    if (!partner) throw new ApiError("INVALID_WIDGET_ID", `Invalid widget id [${widgetId}]`, { WIDGET_ID: widgetId });
    const expiry = call.optInt("expiry");
    const ks = ctx.sessions.issue({
      partnerId: partner.id,
      type: SessionType.USER,
      userId: "",
      expiry: nowSec() + (expiry && expiry > 0 ? expiry : DEFAULT_SESSION_SECONDS),
      privileges: { widget: "1", view: "*" },
    });
    return { partnerId: partner.id, ks, userId: "", objectType: OBJECT_TYPES.widgetSession };
  }

  /** session.get: reads the ks given in `session`, or the request's own ks. */
  function get(call: ApiCall): Record<string, unknown> {
    const own = call.session();
    const other = call.optStr("session");
    const s = other ? ctx.sessions.verify(other) : own;
    if (s.partnerId !== own.partnerId) throw new ApiError("INVALID_KS", "Invalid KS", { ERR_CODE: -2, ERR_DESC: "INVALID_PARTNER" });
    return {
      ks: other ?? call.ks,
      sessionType: s.type,
      partnerId: s.partnerId,
      userId: s.userId,
      expiry: s.expiry,
      privileges: formatPrivileges(s.privileges),
      objectType: OBJECT_TYPES.sessionInfo,
    };
  }

  function end(call: ApiCall): undefined {
    ctx.sessions.end(call.anySession());
    return undefined;
  }

  return { name: "session", actions: { start, startWidgetSession, get, end } };
}
