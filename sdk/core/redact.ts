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

/**
 * The longest text redact() returns, in characters, the note of what was cut included. A platform's answer may be
 * megabytes (a response is read up to 32 MiB) and an error message quotes it: only its start is kept, so a message,
 * an event and a log line stay readable and redaction costs the same for any answer.
 */
export const MAX_REDACTED_TEXT = 8192;

/**
 * How far past the cut the text is still redacted, so that a secret straddling the cut is recognised whole (and
 * replaced) before the kept part is cut from the redacted text.
 */
const REDACTION_LOOKAHEAD = 4096;

/**
 * The most exact secrets kept. Past it the one registered (or found in a text) longest ago is dropped first: a
 * process that meets secrets for ever (a plugin serving resource after resource, sessions renewed for days) keeps a
 * bounded set, and the secrets in use stay, since the sdk registers a session string as it starts and a resource's
 * secret inputs on every operation that sends them. A dropped one is still caught by the patterns below when it has
 * a secret's shape (a ks, a JWT, 32+ hex digits, a `secret=` parameter).
 */
export const MAX_KNOWN_SECRETS = 4096;

/** Exact secret values known to this process, oldest first (a Map keeps insertion order); never exported. */
const knownSecrets = new Map<string, true>();

/** Secrets shorter than this are not registered: redacting "1" everywhere would destroy messages. */
const MIN_SECRET_LENGTH = 6;

/** Up to this many known secrets, each is looked for in turn; past it, by the index below. */
const DIRECT_SEARCH_LIMIT = 32;

/**
 * The known secrets by (a hash of) their last MIN_SECRET_LENGTH characters, built when first needed and kept up to
 * date after: one pass over the text finds them all, at a cost that does not grow with their number (a secret's end
 * is random; its start is often shared, as every ks of one partner starts alike).
 */
let secretsByEnding: Map<number, string[]> | undefined;

/**
 * Patterns that catch secrets nobody registered. Each one runs in time linear in the text: no nested or
 * overlapping quantifiers, every repetition bounded by a character the next part of the pattern cannot start with
 * (test/sdk/redactionCost.test.ts measures it). A JWT is found without a pattern (redactJwts).
 */
const PATTERNS: RegExp[] = [
  // v2 session strings start with base64url("v2|") = "djJ8"; v1 ks strings are long base64.
  /djJ8[A-Za-z0-9_\-+/=]{8,}/g,
  // form or query parameters that carry secrets, wherever a message quotes them: after a start, a separator, white
  // space, a quote or a bracket (`"ks=…"`, `(secret=…)`, `[token=…]`, `,ks=…`).
  /((?:^|[&?\s"'`([{<,;])(?:\d+:)?(?:\w+(?:%5B|\[))?(?:ks|secret|token|tokenHash|signSecret|adminSecret)(?:%5D|\])?=)[^&\s"']*/gi,
  // JSON properties that carry secrets.
  /("(?:ks|secret|token|tokenHash|signSecret|adminSecret|appToken|authorization)"\s*:\s*")[^"]*/gi,
  // Authorization header values (the scheme word, when there is one, is followed by white space: one \s run only).
  /\b((?:authorization|x-svc-signature)\s*[:=]\s*)(?:(?:KS|Bearer|Basic)\s+)?[^\s,;"']+/gi,
  // app token values and other hex secrets (32+ hex digits: MD5 and longer hashes).
  /\b[0-9a-fA-F]{32,}\b/g,
];

/** Runs of the characters a JWT is written in (base64url and its dots): each character is in one run at most. */
const JWT_ALPHABET_RUN = /[A-Za-z0-9_.-]+/g;

/** Characters that never occur inside a secret these rules know (ks, token, JWT, hex, base64): a cut may stop there. */
const SEPARATORS = new Set([" ", "\t", "\n", "\r", '"', "'", "<", ">", ",", ";", "&", "(", ")", "{", "}", "[", "]"]);

/**
 * Mark a value as secret (values are compared exactly). Registering it again makes it the newest: of
 * MAX_KNOWN_SECRETS, the one unseen longest is dropped first.
 */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH) return;
  if (knownSecrets.delete(value)) {
    knownSecrets.set(value, true); // already indexed: only its age changes
    return;
  }
  knownSecrets.set(value, true);
  if (secretsByEnding !== undefined) addToIndex(secretsByEnding, value);
  if (knownSecrets.size > MAX_KNOWN_SECRETS) {
    const oldest = knownSecrets.keys().next().value as string;
    knownSecrets.delete(oldest);
    if (secretsByEnding !== undefined) removeFromIndex(secretsByEnding, oldest);
  }
}

/** How many exact secrets are known (for the tests of the bound). */
export function knownSecretCount(): number {
  return knownSecrets.size;
}

/**
 * Return `text` without the userinfo of its URLs, and with every known secret and secret-looking value replaced by
 * [REDACTED]; a text longer than MAX_REDACTED_TEXT is cut, its start kept, with a note of its full length.
 */
export function redact(text: string): string {
  if (text.length <= MAX_REDACTED_TEXT) return redactWhole(text);
  const note = ` …[cut: ${text.length} characters in all]`;
  // Redact past the cut, then cut the redacted text: a secret across the cut was replaced whole.
  const redacted = redactWhole(text.slice(0, MAX_REDACTED_TEXT + REDACTION_LOOKAHEAD));
  let end = MAX_REDACTED_TEXT - note.length;
  // The cut falls inside a word: drop the word's start too (a secret longer than the look-ahead keeps no part).
  if (!SEPARATORS.has(redacted[end] ?? " ")) while (end > 0 && !SEPARATORS.has(redacted[end - 1] as string)) end--;
  return redacted.slice(0, end) + note;
}

/** The whole of `text` redacted, in time linear in its length (exported for the tests that measure it). */
export function redactWhole(text: string): string {
  let out = replaceKnownSecrets(stripUserinfo(text));
  out = out.replace(JWT_ALPHABET_RUN, redactJwts);
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match: string, prefix?: unknown) => (typeof prefix === "string" && match.startsWith(prefix) ? prefix + REDACTED : REDACTED));
  }
  return out;
}

/** `text` with every occurrence of a known secret replaced (overlapping ones as one), each found one made the newest. */
function replaceKnownSecrets(text: string): string {
  if (knownSecrets.size === 0 || text.length < MIN_SECRET_LENGTH) return text;
  const found = knownSecrets.size <= DIRECT_SEARCH_LIMIT ? searchEach(text) : searchByEnding(text);
  if (found.length === 0) return text;
  found.sort((a, b) => a.start - b.start);
  let out = "";
  let kept = 0;
  let end = -1;
  for (const hit of found) {
    if (hit.start > end) {
      if (end >= 0) out += REDACTED;
      out += text.slice(kept, hit.start);
    }
    end = Math.max(end, hit.end);
    kept = end;
  }
  out += REDACTED + text.slice(kept);
  // A secret met in a text is in use: it is kept over those unseen for longer.
  for (const hit of found) registerSecret(hit.secret);
  return out;
}

interface Hit {
  start: number;
  end: number;
  secret: string;
}

/** Few secrets: each one looked for in turn (the engine's string search is faster than any index for a handful). */
function searchEach(text: string): Hit[] {
  const found: Hit[] = [];
  for (const secret of knownSecrets.keys()) {
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) found.push({ start: at, end: at + secret.length, secret });
  }
  return found;
}

/** Many secrets: one pass over `text`, the hash of each position's last MIN_SECRET_LENGTH characters looked up. */
function searchByEnding(text: string): Hit[] {
  secretsByEnding ??= indexByEnding();
  const found: Hit[] = [];
  let hash = 0;
  for (let end = 1; end <= text.length; end++) {
    hash = rollHash(hash, text.charCodeAt(end - 1), end > MIN_SECRET_LENGTH ? text.charCodeAt(end - 1 - MIN_SECRET_LENGTH) : undefined);
    if (end < MIN_SECRET_LENGTH) continue;
    const candidates = secretsByEnding.get(hash);
    if (candidates === undefined) continue;
    for (const secret of candidates) {
      const start = end - secret.length;
      if (start >= 0 && text.startsWith(secret, start)) found.push({ start, end, secret });
    }
  }
  return found;
}

/** A polynomial hash of the last MIN_SECRET_LENGTH characters, rolled on by one character (a small integer: a fast Map key). */
const HASH_BASE = 31;
const HASH_DROP = HASH_BASE ** MIN_SECRET_LENGTH;
function rollHash(hash: number, added: number, dropped: number | undefined): number {
  const rolled = Math.imul(hash, HASH_BASE) + added - (dropped === undefined ? 0 : Math.imul(dropped, HASH_DROP));
  return rolled | 0;
}

function endingHash(secret: string): number {
  let hash = 0;
  for (let i = secret.length - MIN_SECRET_LENGTH; i < secret.length; i++) hash = rollHash(hash, secret.charCodeAt(i), undefined);
  return hash;
}

/** Built from the known secrets when first needed; kept up to date as they are registered and dropped after that. */
function indexByEnding(): Map<number, string[]> {
  const index = new Map<number, string[]>();
  for (const secret of knownSecrets.keys()) addToIndex(index, secret);
  return index;
}

function addToIndex(index: Map<number, string[]>, secret: string): void {
  const ending = endingHash(secret);
  const bucket = index.get(ending);
  if (bucket === undefined) index.set(ending, [secret]);
  else bucket.push(secret);
}

function removeFromIndex(index: Map<number, string[]>, secret: string): void {
  const ending = endingHash(secret);
  const rest = index.get(ending)?.filter((known) => known !== secret) ?? [];
  if (rest.length === 0) index.delete(ending);
  else index.set(ending, rest);
}

/**
 * A JWT in a run of base64url characters and dots: `eyJ` (a JSON header), then at least one character, a dot, at
 * least one character, a dot. Everything from its `eyJ` to the end of the run is replaced. Split at the dots rather
 * than matched by a pattern: a pattern that tries each `eyJ` and scans to the run's end is quadratic.
 */
function redactJwts(run: string): string {
  const segments = run.split(".");
  let offset = 0;
  for (let index = 0; index + 2 < segments.length; index++) {
    const segment = segments[index] as string;
    const header = segment.indexOf("eyJ");
    if (header >= 0 && segment.length > header + 3 && (segments[index + 1] as string).length > 0) return run.slice(0, offset + header) + REDACTED;
    offset += segment.length + 1;
  }
  return run;
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
