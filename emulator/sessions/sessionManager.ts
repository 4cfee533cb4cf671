/**
 * Issues and verifies session strings against the accounts in the store. verify() is the one place where a
 * ks is judged: garbled or badly signed, unknown partner, expired and ended sessions all give INVALID_KS with
 * the real service's ERR_CODE/ERR_DESC args (the ks itself never appears: KSID is a fingerprint).
 */
import type { SessionType } from "../../contract/platform";
import { ApiError } from "../shared/errors";
import type { Store } from "../store/store";
import { decodeKs, encodeKs, ksFingerprint, ksPartnerId, type KsFields } from "./ks";

export interface SessionInfo {
  partnerId: number;
  type: SessionType;
  userId: string;
  /** Unix seconds. */
  expiry: number;
  privileges: Record<string, string>;
  /** sha256 of the ks string: names the session without revealing it. */
  fingerprint: string;
  /** A widget session may only be used for appToken.startSession. */
  isWidget: boolean;
  /** Set when the session was minted by appToken.startSession. */
  appTokenId?: string;
}

/** The real service's ks validation codes (ERR_CODE / ERR_DESC args of INVALID_KS). */
const KS_ERRORS = {
  INVALID_STR: -1,
  INVALID_PARTNER: -2,
  EXPIRED: -5,
  LOGOUT: -6,
} as const;

function invalidKs(ks: string, reason: keyof typeof KS_ERRORS): ApiError {
  const ksid = ksFingerprint(ks).slice(0, 16);
  return new ApiError("INVALID_KS", `Invalid KS "${ksid}" Error "${KS_ERRORS[reason]},${reason}"`, {
    KSID: ksid,
    ERR_CODE: KS_ERRORS[reason],
    ERR_DESC: reason,
  });
}

export class SessionManager {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** Builds a ks for an existing account; the caller has already authorised the request. */
  issue(fields: KsFields): string {
    const partner = this.store.getPartner(fields.partnerId);
    if (!partner) throw new Error(`unknown partner ${fields.partnerId}`);
    return encodeKs(partner.adminSecret, fields);
  }

  verify(ks: string): SessionInfo {
    const partnerId = ksPartnerId(ks);
    if (partnerId === undefined) throw invalidKs(ks, "INVALID_STR");
    const partner = this.store.getPartner(partnerId);
    if (!partner) throw invalidKs(ks, "INVALID_PARTNER");
    const fields = decodeKs(ks, partner.adminSecret);
    if (!fields) throw invalidKs(ks, "INVALID_STR");
    if (fields.expiry * 1000 <= this.now()) throw invalidKs(ks, "EXPIRED");
    const fingerprint = ksFingerprint(ks);
    if (this.store.isSessionEnded(fingerprint)) throw invalidKs(ks, "LOGOUT");
    const appTokenId = fields.privileges.apptoken;
    return {
      partnerId,
      type: fields.type,
      userId: fields.userId,
      expiry: fields.expiry,
      privileges: fields.privileges,
      fingerprint,
      isWidget: "widget" in fields.privileges,
      ...(appTokenId ? { appTokenId } : {}),
    };
  }

  /** Ends a session for good (durable: a restart keeps it ended). */
  end(info: SessionInfo): void {
    this.store.endSession(info.fingerprint, info.expiry);
  }
}
