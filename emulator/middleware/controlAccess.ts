/**
 * Who may use the emulator's control API (`/_emulator/...`, which hands out the admin secret, and the avatar video
 * API's `/_emulator/configuration`) and which origins the avatar APIs' CORS admits. On a loopback address
 * (127.0.0.0/8, ::1, localhost: the default) both stay open, as a local test hook. Bound to any other address the
 * control API needs `Authorization: Bearer <controlToken>`, or, without a token, is off there (404); and CORS admits
 * only the origins given (none by default) instead of `*`.
 *
 * On loopback the control API also refuses what a browser can be made to send it: a request whose Host is not a
 * loopback name at the emulator's own port (DNS rebinding: a page whose name resolves to 127.0.0.1 would otherwise
 * read /_emulator/account), and a request whose Origin is not the emulator's own (a page POSTing to /_emulator/faults).
 * Scripts, the CLI and the sdk send neither a foreign Host nor an Origin.
 */
import { timingSafeEqual, createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../shared/errors";
import { isLoopbackAddress } from "./loopbackAddress";

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

export { isLoopbackAddress };

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

/** The port a URL names, its scheme's default when it names none. */
function portOf(url: URL): number {
  return url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** The local port of the connection (@hono/node-server's `env.incoming`); undefined in process (app.request). */
function localPortOf(c: Context): number | undefined {
  const env = c.env as { incoming?: { socket?: { localPort?: number } } } | undefined;
  return env?.incoming?.socket?.localPort;
}

/**
 * Why a request to the loopback control API is refused, or undefined when it may pass: its Host (which the request
 * URL is built from) must be a loopback name at the port the connection came in on; an Origin, when sent, must be
 * the emulator's own (http, a loopback name, the same port).
 */
export function loopbackRequestRefusal(c: Context): string | undefined {
  const url = new URL(c.req.url);
  const port = localPortOf(c) ?? portOf(url);
  if (!isLoopbackAddress(url.hostname) || portOf(url) !== port) {
    return `the control API refuses requests addressed to ${JSON.stringify(url.host)}: on loopback it answers only a loopback host name (localhost, 127.0.0.1, [::1]) at its own port ${port} (DNS rebinding guard)`;
  }
  const origin = c.req.header("origin");
  if (origin === undefined) return undefined;
  let from: URL | undefined;
  try {
    from = new URL(origin);
  } catch {
    from = undefined;
  }
  if (from === undefined || from.protocol !== "http:" || !isLoopbackAddress(from.hostname) || portOf(from) !== port) {
    return `the control API refuses requests from the origin ${JSON.stringify(origin)}: only the emulator's own origin may call it (a web page must not)`;
  }
  return undefined;
}

/** Guards the control API's paths; mounted before them. Never echoes the token. */
export function controlAccess(policy: AccessPolicy): MiddlewareHandler {
  return async function controlAccessGuard(c, next) {
    if (policy.loopback) {
      const refusal = loopbackRequestRefusal(c);
      if (refusal !== undefined) throw new HttpError(403, refusal);
    }
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
