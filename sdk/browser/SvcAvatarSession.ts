/**
 * SvcAvatarSession: the browser library. A thin runner around the pure sessionMachine: public methods check
 * input, dispatch events and perform the effects the machine lists (API calls, keep-alive every 10 s,
 * speaking-event polling, WHEP). Everything outside (fetch, RTCPeerConnection, clock, document, console)
 * is injected through the constructor's last argument.
 */
import { KEEP_ALIVE_INTERVAL_MS, type EndReason } from "../../contract/avatar";
import { AvatarApiClient, statusOf } from "./avatarApiClient";
import { resolveConfig, resolveDeps, type AvatarSessionDeps, type ResolvedConfig, type ResolvedDeps, type VideoElementLike } from "./config";
import { AvatarError, invalidConfiguration, invalidState, toAvatarError } from "./errors";
import { EventHub } from "./eventHub";
import { Logger, warnDeprecatedOnce } from "./logger";
import { Repeater } from "./repeater";
import { initialMachineState, step, type Command, type Effect, type MachineEvent, type MachineState } from "./sessionMachine";
import { checkBackendSession, checkSayAudio, checkSayText, createRequestOf } from "./sessionInputs";
import { endReasonOf, pollSpeakingEvents } from "./speakingEvents";
import { newTurnId } from "./turnId";
import { containerOf, createVideoIn } from "./videoAttachment";
import type { AvatarConfig, ConnectionState, CreateSessionOptions, InitSessionOptions, SessionEventMap, SessionEventName, SessionState } from "./types";
import { WhepClient } from "./whepClient";
import { AvatarErrorCode } from "./errors";

export class SvcAvatarSession {
  private machine: MachineState = initialMachineState;
  private readonly config: ResolvedConfig;
  private readonly deps: ResolvedDeps;
  private readonly log: Logger;
  private readonly events: EventHub;
  private api: AvatarApiClient | undefined;
  private token: string | null = null;
  private keepAlive: Repeater | undefined;
  private keepAliveInFlight: Promise<void> | undefined;
  private poller: { stop(): void } | undefined;
  private whep: WhepClient | undefined;
  private stream: unknown;
  private video: VideoElementLike | undefined;
  private turnId: string | null = null;
  private ending: Promise<void> | undefined;

  constructor(config?: AvatarConfig, deps?: AvatarSessionDeps);
  /** @deprecated pass `{ apiKey }` in the config object instead. */
  constructor(apiKey: string, config?: AvatarConfig, deps?: AvatarSessionDeps);
  constructor(first?: AvatarConfig | string, second?: AvatarConfig | AvatarSessionDeps, third?: AvatarSessionDeps) {
    const positional = typeof first === "string";
    const config = positional ? { ...(second as AvatarConfig | undefined), apiKey: first } : (first ?? {});
    this.deps = resolveDeps(positional ? third : (second as AvatarSessionDeps | undefined));
    this.config = resolveConfig(config);
    this.log = new Logger(this.config.logLevel, this.deps.logger);
    this.events = new EventHub(this.log);
    if (positional) {
      warnDeprecatedOnce(
        this.deps.deprecations,
        this.log,
        "positional-apiKey",
        "new SvcAvatarSession(apiKey) is deprecated; use new SvcAvatarSession({ apiKey })",
      );
    }
  }

  // ---- lifecycle ---------------------------------------------------------------------------------

  async createSession(options: CreateSessionOptions): Promise<void> {
    const request = createRequestOf(options);
    if (options.avatarId !== undefined) {
      warnDeprecatedOnce(this.deps.deprecations, this.log, "avatarId", "createSession({ avatarId }) is deprecated; use visualId");
    }
    const apiKey = this.config.apiKey;
    if (!apiKey) throw invalidConfiguration("createSession needs AvatarConfig.apiKey (or use initSession with a backend-created session)");
    const api = this.apiClient();
    // Bad input fails here, before any call and any state change: the instance stays IDLE and usable.
    if (options.videoContainerId) containerOf(this.deps.document, options.videoContainerId);
    this.command("createSession");
    try {
      const created = await api.create(apiKey, request);
      this.token = created.token;
      this.dispatch({ type: "session.created", sessionId: created.sessionId });
      await this.connect(api);
    } catch (error) {
      throw this.creationFailed(error, "createSession");
    }
    this.attachLast(options.videoContainerId);
  }

  async initSession(session: { sessionId: string; token: string }, options: InitSessionOptions = {}): Promise<void> {
    checkBackendSession(session);
    const api = this.apiClient();
    if (options.videoContainerId) containerOf(this.deps.document, options.videoContainerId);
    this.command("initSession");
    try {
      this.token = session.token;
      this.dispatch({ type: "session.created", sessionId: session.sessionId });
      await this.connect(api);
    } catch (error) {
      throw this.creationFailed(error, "initSession");
    }
    this.attachLast(options.videoContainerId);
  }

  /**
   * The video is attached as the last step, once the session is READY. If the container went away meanwhile, the
   * call rejects with INVALID_CONFIGURATION but the session stays READY: attachAvatar(id) again, or endSession().
   */
  private attachLast(containerId: string | undefined): void {
    if (containerId) this.attachAvatar(containerId);
  }

  async endSession(): Promise<void> {
    if (this.ending) return this.ending;
    this.command("endSession");
    if (this.ending) await this.ending;
  }

  // ---- speech ------------------------------------------------------------------------------------

  async sayText(text: string, turnId?: string, isFinal = true): Promise<void> {
    checkSayText(text, turnId, isFinal);
    this.command("sayText");
    // One turn id for every chunk of a turn: reused until a chunk marked final closes the turn.
    const turn = turnId ?? this.turnId ?? newTurnId();
    this.turnId = isFinal ? null : turn;
    await this.onSession("say-text", (api, id, token) => api.sayText(id, token, { text, turnId: turn, isFinal }));
  }

  async sayAudio(audioFile: Blob, turnId: string, duration: number): Promise<void> {
    checkSayAudio(audioFile, turnId, duration);
    this.command("sayAudio");
    await this.onSession("say-audio", (api, id, token) => api.sayAudio(id, token, audioFile, turnId, duration));
  }

  async interrupt(): Promise<void> {
    this.command("interrupt");
    await this.onSession("interrupt", (api, id, token) => api.interrupt(id, token));
  }

  // ---- video -------------------------------------------------------------------------------------

  attachAvatar(containerId: string): void {
    if (typeof containerId !== "string" || containerId === "") throw invalidConfiguration("attachAvatar: containerId is required");
    this.command("attachAvatar");
    const video = createVideoIn(this.deps.document, containerId, this.stream);
    this.video?.remove();
    this.video = video;
  }

  // ---- observation -------------------------------------------------------------------------------

  getSessionId(): string | null {
    return this.machine.sessionId;
  }
  getSessionState(): SessionState {
    return this.machine.session;
  }
  getConnectionState(): ConnectionState {
    return this.machine.connection;
  }
  /** Why the session ended (with state ENDED), else null. */
  getEndReason(): EndReason | null {
    return this.machine.endReason;
  }

  on<E extends SessionEventName>(event: E, callback: SessionEventMap[E]): void {
    this.events.on(event, callback);
  }

  off<E extends SessionEventName>(event: E, callback: SessionEventMap[E]): void {
    this.events.off(event, callback);
  }

  // ---- runner ------------------------------------------------------------------------------------

  private command(command: Command): void {
    this.dispatch({ type: "command.requested", command });
  }

  private dispatch(event: MachineEvent): void {
    const { state, effects } = step(this.machine, event);
    this.machine = state;
    for (const effect of effects) this.perform(effect);
  }

  private perform(effect: Effect): void {
    switch (effect.type) {
      case "reject.invalidState":
        throw invalidState(effect.command, effect.state);
      case "emit.stateChange":
        this.log.info(`session state ${effect.state}${effect.reason ? ` (${effect.reason})` : ""}`);
        this.events.emit("stateChange", effect.state, effect.reason ? { reason: effect.reason } : {});
        return;
      case "emit.connectionChange":
        this.log.debug(`connection state ${effect.state}`);
        this.events.emit("connectionChange", effect.state);
        return;
      case "emit.error":
        this.log.error(`${effect.error.code}: ${effect.error.message}`);
        this.events.emit("error", effect.error);
        return;
      case "emit.speakingStart":
        this.events.emit("speakingStart");
        return;
      case "emit.speakingEnd":
        this.events.emit("speakingEnd");
        return;
      case "keepAlive.start":
        // The tick's task lasts as long as its keep-alive (with retries), so a slow one skips the next beat.
        this.keepAlive = new Repeater(this.deps.clock, KEEP_ALIVE_INTERVAL_MS, async () => {
          this.dispatch({ type: "keepAlive.tick" });
          await this.keepAliveInFlight;
        }).start();
        return;
      case "keepAlive.stop":
        this.keepAlive?.stop();
        return;
      case "keepAlive.send":
        this.keepAliveInFlight = this.sendKeepAlive().finally(() => {
          this.keepAliveInFlight = undefined;
        });
        return;
      case "events.start":
        this.poller = pollSpeakingEvents({
          api: this.apiClient(),
          sessionId: this.machine.sessionId!,
          token: this.token!,
          clock: this.deps.clock,
          intervalMs: this.deps.eventsPollIntervalMs,
          log: this.log,
          onEvent: (type) => this.dispatch({ type: type === "speakingStart" ? "speaking.started" : "speaking.ended" }),
          onGone: (error) => this.dispatch({ type: "server.ended", reason: endReasonOf(error) }),
        });
        return;
      case "events.stop":
        this.poller?.stop();
        return;
      case "rtc.close":
        if (this.video) this.video.srcObject = null;
        void this.whep?.close();
        return;
      case "backend.end":
        this.ending = this.endOnBackend().finally(() => {
          this.ending = undefined;
        });
        return;
      case "backend.release":
        void this.release();
        return;
    }
  }

  private apiClient(): AvatarApiClient {
    if (this.api) return this.api;
    const { baseUrl } = this.config;
    const fetch = this.deps.fetch;
    if (!baseUrl)
      throw invalidConfiguration("baseUrl is required: the avatar API root (AvatarConfig.baseUrl); the library never posts to the page's own origin");
    if (!fetch) throw invalidConfiguration("no fetch in this environment; inject one");
    this.api = new AvatarApiClient({
      baseUrl,
      fetch,
      clock: this.deps.clock,
      logger: this.log,
      retry: this.config.retry,
      timeoutMs: this.deps.requestTimeoutMs,
      random: this.deps.random,
    });
    return this.api;
  }

  /** init-client, then WHEP; READY once the answer is applied (media state is the connection state). */
  private async connect(api: AvatarApiClient): Promise<void> {
    const sessionId = this.machine.sessionId!;
    const init = await api.initClient(sessionId, this.token!);
    const PeerConnection = this.deps.RTCPeerConnection;
    if (!PeerConnection) throw invalidConfiguration("no RTCPeerConnection in this environment; inject one");
    this.dispatch({ type: "rtc.connecting" });
    const { clock, requestTimeoutMs: timeoutMs, iceGatheringTimeoutMs } = this.deps;
    const { allowInsecureHttp } = this.config;
    this.whep = new WhepClient({ PeerConnection, fetch: this.deps.fetch!, clock, logger: this.log, iceGatheringTimeoutMs, timeoutMs, allowInsecureHttp });
    await this.whep.connect(init, {
      onStream: (stream) => {
        this.stream = stream;
        if (this.video) this.video.srcObject = stream;
      },
      onConnectionState: (state) => {
        if (state === "connected") this.dispatch({ type: "rtc.connected" });
        else if (state === "failed") {
          const error = new AvatarError(AvatarErrorCode.RTC_CONNECTION_FAILED, "the WebRTC connection failed", { op: "rtc" });
          this.dispatch({ type: "rtc.failed", error });
        }
      },
    });
    this.dispatch({ type: "rtc.negotiated" });
  }

  private creationFailed(error: unknown, op: string): AvatarError {
    const failure = toAvatarError(error, AvatarErrorCode.API_REQUEST_FAILED, op);
    if (this.machine.session === "CREATING") this.dispatch({ type: "create.failed", error: failure });
    return failure;
  }

  /** A session call; its failure is reported (410 ends the session, 401/404 make it ERROR) and rethrown. */
  private async onSession(op: string, call: (api: AvatarApiClient, sessionId: string, token: string) => Promise<unknown>): Promise<void> {
    try {
      await call(this.apiClient(), this.machine.sessionId!, this.token!);
    } catch (error) {
      const failure = toAvatarError(error, AvatarErrorCode.API_REQUEST_FAILED, op);
      this.reportFailure(failure, false);
      throw failure;
    }
  }

  private reportFailure(error: AvatarError, fatal: boolean): void {
    if (statusOf(error) === 410) {
      this.dispatch({ type: "server.ended", reason: endReasonOf(error) });
      return;
    }
    const sessionLost = error.code === AvatarErrorCode.SESSION_NOT_FOUND || error.code === AvatarErrorCode.UNAUTHORIZED;
    this.dispatch({ type: "api.failed", error, fatal: fatal || sessionLost });
  }

  private async sendKeepAlive(): Promise<void> {
    const sessionId = this.machine.sessionId!;
    try {
      await this.apiClient().keepAlive(sessionId, this.token!);
    } catch (error) {
      // Keep-alive failing after its retries stops the session (ERROR): the server will time it out anyway.
      if (this.machine.sessionId === sessionId) this.reportFailure(toAvatarError(error, AvatarErrorCode.API_REQUEST_FAILED, "keep-alive"), true);
    }
  }

  private async endOnBackend(): Promise<void> {
    const sessionId = this.machine.sessionId;
    const token = this.token;
    if (!sessionId || !token) {
      this.dispatch({ type: "end.completed" });
      return;
    }
    try {
      const result = await this.apiClient().end(sessionId, token);
      this.dispatch({ type: "end.completed", ...(result.alreadyEnded ? { serverReason: result.reason ?? "server" } : {}) });
      this.token = null;
      this.video?.remove();
      this.video = undefined;
    } catch (error) {
      const failure = toAvatarError(error, AvatarErrorCode.API_REQUEST_FAILED, "endSession");
      // 404: the server has no such session, so there is nothing left to end; it is reported, not taken for
      // "already ended" (that is 410). The session is over locally (ENDED, reason "error").
      this.dispatch({ type: "end.failed", error: failure, final: statusOf(failure) === 404 });
      if (statusOf(failure) === 404) {
        this.token = null;
        this.video?.remove();
        this.video = undefined;
      }
      throw failure;
    }
  }

  /** After a failed creation: end the backend session so it does not linger until the idle timeout. */
  private async release(): Promise<void> {
    const sessionId = this.machine.sessionId;
    if (!sessionId || !this.token) return;
    try {
      await this.apiClient().end(sessionId, this.token);
    } catch (error) {
      this.log.debug("could not release the session after a failure", { error: (error as Error).message });
    }
  }
}
