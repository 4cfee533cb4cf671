/** One HTTP exchange over undici: send, read the whole body (bounded), return status/headers/text. */
import type { Dispatcher } from "undici";
import { request } from "./undiciParts";

export interface AttemptResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface AttemptInput {
  dispatcher: Dispatcher;
  url: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string> | undefined;
  body: string | Buffer | undefined;
  signal: AbortSignal;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxResponseBytes: number;
}

export class ResponseTooLargeError extends Error {
  readonly code = "RESPONSE_TOO_LARGE";
}

export async function sendOnce(input: AttemptInput): Promise<AttemptResult> {
  const response = await request(input.url, {
    dispatcher: input.dispatcher,
    method: input.method,
    headers: input.headers,
    body: input.body,
    signal: input.signal,
    headersTimeout: input.headersTimeoutMs,
    bodyTimeout: input.bodyTimeoutMs,
  });
  const declared = Number(response.headers["content-length"] ?? 0);
  if (declared > input.maxResponseBytes) {
    response.body.destroy();
    throw new ResponseTooLargeError(`response of ${declared} bytes exceeds ${input.maxResponseBytes}`);
  }
  // Small bodies (the usual api_v3 answer) are read in one go; the size cap still holds for streamed ones.
  if (declared > 0) {
    return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > input.maxResponseBytes) {
      response.body.destroy();
      throw new ResponseTooLargeError(`response exceeds ${input.maxResponseBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") };
}

/** The low-level code of a failure (undici codes, errno codes, or the first of an AggregateError). */
export function errnoOf(error: unknown): string {
  const e = error as { code?: unknown; cause?: { code?: unknown }; errors?: Array<{ code?: unknown }> };
  for (const candidate of [e?.code, e?.cause?.code, e?.errors?.[0]?.code]) {
    if (typeof candidate === "string" && candidate) return candidate;
  }
  return "UNKNOWN";
}
