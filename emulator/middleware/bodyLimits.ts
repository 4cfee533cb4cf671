/**
 * How large a request body each of the emulator's routes reads, and the middleware that enforces it. The check runs
 * while the body streams in (hono's bodyLimit: a declared Content-Length over the cap is refused before a byte is
 * read; a chunked body is counted as it arrives and refused once it passes the cap, never buffered whole), and the
 * refusal is 413 with a message naming the cap.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HttpError } from "../shared/errors";

const KiB = 1024;
const MiB = 1024 * KiB;

/** The largest audio file say-audio takes (the avatar API's own rule, checked on the decoded part). */
export const MAX_AUDIO_BYTES = 10 * MiB;

/** Body caps in bytes, by route family. */
export const MAX_BODY_BYTES = {
  /**
   * api_v3 calls, multirequest included: an email template's body may be 100,000 characters, up to 900 kB once
   * form-encoded, and a multirequest may carry several; 4 MiB leaves room for that. `maxApiBodyBytes` changes it.
   */
  apiV3: 4 * MiB,
  /** The control API (/_emulator): small JSON documents (a fault config, an event's object). */
  control: 1 * MiB,
  /** The avatar APIs' JSON calls (create, init-client, say-text, the video API's lists). */
  avatarJson: 1 * MiB,
  /** say-audio: one MP3 part of at most MAX_AUDIO_BYTES plus the multipart envelope and its two small fields. */
  sayAudio: MAX_AUDIO_BYTES + 64 * KiB,
  /** A WHEP offer: one SDP document (a few kB in practice). */
  whepOffer: 64 * KiB,
} as const;

/** The message of every 413: what was refused and the cap. */
export function bodyTooLargeMessage(maxBytes: number, what: string): string {
  return `request body larger than ${maxBytes} bytes, the emulator's limit for ${what}`;
}

/**
 * Refuses bodies over `maxBytes` with 413 (an HttpError, answered `{error}` by the app's error handler), or with
 * the error `toError` makes (the avatar routers answer their own error shape).
 */
export function limitBody(maxBytes: number, what: string, toError: (message: string) => Error = (m) => new HttpError(413, m)): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw toError(bodyTooLargeMessage(maxBytes, what));
    },
  });
}
