/**
 * Who may use the emulator's control API (`/_emulator/...`, which hands out the admin secret, and the avatar video
 * API's `/_emulator/configuration`) and which origins the avatar APIs' CORS admits. On a loopback address
 * (127.0.0.0/8, ::1, localhost: the default) both stay open, as a local test hook. Bound to any other address the
 * control API needs `Authorization: Bearer <controlToken>`, or, without a token, is off there (404); and CORS admits
 * only the origins given (none by default) instead of `*`.
 */
import { timingSafeEqual, createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { HttpError } from "../errors";

export interface AccessOptions {
  /** The address the emulator listens on (default 127.0.0.1). */
  host?: string;
  /** Required to use the control API when `host` is not a loopback address. */
  controlToken?: string;
  /** Origins the avatar APIs admit (CORS) when `host` is not a loopback address; none by default. */
  corsOrigins?: readonly string[];
}

export interface AccessPolicy {
  loopback: boolean;
  controlToken: string | undefined;
  /** The avatar APIs' CORS origin: `*` on loopback, else the listed origins. */
  corsOrigin: string | string[];
  /** On, token (needs the bearer token), or off. */
  control: "open" | "token" | "off";
}

/** 127.0.0.0/8, ::1 (also as ::ffff:127.x), localhost. 0.0.0.0 and :: listen on every interface: not loopback. */
export function isLoopbackAddress(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

export function accessPolicy(options: AccessOptions = {}): AccessPolicy {
  const loopback = isLoopbackAddress(options.host ?? "127.0.0.1");
  const token = options.controlToken === undefined || options.controlToken === "" ? undefined : options.controlToken;
  if (token !== undefined && token.length < 16) throw new Error("controlToken: use at least 16 characters");
  return {
    loopback,
    controlToken: token,
    corsOrigin: loopback ? "*" : [...(options.corsOrigins ?? [])],
    control: token !== undefined ? "token" : loopback ? "open" : "off",
  };
}

const digest = (value: string): Buffer => createHash("sha256").update(value).digest();

/** Guards the control API's paths; mounted before them. Never echoes the token. */
export function controlAccess(policy: AccessPolicy): MiddlewareHandler {
  return async function controlAccessGuard(c, next) {
    if (policy.control === "off") {
      throw new HttpError(404, "the control API is off: the emulator listens on a non-loopback address without a control token");
    }
    if (policy.control === "token") {
      const header = c.req.header("authorization") ?? "";
      const given = header.startsWith("Bearer ") ? header.slice(7) : "";
      if (!timingSafeEqual(digest(given), digest(policy.controlToken!))) {
        throw new HttpError(401, "the control API needs Authorization: Bearer <control token>", { "WWW-Authenticate": "Bearer" });
      }
    }
    await next();
  };
}
