/**
 * Builds the client's SessionManager from its auth settings:
 * - adminSecret: session.start(type ADMIN, privileges "disableentitlement" by default);
 * - app token: session.startWidgetSession("_" + partnerId), then appToken.startSession with
 *   tokenHash = hex(hash(hashType, widgetKs + token)) and the widget ks as that request's ks
 *   (the hash type found as appTokenHashTypes.ts says when it is not given);
 * - ks: used as given, never renewed.
 * Every call here runs on PlatformWire: they make the sessions the rest of the client uses.
 */
import { SessionType } from "../../contract/platform";
import { registerSecret } from "../core/redact";
import { startAppTokenSession } from "../platform/appTokens";
import type { PlatformWire } from "../platform/platformWire";
import type { SessionService } from "../platform/sessionService";
import type { CallOptions } from "../transport";
import { createHashTypeFinder } from "./appTokenHashTypes";
import type { ParsedAuth } from "./credentials";
import { type MintedSession, SessionManager } from "./sessionManager";
import { appTokenHash } from "./tokenHash";

export const SESSION_DEFAULTS = {
  adminPrivileges: "disableentitlement",
  expirySeconds: 86_400,
} as const;

export interface SessionSourceDeps {
  partnerId: number;
  sessions: SessionService;
  wire: PlatformWire;
  now?: () => number;
}

export function createSessionManager(auth: ParsedAuth, deps: SessionSourceDeps): SessionManager {
  const now = deps.now ?? Date.now;
  const end = (ks: string, options: CallOptions): Promise<void> => deps.sessions.end(ks, options);
  if (auth.kind === "ks") {
    const manager = new SessionManager({ mint: () => Promise.resolve({ ks: auth.ks }), end, renewable: false, now });
    manager.seed({ ks: auth.ks });
    return manager;
  }
  const mint = auth.kind === "adminSecret" ? adminSecretMint(auth, deps, now) : appTokenMint(auth, deps, now);
  return new SessionManager({ mint, end, renewable: true, now });
}

type Mint = (options: CallOptions) => Promise<MintedSession>;

/** session.start with the admin secret. */
function adminSecretMint(auth: Extract<ParsedAuth, { kind: "adminSecret" }>, deps: SessionSourceDeps, now: () => number): Mint {
  registerSecret(auth.adminSecret);
  const expiry = auth.sessionExpiry ?? SESSION_DEFAULTS.expirySeconds;
  return async function mintAdminSession(options) {
    registerSecret(auth.adminSecret); // in use again: kept among the newest of the bounded registry
    const startedAt = now();
    const ks = await deps.sessions.start(
      {
        secret: auth.adminSecret,
        partnerId: deps.partnerId,
        type: SessionType.ADMIN,
        userId: auth.userId,
        expiry,
        privileges: auth.privileges ?? SESSION_DEFAULTS.adminPrivileges,
      },
      options,
    );
    return { ks, expiresAt: startedAt + expiry * 1000 };
  };
}

/** A widget session, then appToken.startSession with the token's hash (its type found when not given). */
function appTokenMint(auth: Extract<ParsedAuth, { kind: "appToken" }>, deps: SessionSourceDeps, now: () => number): Mint {
  registerSecret(auth.appToken);
  const hashTypes = createHashTypeFinder(auth.hashType, auth.appToken);
  return async function mintAppTokenSession(options) {
    registerSecret(auth.appToken); // in use again: kept among the newest of the bounded registry
    const startedAt = now();
    const widget = await deps.sessions.startWidgetSession(`_${deps.partnerId}`, undefined, options);
    registerSecret(widget.ks);
    const session = await hashTypes.find((hashType) =>
      startAppTokenSession(
        deps.wire,
        {
          id: auth.appTokenId,
          tokenHash: appTokenHash(hashType, widget.ks, auth.appToken.toLowerCase()),
          userId: auth.userId,
          expiry: auth.sessionExpiry,
        },
        widget.ks,
        options,
      ),
    );
    // The server caps the lifetime by the token's duration; it reports the expiry as unix seconds.
    const expiresAt = session.expiry ? session.expiry * 1000 : auth.sessionExpiry ? startedAt + auth.sessionExpiry * 1000 : undefined;
    return { ks: session.ks, expiresAt };
  };
}
