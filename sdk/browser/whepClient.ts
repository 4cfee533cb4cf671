/**
 * WHEP playback (RFC 9725) for one session: a receive-only peer connection, the SDP offer POSTed as
 * application/sdp after ICE gathering (bounded wait; no trickle), the answer applied, and the Location
 * DELETEd on close. Statuses: 404 -> SESSION_NOT_FOUND; 409, 415 and any other -> RTC_CONNECTION_FAILED.
 */
import { BodyTooLargeError, readBoundedText } from "./boundedBody";
import type { InitClientResponse } from "../../contract/avatar";
import type { FetchLike } from "./avatarApiClient";
import type { Clock } from "./clock";
import { urlProblem } from "./config";
import { AvatarError } from "./errors";
import type { Logger } from "./logger";
import type { IceServerConfig, PeerConnectionFactory, PeerConnectionLike } from "./rtc";
import { AvatarErrorCode } from "./errors";

export interface WhepDeps {
  PeerConnection: PeerConnectionFactory;
  fetch: FetchLike;
  clock: Clock;
  logger: Logger;
  iceGatheringTimeoutMs: number;
  timeoutMs: number;
  /** The configuration's opt-in to plain http off loopback: the WHEP URL a server answers follows the configured URLs' rule. */
  allowInsecureHttp: boolean;
}

export interface WhepCallbacks {
  onStream(stream: unknown): void;
  /** The peer connection's connectionState as it changes. */
  onConnectionState(state: string): void;
}

export class WhepClient {
  private pc: PeerConnectionLike | undefined;
  private resourceUrl: string | undefined;
  private closed = false;
  private ownStream: { addTrack(track: unknown): void } | undefined;

  constructor(private readonly deps: WhepDeps) {}

  async connect(init: InitClientResponse, callbacks: WhepCallbacks): Promise<void> {
    // Checked before anything is made or sent: the URL holds the stream's unguessable key, and the offer goes to it.
    const problem = urlProblem(init.whepUrl, this.deps.allowInsecureHttp, "the stream key it holds and the SDP offer");
    if (problem !== undefined) throw rtcError(`the whepUrl init-client answered is refused: ${problem}`);
    const iceServers: IceServerConfig[] = init.turn
      ? [
          {
            urls: init.turn.url,
            ...(init.turn.username ? { username: init.turn.username } : {}),
            ...(init.turn.credential ? { credential: init.turn.credential } : {}),
          },
        ]
      : [];
    let pc: PeerConnectionLike;
    try {
      pc = new this.deps.PeerConnection({ iceServers });
    } catch (error) {
      throw rtcError(`could not create a peer connection (${(error as Error).message})`);
    }
    this.pc = pc;
    pc.addTransceiver("video", { direction: "recvonly" });
    pc.addTransceiver("audio", { direction: "recvonly" });
    pc.addEventListener("track", (event) => callbacks.onStream(event.streams[0] ?? this.streamOf(event.track)));
    pc.addEventListener("connectionstatechange", () => {
      if (!this.closed) callbacks.onConnectionState(pc.connectionState);
    });

    let offerSdp: string;
    try {
      await pc.setLocalDescription(await pc.createOffer());
      await this.gatheringComplete(pc);
      offerSdp = pc.localDescription?.sdp ?? "";
    } catch (error) {
      throw rtcError(`could not create the SDP offer (${(error as Error).message})`);
    }
    const answer = await this.postOffer(init.whepUrl, offerSdp);
    try {
      await pc.setRemoteDescription({ type: "answer", sdp: answer });
    } catch (error) {
      throw rtcError(`the WHEP answer was rejected (${(error as Error).message})`);
    }
  }

  /** Close the peer connection and DELETE the WHEP resource (best effort: the session end releases it too). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pc?.close();
    const url = this.resourceUrl;
    this.resourceUrl = undefined;
    if (!url) return;
    try {
      const response = await this.deps.fetch(url, { method: "DELETE" });
      if (!response.ok && response.status !== 404) this.deps.logger.debug(`WHEP DELETE answered ${response.status}`);
    } catch (error) {
      this.deps.logger.debug("WHEP DELETE failed", { error: (error as Error).message });
    }
  }

  private async postOffer(whepUrl: string, sdp: string): Promise<string> {
    const controller = new AbortController();
    const timer = this.deps.clock.setTimeout(() => controller.abort(), this.deps.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await this.deps.fetch(whepUrl, { method: "POST", headers: { "Content-Type": "application/sdp" }, body: sdp, signal: controller.signal });
      text = await readBoundedText(response);
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw rtcError(`WHEP answer refused: ${error.message}`);
      throw rtcError(`WHEP offer failed (${controller.signal.aborted ? "timeout" : (error as Error).message})`);
    } finally {
      this.deps.clock.clearTimeout(timer);
    }
    if (response.status === 404) {
      throw new AvatarError(AvatarErrorCode.SESSION_NOT_FOUND, "WHEP: no such session stream", { op: "whep", status: 404 });
    }
    if (response.status !== 201) {
      const why = response.status === 409 ? "a viewer is already attached" : response.status === 415 ? "content type refused" : "unexpected status";
      throw rtcError(`WHEP offer answered ${response.status} (${why})`, response.status);
    }
    const location = response.headers.get("location");
    if (location) {
      const resourceUrl = new URL(location, whepUrl).toString();
      // The DELETE goes where the server says only under the same rule; otherwise the session's end releases it.
      if (urlProblem(resourceUrl, this.deps.allowInsecureHttp, "the resource URL") === undefined) this.resourceUrl = resourceUrl;
      else this.deps.logger.debug("WHEP Location refused (plain http off loopback); the session's end releases the resource");
    }
    return text;
  }

  /** A server that sends no msid gives tracks without a stream: gather them into one MediaStream for <video>. */
  private streamOf(track: unknown): unknown {
    const MediaStreamCtor = (globalThis as { MediaStream?: new () => { addTrack(track: unknown): void } }).MediaStream;
    if (!MediaStreamCtor) return track;
    this.ownStream ??= new MediaStreamCtor();
    this.ownStream.addTrack(track);
    return this.ownStream;
  }

  private gatheringComplete(pc: PeerConnectionLike): Promise<void> {
    if (pc.iceGatheringState === "complete") return Promise.resolve();
    return new Promise((resolve) => {
      const timer = this.deps.clock.setTimeout(() => {
        this.deps.logger.debug("ICE gathering not complete in time; sending the candidates gathered so far");
        resolve();
      }, this.deps.iceGatheringTimeoutMs);
      pc.addEventListener("icegatheringstatechange", () => {
        if (pc.iceGatheringState === "complete") {
          this.deps.clock.clearTimeout(timer);
          resolve();
        }
      });
    });
  }
}

function rtcError(message: string, status?: number): AvatarError {
  return new AvatarError(AvatarErrorCode.RTC_CONNECTION_FAILED, message, { op: "whep", ...(status ? { status } : {}) });
}
