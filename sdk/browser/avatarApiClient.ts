/**
 * The browser library's calls to the avatar session API, over an injected `fetch` (no undici: it runs in
 * browsers). Create uses `Authorization: KS <apiKey>`; every later call `Authorization: Bearer <JWT>`.
 * Retry: the contract's table (AVATAR_OPERATIONS, shared with the backend client): keep-alive, interrupt and end
 * are safe to repeat and are retried on network errors, timeouts and AVATAR_RETRY_STATUSES; create, init-client and
 * say-* are never repeated after an answer or a failure that may have reached the server (fetch cannot tell).
 */
import type { z } from "zod";
import {
  AVATAR_OPERATIONS,
  AVATAR_PATHS,
  isAvatarRetryStatus,
  type AvatarOperation,
  AvatarErrorBody,
  CreateSessionResponse,
  EndReason,
  InitClientResponse,
  SayResponse,
  SessionEventsResponse,
  SuccessResponse,
  type CreateSessionRequest,
  type SayTextRequest,
} from "../../contract/avatar";
import { describeIssues } from "../../contract/issues";
import { BodyTooLargeError, readBoundedText } from "./boundedBody";
import type { Clock } from "./clock";
import { AvatarError, errorFromStatus } from "./errors";
import type { Logger } from "./logger";
import { withRetry } from "./retry";
import { AvatarErrorCode } from "./errors";
import type { RetryConfig } from "./types";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface AvatarApiClientDeps {
  baseUrl: string;
  fetch: FetchLike;
  clock: Clock;
  logger: Logger;
  retry: RetryConfig;
  timeoutMs: number;
  /** Source of the retry jitter (default Math.random). */
  random?: () => number;
}

interface CallSpec<T extends z.ZodType> {
  op: AvatarOperation;
  method?: "GET" | "POST";
  path: string;
  authorization: string;
  json?: unknown;
  form?: FormData;
  /** false: one attempt only, whatever the table says (a poll: the next poll is the retry). */
  retry?: boolean;
  schema: T;
}

export class AvatarApiClient {
  constructor(private readonly deps: AvatarApiClientDeps) {}

  create(apiKey: string, body: CreateSessionRequest): Promise<CreateSessionResponse> {
    return this.call({ op: "create", path: AVATAR_PATHS.create, authorization: `KS ${apiKey}`, json: body, schema: CreateSessionResponse });
  }

  initClient(sessionId: string, token: string): Promise<InitClientResponse> {
    return this.onSession("init-client", sessionId, token, {}, InitClientResponse);
  }

  keepAlive(sessionId: string, token: string): Promise<unknown> {
    return this.onSession("keep-alive", sessionId, token, {}, SuccessResponse);
  }

  sayText(sessionId: string, token: string, body: SayTextRequest): Promise<SayResponse> {
    return this.onSession("say-text", sessionId, token, body, SayResponse);
  }

  sayAudio(sessionId: string, token: string, audio: Blob, turnId: string, durationSeconds: number): Promise<SayResponse> {
    const form = new FormData();
    form.set("turnId", turnId);
    form.set("duration", String(durationSeconds));
    form.set("audio", audio, "audio.mp3");
    return this.call({
      op: "say-audio",
      path: AVATAR_PATHS.session(sessionId, "say-audio"),
      authorization: `Bearer ${token}`,
      form,
      schema: SayResponse,
    });
  }

  interrupt(sessionId: string, token: string): Promise<unknown> {
    return this.onSession("interrupt", sessionId, token, {}, SuccessResponse);
  }

  /** 200 ends it; 410 means it had already ended (spec). A 404 (no such session) is an error, thrown. */
  async end(sessionId: string, token: string): Promise<{ alreadyEnded: boolean; reason?: EndReason }> {
    try {
      await this.onSession("end", sessionId, token, {}, SuccessResponse);
      return { alreadyEnded: false };
    } catch (error) {
      if (statusOf(error) !== 410) throw error;
      const reason = EndReason.safeParse((error as AvatarError).details?.reason);
      return { alreadyEnded: true, ...(reason.success ? { reason: reason.data } : {}) };
    }
  }

  /** One poll of the session's speaking events (no retry: the next poll is the retry). */
  events(sessionId: string, token: string, after: number): Promise<SessionEventsResponse> {
    return this.call({
      op: "events",
      method: "GET",
      path: `${AVATAR_PATHS.session(sessionId, "events")}?after=${after}`,
      authorization: `Bearer ${token}`,
      retry: false,
      schema: SessionEventsResponse,
    });
  }

  private onSession<T extends z.ZodType>(
    op: "init-client" | "keep-alive" | "say-text" | "interrupt" | "end",
    sessionId: string,
    token: string,
    json: unknown,
    schema: T,
  ): Promise<z.infer<T>> {
    return this.call({ op, path: AVATAR_PATHS.session(sessionId, op), authorization: `Bearer ${token}`, json, schema });
  }

  private call<T extends z.ZodType>(spec: CallSpec<T>): Promise<z.infer<T>> {
    const retryable = (error: unknown): boolean => {
      if (spec.retry === false || !AVATAR_OPERATIONS[spec.op].repeatSafe) return false;
      const status = statusOf(error);
      return status === undefined ? isTransportFailure(error) : isAvatarRetryStatus(spec.op, status);
    };
    return withRetry(
      this.deps.retry,
      this.deps.clock,
      () => this.once(spec),
      retryable,
      (error, retry, delayMs) => this.deps.logger.debug(`${spec.op}: retry ${retry} in ${delayMs} ms`, { error: (error as Error).message }),
      this.deps.random,
    );
  }

  private async once<T extends z.ZodType>(spec: CallSpec<T>): Promise<z.infer<T>> {
    const controller = new AbortController();
    const timer = this.deps.clock.setTimeout(() => controller.abort(), this.deps.timeoutMs);
    const headers: Record<string, string> = { Authorization: spec.authorization };
    let body: BodyInit | undefined;
    if (spec.form) body = spec.form;
    else if (spec.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(spec.json);
    }
    let response: Response;
    let text: string;
    try {
      response = await this.deps.fetch(this.deps.baseUrl + spec.path, { method: spec.method ?? "POST", headers, body, signal: controller.signal });
      text = await readBoundedText(response);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw new AvatarError(AvatarErrorCode.API_REQUEST_FAILED, `${spec.op}: ${error.message}`, { op: spec.op, tooLarge: true });
      }
      const timedOut = controller.signal.aborted;
      throw new AvatarError(
        AvatarErrorCode.API_REQUEST_FAILED,
        timedOut ? `${spec.op}: no answer within ${this.deps.timeoutMs} ms` : `${spec.op}: request failed (${(error as Error)?.message ?? error})`,
        { op: spec.op, transport: true, ...(timedOut ? { timeout: true } : {}) },
      );
    } finally {
      this.deps.clock.clearTimeout(timer);
    }
    const json = parseJson(text);
    if (!response.ok) {
      const failure = AvatarErrorBody.safeParse(json);
      throw errorFromStatus(spec.op, response.status, failure.success ? failure.data.error : undefined, failure.success ? failure.data.reason : undefined);
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      throw new AvatarError(AvatarErrorCode.API_REQUEST_FAILED, `${spec.op}: unexpected response from the avatar API`, {
        op: spec.op,
        status: response.status,
        issues: parsed.error.issues.map((issue) => describeIssues([issue], { input: json })),
      });
    }
    return parsed.data;
  }
}

export function statusOf(error: unknown): number | undefined {
  const status = error instanceof AvatarError ? error.details?.status : undefined;
  return typeof status === "number" ? status : undefined;
}

function isTransportFailure(error: unknown): boolean {
  return error instanceof AvatarError && error.details?.transport === true;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
