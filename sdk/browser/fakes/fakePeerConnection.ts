/**
 * A fake RTCPeerConnection for Node tests: records what the library does (transceivers, offer, answer,
 * close) and lets the test drive connection states. Every instance is kept in `FakePeerConnection.instances`.
 */
import type { IceServerConfig, PeerConnectionLike, TrackEventLike } from "../rtc";

type Listener = (event: never) => void;

/** Shaped like a browser's recvonly offer (ICE credentials, a DTLS fingerprint), so a real WHEP peer answers it. */
export const FAKE_OFFER_SDP = [
  "v=0",
  "o=- 1 2 IN IP4 127.0.0.1",
  "s=-",
  "t=0 0",
  "a=group:BUNDLE 0 1",
  "a=msid-semantic: WMS",
  ...[
    ["video", "96", "VP8/90000", "0"],
    ["audio", "111", "opus/48000/2", "1"],
  ].flatMap(([kind, pt, codec, mid]) => [
    `m=${kind} 9 UDP/TLS/RTP/SAVPF ${pt}`,
    "c=IN IP4 0.0.0.0",
    "a=rtcp:9 IN IP4 0.0.0.0",
    "a=ice-ufrag:fake",
    "a=ice-pwd:fakefakefakefakefakefake",
    "a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF",
    "a=setup:actpass",
    `a=mid:${mid}`,
    "a=recvonly",
    "a=rtcp-mux",
    `a=rtpmap:${pt} ${codec}`,
  ]),
  "",
].join("\r\n");

export class FakePeerConnection implements PeerConnectionLike {
  static instances: FakePeerConnection[] = [];
  /** When true (default), the connection reports "connected" as soon as the answer is applied. */
  static autoConnect = true;
  /** When set, setRemoteDescription rejects with this message. */
  static rejectAnswer: string | undefined;

  connectionState = "new";
  iceGatheringState = "new";
  localDescription: { sdp: string } | null = null;
  remoteDescription: { type: string; sdp: string } | null = null;
  readonly transceivers: Array<{ kind: string; direction: string }> = [];
  closed = false;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(readonly config: { iceServers: IceServerConfig[] }) {
    FakePeerConnection.instances.push(this);
  }

  static reset(): void {
    FakePeerConnection.instances = [];
    FakePeerConnection.autoConnect = true;
    FakePeerConnection.rejectAnswer = undefined;
  }

  static last(): FakePeerConnection {
    const pc = FakePeerConnection.instances.at(-1);
    if (!pc) throw new Error("no FakePeerConnection was created");
    return pc;
  }

  addTransceiver(kind: "audio" | "video", init: { direction: "recvonly" }): unknown {
    this.transceivers.push({ kind, direction: init.direction });
    return {};
  }

  async createOffer(): Promise<{ type: string; sdp: string }> {
    return { type: "offer", sdp: FAKE_OFFER_SDP };
  }

  async setLocalDescription(description?: { type: string; sdp?: string }): Promise<void> {
    this.localDescription = { sdp: description?.sdp ?? FAKE_OFFER_SDP };
    // Gathering completes on the next turn, as in a browser with host candidates only.
    setImmediate(() => {
      this.iceGatheringState = "complete";
      this.fire("icegatheringstatechange", undefined);
    });
  }

  async setRemoteDescription(description: { type: "answer"; sdp: string }): Promise<void> {
    if (FakePeerConnection.rejectAnswer) throw new Error(FakePeerConnection.rejectAnswer);
    this.remoteDescription = description;
    this.fire("track", { track: { kind: "video" }, streams: [{ id: "fake-stream" }] } satisfies TrackEventLike);
    this.setConnectionState("connecting");
    if (FakePeerConnection.autoConnect) this.setConnectionState("connected");
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  /** Test control: move the connection to a state and tell the listeners. */
  setConnectionState(state: string): void {
    if (this.closed) return;
    this.connectionState = state;
    this.fire("connectionstatechange", undefined);
  }

  close(): void {
    this.closed = true;
    this.connectionState = "closed";
  }

  private fire(type: string, event: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) (listener as (e: unknown) => void)(event);
  }
}
