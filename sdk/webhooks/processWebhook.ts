/**
 * The receiver's decision, shared by the node:http handler and the Express middleware:
 * 413 body too large, 401 bad or missing signature (checked on the raw bytes, with an accepted algorithm),
 * 400 not a notification (strict UTF-8 JSON of the whole body), then the replay store's claim decides: 200 for a
 * job id already processed within the replay window (the callback is not called again), 409 while another attempt
 * holds the same job, else the callback runs: 200 once it resolved, 500 when it threw (no details leave the process;
 * the claim is released so the platform's next attempt is processed). A store that fails is a 500 too.
 */
import { randomUUID } from "node:crypto";
import { Notification } from "../../contract/platform";
import { SIGNATURE_ALGORITHM_HEADER, SIGNATURE_ALGORITHMS, SIGNATURE_HEADER, type SignatureAlgorithm } from "../../contract/webhooks";
import { CLAIM_RESULTS, MemoryReplayStore, REPLAY_DEFAULTS, type ClaimResult, type ReplayStore } from "./replayStore";
import { RECOMMENDED_ALGORITHMS, verifySignature } from "./verifySignature";

export interface ReplayOptions {
  /** How long a processed job id is remembered (default 24 h). */
  windowMs?: number;
  /** How long an attempt holds a job before its claim lapses (default 60 s; see REPLAY_DEFAULTS.leaseMs). */
  leaseMs?: number;
  /** Where job ids are remembered (default: in memory, this process, at most 100,000 ids). */
  store?: ReplayStore;
}

/** Where a failure reported to onError happened. */
export type WebhookFailureStage = "onEvent" | "replay.claim" | "replay.complete" | "replay.release" | "request";

export interface WebhookOptions {
  /** The template's signSecret. */
  secret: string;
  /** Largest accepted body; default 1 MiB. A positive integer. */
  maxBodyBytes?: number;
  /**
   * The signature algorithms accepted; default RECOMMENDED_ALGORITHMS (sha256, sha512). Pin the one your template
   * uses (["sha256"]); a SHA1 template (secureHashingAlgo 1) needs ["sha1"] listed explicitly.
   */
  algorithms?: readonly SignatureAlgorithm[];
  /** Replay protection by `eventNotificationJobId` (on by default, in memory); `false` turns it off. */
  replay?: ReplayOptions | false;
  /** Called with each verified notification; the sender gets 200 once it resolves. */
  onEvent: (event: Notification, context: { rawBody: Buffer }) => unknown | Promise<unknown>;
  /** Told about callback and replay store failures (the sender only sees a bare 500). */
  onError?: (error: unknown, context: { stage: WebhookFailureStage }) => void;
}

export const WEBHOOK_DEFAULTS = { maxBodyBytes: 1024 * 1024, replayWindowMs: REPLAY_DEFAULTS.windowMs } as const;

export interface WebhookReply {
  status: number;
  body: { ok: true; duplicate?: true } | { error: string };
}

const KNOWN_ALGORITHMS: readonly string[] = Object.values(SIGNATURE_ALGORITHMS).map((a) => a.header);

/** Per options object: the checked settings and the default replay store. */
interface Receiver {
  maxBodyBytes: number;
  algorithms: readonly SignatureAlgorithm[];
  replay: { store: ReplayStore; windowMs: number; leaseMs: number } | undefined;
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
    if (given.leaseMs !== undefined) positiveInteger(given.leaseMs, "replay.leaseMs");
    const store = given.store as Partial<ReplayStore> | undefined;
    if (store !== undefined && (typeof store?.claim !== "function" || typeof store.complete !== "function" || typeof store.release !== "function")) {
      throw new TypeError(
        'webhook handler: option "replay.store" must have claim(key, leaseMs, owner), complete(key, ttlMs, owner) and release(key, owner) (see ReplayStore)',
      );
    }
    replay = {
      store: given.store ?? new MemoryReplayStore(),
      windowMs: given.windowMs ?? REPLAY_DEFAULTS.windowMs,
      leaseMs: given.leaseMs ?? REPLAY_DEFAULTS.leaseMs,
    };
  }
  const receiver: Receiver = {
    maxBodyBytes: options.maxBodyBytes ?? WEBHOOK_DEFAULTS.maxBodyBytes,
    algorithms: options.algorithms ? [...options.algorithms] : RECOMMENDED_ALGORITHMS,
    replay,
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
  if (!verifySignature(rawBody, given.signature, options.secret, given.algorithm, { accept: receiver.algorithms })) {
    return { status: 401, body: { error: "invalid signature" } };
  }
  const json = parseStrictly(rawBody);
  if (json === NOT_JSON) return { status: 400, body: { error: "body is not JSON" } };
  const parsed = Notification.safeParse(json);
  if (!parsed.success) return { status: 400, body: { error: "body is not a notification" } };
  const replay = receiver.replay;
  if (!replay) return run(parsed.data, rawBody, options);

  const key = String(parsed.data.eventNotificationJobId);
  // This attempt's name for its claim: only it may complete or release the claim (see ReplayStore).
  const owner = randomUUID();
  let claim: ClaimResult;
  try {
    // The claim alone decides (no check of our own before it): with an async store, anything read before the
    // await could be stale by the time the store answers.
    claim = await replay.store.claim(key, replay.leaseMs, owner);
    if (!CLAIM_RESULTS.includes(claim)) throw new TypeError(`replay store: claim must return one of ${CLAIM_RESULTS.join(", ")}`);
  } catch (error) {
    report(options, error, "replay.claim");
    return INTERNAL_ERROR;
  }
  if (claim === "duplicate") return { status: 200, body: { ok: true, duplicate: true } };
  if (claim === "in-progress") return { status: 409, body: { error: "this delivery is being processed" } };

  const reply = await run(parsed.data, rawBody, options);
  if (reply.status === 200) {
    // The event was handled, so the sender is told 200 even if the store cannot record it (the error is reported;
    // the claim then lapses after leaseMs, and a later replay would be processed again).
    await settle(options, "replay.complete", () => replay.store.complete(key, replay.windowMs, owner));
  } else {
    await settle(options, "replay.release", () => replay.store.release(key, owner));
  }
  return reply;
}

const INTERNAL_ERROR: WebhookReply = { status: 500, body: { error: "internal error" } };
const NOT_JSON = Symbol("not JSON");
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The whole body must be one JSON value in valid UTF-8: nothing lenient (no replacement characters, no BOM skipped,
 * no trailing bytes). A secret-prefix hash can be extended by anyone holding one signed body (see docs/sdk.md);
 * an extended body always ends in padding bytes that this refuses.
 */
function parseStrictly(rawBody: Buffer): unknown {
  try {
    return JSON.parse(UTF8.decode(rawBody));
  } catch {
    return NOT_JSON;
  }
}

async function run(event: Notification, rawBody: Buffer, options: WebhookOptions): Promise<WebhookReply> {
  try {
    await options.onEvent(event, { rawBody });
    return { status: 200, body: { ok: true } };
  } catch (error) {
    report(options, error, "onEvent");
    return INTERNAL_ERROR;
  }
}

async function settle(options: WebhookOptions, stage: WebhookFailureStage, step: () => unknown): Promise<void> {
  try {
    await step();
  } catch (error) {
    report(options, error, stage);
  }
}

/** Tells onError; the reporter must not change the answer, so its own throw is dropped. */
export function report(options: WebhookOptions, error: unknown, stage: WebhookFailureStage): void {
  try {
    options.onError?.(error, { stage });
  } catch {
    // Nothing left to tell it with.
  }
}
