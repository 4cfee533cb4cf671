/**
 * The one request function of the avatar backend clients: builds the call for the sdk transport (which owns
 * timeouts, retry and telemetry), maps non-2xx statuses to AvatarApiError and parses 2xx with the contract.
 */
import type { z } from "zod";
import { AVATAR_OPERATIONS, AvatarErrorBody, type AvatarOperation } from "../../contract/avatar";
import { describeIssues } from "../../contract/issues";
import { SvcResponseError } from "../core/errors";
import type { CallOptions, Transport } from "../transport";
import { avatarErrorFromStatus } from "./errors";

export interface AvatarCall<T extends z.ZodType> {
  op: AvatarOperation;
  url: string;
  authorization: string;
  /** JSON body (default `{}`), or a ready multipart body with its content type. */
  json?: unknown;
  multipart?: { body: Buffer; contentType: string };
  method?: "GET" | "POST";
  schema: T;
}

export async function avatarRequest<T extends z.ZodType>(transport: Transport, call: AvatarCall<T>, options: CallOptions = {}): Promise<z.infer<T>> {
  const headers: Record<string, string> = { Authorization: call.authorization, Accept: "application/json" };
  let body: string | Buffer | undefined;
  if (call.multipart) {
    headers["Content-Type"] = call.multipart.contentType;
    body = call.multipart.body;
  } else if (call.method !== "GET") {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(call.json ?? {});
  }
  const response = await transport.request({
    method: call.method ?? "POST",
    url: call.url,
    headers,
    body,
    // Retry safety per endpoint: the contract's table, shared with the browser library.
    idempotent: AVATAR_OPERATIONS[call.op].repeatSafe,
    service: "avatar",
    action: call.op,
    ...options,
  });
  const json = parseJson(response.body);
  const init = { requestId: response.requestId };
  if (response.status < 200 || response.status >= 300) {
    const failure = AvatarErrorBody.safeParse(json);
    throw avatarErrorFromStatus(call.op, response.status, failure.success ? failure.data : undefined, init);
  }
  const parsed = call.schema.safeParse(json);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues, { input: json });
    throw new SvcResponseError(`avatar ${call.op}: unexpected response (${issues})`, { ...init, status: response.status, service: "avatar", action: call.op });
  }
  return parsed.data;
}

/** multipart/form-data with the platform's own encoder (no dependency): fields plus one file part. */
export async function encodeMultipart(
  fields: Record<string, string>,
  file: { name: string; filename: string; type: string; data: Uint8Array },
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set(file.name, new Blob([file.data as BlobPart], { type: file.type }), file.filename);
  const encoded = new Request("http://multipart.invalid/", { method: "POST", body: form });
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type") ?? "multipart/form-data" };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
