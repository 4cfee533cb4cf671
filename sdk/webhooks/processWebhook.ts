/**
 * The receiver's decision, shared by the node:http handler and the Express middleware:
 * 413 body too large, 401 bad or missing signature (checked on the raw bytes, with an accepted algorithm),
 * 400 not a notification, 200 for a job id already processed within the replay window (the callback is not called
 * again), 409 while the same job is still being processed here, 200 after the callback resolved, 500 when it threw
 * (no details leave the process; the job id is released so the platform's next attempt is processed).
 */
import { Notification } from "../../contract/platform";
import { SIGNATURE_ALGORITHM_HEADER, SIGNATURE_ALGORITHMS, SIGNATURE_HEADER, type SignatureAlgorithm } from "../../contract/webhooks";
import { MemoryReplayStore, REPLAY_DEFAULTS, type ReplayStore } from "./replayStore";
import { verifySignature } from "./verifySignature";

export interface ReplayOptions {
  /** How long a processed job id is remembered (default 24 h). */
  windowMs?: number;
  /** Where job ids are remembered (default: in memory, this process, at most 100,000 ids). */
  store?: ReplayStore;
}

export interface WebhookOptions {
  /** The template's signSecret. */
  secret: string;
  /** Largest accepted body; default 1 MiB. A positive integer. */
  maxBodyBytes?: number;
  /** The signature algorithms accepted (default all the platform uses: sha1, sha256, sha512). Pin to ["sha256"] or ["sha512"]. */
  algorithms?: readonly SignatureAlgorithm[];
  /** Replay protection by `eventNotificationJobId` (on by default, in memory); `false` turns it off. */
  replay?: ReplayOptions | false;
  /** Called with each verified notification; the sender gets 200 once it resolves. */
  onEvent: (event: Notification, context: { rawBody: Buffer }) => unknown | Promise<unknown>;
  /** Told about callback failures (the sender only sees a bare 500). */
  onError?: (error: unknown) => void;
}

export const WEBHOOK_DEFAULTS = { maxBodyBytes: 1024 * 1024, replayWindowMs: REPLAY_DEFAULTS.windowMs } as const;

export interface WebhookReply {
  status: number;
  body: { ok: true; duplicate?: true } | { error: string };
}

const KNOWN_ALGORITHMS: readonly string[] = Object.values(SIGNATURE_ALGORITHMS).map((a) => a.header);

/** Per options object: the checked settings, the default replay store and the jobs in progress in this process. */
interface Receiver {
  maxBodyBytes: number;
  algorithms: readonly SignatureAlgorithm[] | undefined;
  replay: { store: ReplayStore; windowMs: number } | undefined;
  inProgress: Set<string>;
}
const receivers = new WeakMap<WebhookOptions, Receiver>();

function positiveInteger(value: unknown, name: string): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`webhook handler: option "${name}" must be a positive integer (got ${typeof value === "number" ? value : typeof value})`);
  }
}

/** Checks the options (a TypeError naming the option) and returns the receiver's state; called once per options object. */
export function checkWebhookOptions(options: WebhookOptions): Receiver {
  const known = options && typeof options === "object" ? receivers.get(options) : undefined;
  if (known) return known;
  if (!options || typeof options.secret !== "string" || options.secret === "") {
    throw new TypeError('webhook handler: option "secret" must be the non-empty signing secret');
  }
  if (typeof options.onEvent !== "function") throw new TypeError('webhook handler: option "onEvent" must be a function');
  if (options.onError !== undefined && typeof options.onError !== "function") throw new TypeError('webhook handler: option "onError" must be a function');
  if (options.maxBodyBytes !== undefined) positiveInteger(options.maxBodyBytes, "maxBodyBytes");
  if (options.algorithms !== undefined) {
    const list = options.algorithms as unknown;
    if (!Array.isArray(list) || list.length === 0 || list.some((a) => !KNOWN_ALGORITHMS.includes(a))) {
      throw new TypeError(`webhook handler: option "algorithms" must be a non-empty list of ${KNOWN_ALGORITHMS.join(", ")}`);
    }
  }
  let replay: Receiver["replay"];
  if (options.replay !== false) {
    const given = options.replay ?? {};
    if (typeof given !== "object" || given === null) throw new TypeError('webhook handler: option "replay" must be an object or false');
    if (given.windowMs !== undefined) positiveInteger(given.windowMs, "replay.windowMs");
    if (given.store !== undefined && (typeof given.store?.claim !== "function" || typeof given.store?.release !== "function")) {
      throw new TypeError('webhook handler: option "replay.store" must have claim(key, ttlMs) and release(key)');
    }
    replay = { store: given.store ?? new MemoryReplayStore(), windowMs: given.windowMs ?? REPLAY_DEFAULTS.windowMs };
  }
  const receiver: Receiver = {
    maxBodyBytes: options.maxBodyBytes ?? WEBHOOK_DEFAULTS.maxBodyBytes,
    algorithms: options.algorithms,
    replay,
    inProgress: new Set(),
  };
  receivers.set(options, receiver);
  return receiver;
}

/** The two signature headers of a delivery: X-SVC-SIGNATURE and X-SVC-HASH-ALGO (absent means SHA256). */
export interface SignatureHeaders {
  signature: string | undefined;
  algorithm: string | undefined;
}

export function signatureHeadersOf(headers: Record<string, string | string[] | undefined>): SignatureHeaders {
  const first = (name: string): string | undefined => {
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  return { signature: first(SIGNATURE_HEADER), algorithm: first(SIGNATURE_ALGORITHM_HEADER) };
}

/**
 * `signature` is the X-SVC-SIGNATURE value alone (its algorithm then follows from its length: sha1, sha256 or
 * sha512) or both signature headers, as signatureHeadersOf reads them from a request. Pass the same options object
 * on every call: the default replay store lives with it.
 */
export async function processWebhook(rawBody: Buffer, signature: string | SignatureHeaders | undefined, options: WebhookOptions): Promise<WebhookReply> {
  const receiver = checkWebhookOptions(options);
  if (!Buffer.isBuffer(rawBody)) throw new TypeError("processWebhook: rawBody must be a Buffer of the exact bytes received");
  if (rawBody.length > receiver.maxBodyBytes) return { status: 413, body: { error: "payload too large" } };
  const given = signature !== null && typeof signature === "object" ? signature : { signature, algorithm: undefined };
  const accept = receiver.algorithms ? { accept: receiver.algorithms } : undefined;
  if (!verifySignature(rawBody, given.signature, options.secret, given.algorithm, accept)) return { status: 401, body: { error: "invalid signature" } };
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString("utf8"));
  } catch {
    return { status: 400, body: { error: "body is not JSON" } };
  }
  const parsed = Notification.safeParse(json);
  if (!parsed.success) return { status: 400, body: { error: "body is not a notification" } };
  const key = String(parsed.data.eventNotificationJobId);
  if (receiver.replay) {
    if (receiver.inProgress.has(key)) return { status: 409, body: { error: "this delivery is being processed" } };
    const fresh = await receiver.replay.store.claim(key, receiver.replay.windowMs);
    if (!fresh) return { status: 200, body: { ok: true, duplicate: true } };
  }
  receiver.inProgress.add(key);
  try {
    await options.onEvent(parsed.data, { rawBody });
    return { status: 200, body: { ok: true } };
  } catch (error) {
    if (receiver.replay) await Promise.resolve(receiver.replay.store.release(key)).catch(() => undefined);
    try {
      options.onError?.(error);
    } catch {
      // The reporter must not change the answer.
    }
    return { status: 500, body: { error: "internal error" } };
  } finally {
    receiver.inProgress.delete(key);
  }
}
