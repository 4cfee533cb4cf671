/**
 * The receiver's decision, shared by the node:http handler and the Express middleware:
 * 413 body too large, 401 bad or missing signature (checked on the raw bytes), 400 not a notification,
 * 200 after the callback resolved, 500 when it threw (no details leave the process).
 */
import { Notification } from "../../contract/platform";
import { SIGNATURE_ALGORITHM_HEADER, SIGNATURE_HEADER } from "../../contract/webhooks";
import { verifySignature } from "./verifySignature";

export interface WebhookOptions {
  /** The template's signSecret. */
  secret: string;
  /** Largest accepted body; default 1 MiB. */
  maxBodyBytes?: number;
  /** Called with each verified notification; the sender gets 200 once it resolves. */
  onEvent: (event: Notification, context: { rawBody: Buffer }) => unknown | Promise<unknown>;
  /** Told about callback failures (the sender only sees a bare 500). */
  onError?: (error: unknown) => void;
}

export const WEBHOOK_DEFAULTS = { maxBodyBytes: 1024 * 1024 } as const;

export interface WebhookReply {
  status: number;
  body: { ok: true } | { error: string };
}

export function checkWebhookOptions(options: WebhookOptions): void {
  if (!options || typeof options.secret !== "string" || options.secret === "") {
    throw new TypeError('webhook handler: option "secret" must be the non-empty signing secret');
  }
  if (typeof options.onEvent !== "function") throw new TypeError('webhook handler: option "onEvent" must be a function');
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
 * `signature` is the X-SVC-SIGNATURE value alone (verified as SHA256) or both signature headers, as
 * signatureHeadersOf reads them from a request.
 */
export async function processWebhook(rawBody: Buffer, signature: string | SignatureHeaders | undefined, options: WebhookOptions): Promise<WebhookReply> {
  if (rawBody.length > (options.maxBodyBytes ?? WEBHOOK_DEFAULTS.maxBodyBytes)) return { status: 413, body: { error: "payload too large" } };
  const given = typeof signature === "object" ? signature : { signature, algorithm: undefined };
  if (!verifySignature(rawBody, given.signature, options.secret, given.algorithm)) return { status: 401, body: { error: "invalid signature" } };
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString("utf8"));
  } catch {
    return { status: 400, body: { error: "body is not JSON" } };
  }
  const parsed = Notification.safeParse(json);
  if (!parsed.success) return { status: 400, body: { error: "body is not a notification" } };
  try {
    await options.onEvent(parsed.data, { rawBody });
    return { status: 200, body: { ok: true } };
  } catch (error) {
    try {
      options.onError?.(error);
    } catch {
      // The reporter must not change the answer.
    }
    return { status: 500, body: { error: "internal error" } };
  }
}
