/**
 * The slice of RTCPeerConnection the library uses, so tests in Node drive it with a fake
 * (sdk/browser/fakes/fakePeerConnection.ts) and browsers use the real one.
 */
export interface IceServerConfig {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export interface TrackEventLike {
  track: unknown;
  streams: readonly unknown[];
}

export interface PeerConnectionLike {
  readonly connectionState: string;
  readonly iceGatheringState: string;
  readonly localDescription: { sdp: string } | null;
  addTransceiver(kind: "audio" | "video", init: { direction: "recvonly" }): unknown;
  createOffer(): Promise<{ type: string; sdp?: string }>;
  setLocalDescription(description?: { type: string; sdp?: string }): Promise<void>;
  setRemoteDescription(description: { type: "answer"; sdp: string }): Promise<void>;
  addEventListener(type: "track", listener: (event: TrackEventLike) => void): void;
  addEventListener(type: "connectionstatechange" | "icegatheringstatechange", listener: () => void): void;
  close(): void;
}

export type PeerConnectionFactory = new (config: { iceServers: IceServerConfig[] }) => PeerConnectionLike;
