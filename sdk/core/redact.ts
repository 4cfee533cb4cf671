/**
 * The one chokepoint that removes secrets (ks strings, admin secrets, app token values, JWTs,
 * Authorization values) from any text or data before it leaves the sdk as an error message,
 * an event or a log line.
 *
 * Two layers: exact values the client knows are secret (registered with `registerSecret`), and
 * patterns that catch secrets the client never saw as such (a ks echoed in a server message,
 * a token in a response body, `ks=...` in a form body). The userinfo of any URL (`user:pass@`)
 * is dropped first (contract/urlUserinfo.ts, shared with the emulator).
 */
import { stripUserinfo } from "../../contract/urlUserinfo";

const REDACTED = "[REDACTED]";

/** Exact secret values known to this process; kept in a Set, never exported. */
const knownSecrets = new Set<string>();

/** Secrets shorter than this are not registered: redacting "1" everywhere would destroy messages. */
const MIN_SECRET_LENGTH = 6;

const PATTERNS: RegExp[] = [
  // v2 session strings start with base64url("v2|") = "djJ8"; v1 ks strings are long base64.
  /djJ8[A-Za-z0-9_\-+/=]{8,}/g,
  // JWTs: three base64url segments, the first one a JSON header.
  /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  // form or query parameters that carry secrets.
  /((?:^|[&?\s])(?:\d+:)?(?:\w+(?:%5B|\[))?(?:ks|secret|token|tokenHash|signSecret|adminSecret)(?:%5D|\])?=)[^&\s"']*/gi,
  // JSON properties that carry secrets.
  /("(?:ks|secret|token|tokenHash|signSecret|adminSecret|appToken|authorization)"\s*:\s*")[^"]*/gi,
  // Authorization header values.
  /\b((?:authorization|x-svc-signature)\s*[:=]\s*)(?:KS|Bearer|Basic)?\s*[^\s,;"']+/gi,
  // app token values and other hex secrets (32+ hex digits: MD5 and longer hashes).
  /\b[0-9a-fA-F]{32,}\b/g,
];

/** Mark a value as secret for the lifetime of the process (values are compared exactly). */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value === "string" && value.length >= MIN_SECRET_LENGTH) knownSecrets.add(value);
}

/** Return `text` without the userinfo of its URLs, and with every known secret and secret-looking value replaced by [REDACTED]. */
export function redact(text: string): string {
  let out = stripUserinfo(text);
  for (const secret of knownSecrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match: string, prefix?: unknown) => (typeof prefix === "string" && match.startsWith(prefix) ? prefix + REDACTED : REDACTED));
  }
  return out;
}

const SECRET_KEYS = /^(ks|secret|token|tokenhash|signsecret|adminsecret|apptoken|authorization|password)$/i;

/** Deep copy of `value` with secret-named keys dropped and every string passed through redact(). */
export function redactValue<T>(value: T, depth = 0): T {
  if (depth > 8) return REDACTED as unknown as T;
  if (typeof value === "string") return redact(value) as unknown as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1)) as unknown as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      out[key] = SECRET_KEYS.test(key) ? REDACTED : redactValue(v, depth + 1);
    }
    return out as T;
  }
  return value;
}
