/**
 * The emulator's side of one WHEP viewer: a werift RTCPeerConnection (pure TypeScript ICE, DTLS-SRTP, RTP)
 * that answers the browser's recvonly offer with a sendonly VP8 video and Opus audio track, completes ICE as a
 * full agent (it also answers checks relayed through the emulator's TURN server) and, once connected, plays
 * the avatar media. The answer is returned after candidate gathering, so it carries every candidate (no
 * trickle). A peer that fails, disconnects for good or is closed reports it once through `onClosed`.
 */
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, type RTCRtpTransceiver } from "werift";
import { AvatarMediaSender, type MediaCounters } from "./mediaSender";

export interface WhepPeerOptions {
  /** Is the avatar speaking right now (audio: tone vs silence). */
  isSpeaking(): boolean;
  /** Called once when the peer is gone (closed, failed or disconnected past the grace period). */
  onClosed(why: "closed" | "failed" | "disconnected"): void;
  /** Longest wait for candidate gathering before answering with what was gathered (ms). */
  gatheringTimeoutMs?: number;
  /** The one IPv4 address the peer binds and advertises (see mediaAddress in mediaPlane.ts). */
  address: string;
}

/** How long a `disconnected` peer may recover before it is torn down (consent freshness lost). */
const DISCONNECTED_GRACE_MS = 10_000;

export class WhepPeer {
  readonly connectedAt: Promise<number>;
  private readonly sender: AvatarMediaSender;
  private closed = false;
  private disconnectTimer: NodeJS.Timeout | undefined;
  private resolveConnected!: (at: number) => void;

  private constructor(
    private readonly pc: RTCPeerConnection,
    private readonly options: WhepPeerOptions,
  ) {
    const streamId = `avatar-${Math.random().toString(36).slice(2, 10)}`;
    const video = new MediaStreamTrack({ kind: "video", streamId });
    const audio = new MediaStreamTrack({ kind: "audio", streamId });
    this.sender = new AvatarMediaSender(video, audio, options.isSpeaking);
    this.connectedAt = new Promise((resolve) => (this.resolveConnected = resolve));
    this.tracks = { video, audio };
    pc.connectionStateChange.subscribe((state) => this.onState(state));
  }

  private readonly tracks: { video: MediaStreamTrack; audio: MediaStreamTrack };

  /** Build a peer for `offer` and return it with its answer SDP. Throws on an offer it cannot answer. */
  static async answer(offer: string, options: WhepPeerOptions): Promise<{ peer: WhepPeer; answer: string }> {
    const pc = new RTCPeerConnection({
      codecs: {
        video: [
          new RTCRtpCodecParameters({
            mimeType: "video/VP8",
            clockRate: 90_000,
            rtcpFeedback: [{ type: "nack" }, { type: "nack", parameter: "pli" }, { type: "goog-remb" }],
          }),
        ],
        audio: [new RTCRtpCodecParameters({ mimeType: "audio/opus", clockRate: 48_000, channels: 2 })],
      },
      // One address, bound and advertised: a socket bound to 0.0.0.0 on a multi-homed box answers from
      // whichever source the route picks, which ICE rejects (and TURN permissions refuse) when it is not the
      // candidate's address. The TURN relay relays from the same address.
      iceInterfaceAddresses: { udp4: options.address },
      ...(isLoopback(options.address) ? { iceAdditionalHostAddresses: [options.address] } : {}),
      iceUseIpv6: false,
    });
    const peer = new WhepPeer(pc, options);
    try {
      await pc.setRemoteDescription({ type: "offer", sdp: offer });
      const transceivers = pc.getTransceivers();
      const byKind = (kind: "video" | "audio") => transceivers.find((t: RTCRtpTransceiver) => t.kind === kind);
      for (const kind of ["video", "audio"] as const) {
        const transceiver = byKind(kind);
        if (!transceiver) throw new Error(`the offer has no ${kind} section`);
        transceiver.setDirection("sendonly");
        await transceiver.sender.replaceTrack(peer.tracks[kind]);
        // A picture loss indication restarts the loop at its key frame.
        if (kind === "video") transceiver.sender.onPictureLossIndication.subscribe(() => peer.sender.requestKeyframe());
      }
      await pc.setLocalDescription(await pc.createAnswer());
      await peer.gatheringComplete(options.gatheringTimeoutMs ?? 3_000);
      const answer = pc.localDescription?.sdp;
      if (!answer) throw new Error("no local description");
      return { peer, answer };
    } catch (error) {
      await peer.close();
      throw error;
    }
  }

  get state(): string {
    return this.pc.connectionState;
  }

  get counters(): MediaCounters {
    return this.sender.counters;
  }

  async close(): Promise<void> {
    await this.finish("closed");
  }

  private onState(state: string): void {
    if (this.closed) return;
    if (state === "connected") {
      clearTimeout(this.disconnectTimer);
      this.disconnectTimer = undefined;
      this.resolveConnected(Date.now());
      this.sender.start();
    } else if (state === "failed") {
      void this.finish("failed");
    } else if (state === "disconnected" && !this.disconnectTimer) {
      this.disconnectTimer = setTimeout(() => void this.finish("disconnected"), DISCONNECTED_GRACE_MS);
      this.disconnectTimer.unref();
    }
  }

  private async finish(why: "closed" | "failed" | "disconnected"): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.disconnectTimer);
    this.sender.stop();
    try {
      await this.pc.close();
    } catch {
      // already torn down
    }
    this.options.onClosed(why);
  }

  private gatheringComplete(timeoutMs: number): Promise<void> {
    if (this.pc.iceGatheringState === "complete") return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.pc.iceGatheringStateChange.subscribe((state) => {
        if (state === "complete") {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }
}

function isLoopback(address: string): boolean {
  return address.startsWith("127.");
}
