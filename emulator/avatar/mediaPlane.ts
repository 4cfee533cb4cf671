/**
 * The media side of the avatar emulator: the one WHEP viewer per session (a werift peer), the TURN relay and
 * the watchdog that notices sessions ending on their own (keep-alive timeout). A session that ends, for any
 * reason, closes its peer connection and its TURN allocations; a WHEP DELETE closes only the peer.
 */
import { networkInterfaces } from "node:os";
import type { AvatarSessionRecord, SessionStore } from "./sessionStore";
import { assertInstalled } from "../shared/optionalPackages";
import { TurnRelay, type TurnCredentials } from "./turnRelay";
import type { WhepPeer } from "./whepPeer";

/** How often the watchdog applies the idle timeout to sessions that have a viewer or a TURN user. */
const WATCHDOG_MS = 1_000;

export interface ViewerInfo {
  resourceId: string;
  peer: WhepPeer;
  createdAt: number;
}

export class AvatarMediaPlane {
  private readonly viewers = new Map<string, ViewerInfo>();
  private readonly turnUsers = new Set<string>();
  private relay: Promise<TurnRelay> | undefined;
  private relayHost = "127.0.0.1";
  private relayPort = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private closed = false;
  /** The IPv4 address media flows on: WHEP peers bind and advertise it, the TURN relay relays from it. */
  private address = mediaAddress("127.0.0.1");

  constructor(private readonly sessions: () => SessionStore) {}

  /** Where the TURN server listens (call before the first init-client; startEmulator does). */
  configureTurn(host: string, port = 0): void {
    this.relayHost = host;
    this.relayPort = port;
    this.address = mediaAddress(host);
  }

  turn(): Promise<TurnRelay> {
    if (this.closed) return Promise.reject(new Error("the avatar media plane is closed"));
    this.relay ??= TurnRelay.start({ host: this.relayHost, port: this.relayPort, relayAddress: this.address });
    return this.relay;
  }

  async issueTurn(record: AvatarSessionRecord, expiresAtMs: number): Promise<TurnCredentials> {
    const relay = await this.turn();
    this.turnUsers.add(record.id);
    this.ensureWatchdog();
    return relay.issue(record.id, expiresAtMs);
  }

  viewerOf(sessionId: string): ViewerInfo | undefined {
    return this.viewers.get(sessionId);
  }

  /** Answer a WHEP offer for the session; the viewer slot is held from here until the peer closes. */
  async attachViewer(record: AvatarSessionRecord, resourceId: string, offer: string): Promise<string> {
    // werift (about 180 ms to load, and an optional peer dependency) is loaded by the first viewer, not by every
    // emulator start.
    assertInstalled("werift", "The emulator's WHEP endpoint (avatar media)");
    const { WhepPeer } = await import("./whepPeer.js");
    const { peer, answer } = await WhepPeer.answer(offer, {
      address: this.address,
      isSpeaking: () => this.sessions().isSpeaking(record),
      onClosed: () => {
        if (this.viewers.get(record.id)?.peer === peer) {
          this.viewers.delete(record.id);
          if (record.viewer === resourceId) record.viewer = undefined;
        }
      },
    });
    if (record.endedAt !== undefined || this.closed) {
      await peer.close();
      throw new Error("the session ended while its offer was answered");
    }
    this.viewers.set(record.id, { resourceId, peer, createdAt: Date.now() });
    this.ensureWatchdog();
    return answer;
  }

  /** WHEP DELETE: close the viewer's peer connection (the session goes on). */
  async detachViewer(sessionId: string): Promise<void> {
    const viewer = this.viewers.get(sessionId);
    this.viewers.delete(sessionId);
    await viewer?.peer.close();
  }

  /** The session ended: close its peer and revoke its TURN user and allocations. */
  release(record: AvatarSessionRecord): void {
    void this.detachViewer(record.id);
    if (this.turnUsers.delete(record.id)) void this.relay?.then((relay) => relay.revoke(record.id));
  }

  /** What is held for a session right now (the emulator's inspection route and the tests read this). */
  async resourcesOf(sessionId: string): Promise<{ viewer: boolean; peerState: string | null; turnAllocations: number; media: WhepPeer["counters"] | null }> {
    const viewer = this.viewers.get(sessionId);
    const relay = this.relay ? await this.relay : undefined;
    return {
      viewer: viewer !== undefined,
      peerState: viewer ? viewer.peer.state : null,
      turnAllocations: relay ? relay.allocationsOf(sessionId) : 0,
      media: viewer ? { ...viewer.peer.counters } : null,
    };
  }

  /** Does the TURN server still accept this username (false once its session ended). */
  async turnUserActive(username: string): Promise<boolean> {
    return this.relay ? (await this.relay).hasUser(username) : false;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    this.watchdog = undefined;
    await Promise.all([...this.viewers.values()].map((viewer) => viewer.peer.close()));
    this.viewers.clear();
    const relay = this.relay;
    this.relay = undefined;
    if (relay) await (await relay.catch(() => undefined))?.close();
  }

  /** Sessions time out lazily (on access); the watchdog accesses those holding media so they end on time. */
  private ensureWatchdog(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => {
      const ids = new Set([...this.viewers.keys(), ...this.turnUsers]);
      if (ids.size === 0) {
        clearInterval(this.watchdog);
        this.watchdog = undefined;
        return;
      }
      for (const id of ids) this.sessions().get(id);
    }, WATCHDOG_MS);
    this.watchdog.unref();
  }
}

/**
 * The media address for an emulator listening on `host`: that address when it is a specific non-loopback IPv4;
 * otherwise the machine's first external IPv4 (browsers gather no loopback candidates of their own, and a peer
 * on the same box reaches it directly); 127.0.0.1 on a machine that has none.
 */
export function mediaAddress(host: string): string {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) && !host.startsWith("127.") && host !== "0.0.0.0") return host;
  for (const list of Object.values(networkInterfaces())) {
    const external = list?.find((net) => net.family === "IPv4" && !net.internal);
    if (external) return external.address;
  }
  return "127.0.0.1";
}
