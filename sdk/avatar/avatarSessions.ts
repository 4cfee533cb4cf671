/**
 * Backend client of the avatar session API ({avatar_api_url}). Thin methods: each builds one call for
 * avatarRequest. Create uses `Authorization: KS <ks>` on /v1/avatar-session/create (the real service's path;
 * the emulator also takes /v1/avatar-session); later calls use `Authorization: Bearer <JWT>`.
 * Retry by what the operation does, from the contract's AVATAR_OPERATIONS table (shared with the browser library):
 * create, init-client and say-* are not repeat-safe (retried only when the request cannot have reached the server);
 * keep-alive, interrupt and end are.
 */
import {
  AVATAR_PATHS,
  CreateSessionRequest,
  CreateSessionResponse,
  InitClientResponse,
  SayResponse,
  SayTextRequest,
  SuccessResponse,
  type VoiceConfig,
} from "../../contract/avatar";
import { describeIssues } from "../../contract/issues";
import { SvcValidationError } from "../core/errors";
import { registerSecret } from "../core/redact";
import type { CallOptions } from "../transport";
import { AvatarApiError } from "./errors";
import { ksOf, resolveClient, type AvatarClientOptions, type KsSource, type ResolvedClient } from "./options";
import { avatarRequest, encodeMultipart } from "./request";

/** What create returns: the session id and its JWT (a secret: keep it on the server or hand it to one client). */
export interface AvatarSessionHandle {
  sessionId: string;
  token: string;
}

export interface CreateAvatarSessionInput {
  visualId: string;
  voice?: VoiceConfig;
  clientId?: string;
  /** Overrides the client's ks for this call. */
  ks?: KsSource;
}

export class AvatarSessionApi {
  private readonly client: ResolvedClient;

  constructor(options: AvatarClientOptions) {
    this.client = resolveClient(options, "avatarApiUrl");
  }

  async create(input: CreateAvatarSessionInput, options?: CallOptions): Promise<AvatarSessionHandle> {
    const body = CreateSessionRequest.safeParse({
      visualConfig: { id: input?.visualId },
      ...(input?.voice ? { voiceConfig: input.voice } : {}),
      ...(input?.clientId !== undefined ? { clientId: input.clientId } : {}),
    });
    if (!body.success) {
      const issue = describeIssues(body.error.issues, { max: 1 })
        .replace(/^visualConfig\.id/, "visualId")
        .replace(/^voiceConfig\./, "voice.");
      throw new SvcValidationError(`avatar create: ${issue}`);
    }
    const ks = await ksOf(input.ks, this.client.ks, "avatar create");
    const created = await avatarRequest(
      this.client.transport,
      { op: "create", url: this.url(AVATAR_PATHS.create), authorization: `KS ${ks}`, json: body.data, schema: CreateSessionResponse },
      options,
    );
    registerSecret(created.token);
    return { sessionId: created.sessionId, token: created.token };
  }

  /** WHEP URL and TURN server for the viewer. Not safe to repeat: each call may open another WHEP resource. */
  async initClient(session: AvatarSessionHandle, options?: CallOptions): Promise<InitClientResponse> {
    return this.onSession("init-client", session, {}, InitClientResponse, options);
  }

  async keepAlive(session: AvatarSessionHandle, options?: CallOptions): Promise<void> {
    await this.onSession("keep-alive", session, {}, SuccessResponse, options);
  }

  async sayText(session: AvatarSessionHandle, input: SayTextRequest, options?: CallOptions): Promise<SayResponse> {
    const body = SayTextRequest.safeParse(input);
    if (!body.success) throw new SvcValidationError(`avatar say-text: ${describeIssues(body.error.issues, { input })}`);
    return this.onSession("say-text", session, body.data, SayResponse, options);
  }

  /** Speak an MP3 (44.1 kHz) file: multipart with `turnId`, `duration` (seconds) and the `audio` part. */
  async sayAudio(session: AvatarSessionHandle, input: { audio: Uint8Array; turnId: string; duration: number }, options?: CallOptions): Promise<SayResponse> {
    if (!(input?.audio instanceof Uint8Array) || input.audio.length === 0) throw new SvcValidationError("avatar say-audio: audio must be non-empty MP3 bytes");
    if (typeof input.turnId !== "string" || input.turnId === "") throw new SvcValidationError("avatar say-audio: turnId is required");
    if (!(input.duration > 0)) throw new SvcValidationError("avatar say-audio: duration must be a positive number of seconds");
    const multipart = await encodeMultipart(
      { turnId: input.turnId, duration: String(input.duration) },
      { name: "audio", filename: "audio.mp3", type: "audio/mpeg", data: input.audio },
    );
    return avatarRequest(
      this.client.transport,
      {
        op: "say-audio",
        url: this.url(AVATAR_PATHS.session(this.idOf(session), "say-audio")),
        authorization: this.bearer(session),
        multipart,
        schema: SayResponse,
      },
      options,
    );
  }

  async interrupt(session: AvatarSessionHandle, options?: CallOptions): Promise<void> {
    await this.onSession("interrupt", session, {}, SuccessResponse, options);
  }

  /**
   * End the session. 200 ends it; 410 means it had already ended (the spec's table), reported as
   * `alreadyEnded: true` rather than thrown, so end is safe to repeat. A 404 is "session not found" and is thrown
   * (AVATAR_SESSION_NOT_FOUND): a mistyped session id must not read as ended while the real session runs on.
   */
  async end(session: AvatarSessionHandle, options?: CallOptions): Promise<{ alreadyEnded: boolean; reason?: string }> {
    try {
      await this.onSession("end", session, {}, SuccessResponse, options);
      return { alreadyEnded: false };
    } catch (error) {
      if (error instanceof AvatarApiError && error.code === "AVATAR_SESSION_GONE") {
        return { alreadyEnded: true, ...(error.reason ? { reason: error.reason } : {}) };
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.client.ownsTransport) await this.client.transport.close();
  }

  private onSession<T extends Parameters<typeof avatarRequest>[1]["schema"]>(
    op: "init-client" | "keep-alive" | "say-text" | "interrupt" | "end",
    session: AvatarSessionHandle,
    json: unknown,
    schema: T,
    options: CallOptions | undefined,
  ) {
    return avatarRequest(
      this.client.transport,
      { op, url: this.url(AVATAR_PATHS.session(this.idOf(session), op)), authorization: this.bearer(session), json, schema },
      options,
    );
  }

  private idOf(session: AvatarSessionHandle): string {
    if (!session || typeof session.sessionId !== "string" || session.sessionId === "") throw new SvcValidationError("avatar session: sessionId is required");
    return session.sessionId;
  }

  private bearer(session: AvatarSessionHandle): string {
    if (typeof session.token !== "string" || session.token === "") throw new SvcValidationError("avatar session: token (JWT) is required");
    registerSecret(session.token);
    return `Bearer ${session.token}`;
  }

  private url(path: string): string {
    return this.client.baseUrl + path;
  }
}
