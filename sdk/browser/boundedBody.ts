/**
 * Reads a fetch Response's body as text, at most `maxBytes` (as the Node transport caps its responses): a
 * Content-Length above the cap, or a stream that passes it, stops reading and throws BodyTooLargeError. A body
 * that is not a stream (some fetch polyfills) is read with text() and then measured.
 */

/** The avatar APIs answer small JSON and SDP documents; 1 MiB is far above any of them. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`response body larger than ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

export async function readBoundedText(response: Response, maxBytes = MAX_RESPONSE_BYTES): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  const body = response.body;
  if (!body || typeof body.getReader !== "function") {
    const text = await response.text();
    if (new TextEncoder().encode(text).length > maxBytes) throw new BodyTooLargeError(maxBytes);
    return text;
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
