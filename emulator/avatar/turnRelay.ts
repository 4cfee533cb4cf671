/**
 * The emulator's TURN server (node-turn, pure JavaScript, UDP, long-term credentials) for init-client's `turn`
 * configuration. Each avatar session gets its own username (`<expiry>:<sessionId>`, the TURN REST form) and a
 * random credential; ending the session removes the user and closes its allocations (relay sockets included),
 * so a session's relay dies with it. Listens and relays on the emulator's host (127.0.0.1 by default).
 */
import { randomBytes } from "node:crypto";
import { createSocket } from "node:dgram";
import type NodeTurnServer from "node-turn";
import { requireOptional } from "../shared/optionalPackages";
import { isAddressInUse, startOnChosenPort } from "../shared/portRetry";

export type TurnCredentials = {
  url: string;
  username: string;
  credential: string;
};

export interface TurnRelayOptions {
  host?: string;
  /** The address relayed traffic leaves from (the WHEP peers' address; default: host). */
  relayAddress?: string;
  /** UDP port; 0 or absent picks a free one. */
  port?: number;
  /** How a free UDP port is picked when `port` is 0 or absent (tests inject one that returns a taken port first). */
  choosePort?: (host: string) => Promise<number>;
}

export const TURN_REALM = "svc-emulator";

export class TurnRelay {
  private constructor(
    private readonly server: NodeTurnServer,
    readonly host: string,
    readonly port: number,
  ) {}

  static async start(options: TurnRelayOptions = {}): Promise<TurnRelay> {
    const host = options.host && options.host !== "0.0.0.0" && !options.host.includes(":") ? options.host : "127.0.0.1";
    // node-turn is an optional peer dependency, loaded here and only here (emulator/shared/optionalPackages.ts).
    const Server = requireOptional<typeof NodeTurnServer>("node-turn", "The emulator's TURN relay (avatar media)");
    const listen = async (port: number): Promise<TurnRelay> => {
      const server = new Server({
        listeningPort: port,
        listeningIps: [host],
        relayIps: [options.relayAddress ?? host],
        authMech: "long-term",
        realm: TURN_REALM,
        credentials: {},
        debugLevel: process.env.SVC_TURN_DEBUG ? "TRACE" : "OFF",
        log: process.env.SVC_TURN_DEBUG ? (line) => console.error("[turn]", String(line)) : () => {},
      });
      server.start();
      await new Promise<void>((resolve, reject) => {
        const socket = server.network.sockets[0];
        if (!socket) return reject(new Error("TURN server opened no socket"));
        socket.once("listening", () => resolve());
        socket.once("error", (error) => {
          server.stop(); // the failed socket's handle, so a retry leaves nothing open
          reject(error);
        });
      });
      return new TurnRelay(server, host, port);
    };
    if (options.port) return listen(options.port);
    // node-turn cannot bind port 0 (it reads 0 as its default, 3478): a free port is chosen, and chosen again when
    // another process took it before node-turn bound it.
    return startOnChosenPort({
      what: "the TURN relay",
      choosePort: () => (options.choosePort ?? freeUdpPort)(host),
      start: listen,
      isPortTaken: isAddressInUse,
    });
  }

  get url(): string {
    return `turn:${this.host}:${this.port}?transport=udp`;
  }

  /** A per-session user valid until `expiresAtMs` at the latest (and only until the session ends). */
  issue(sessionId: string, expiresAtMs: number): TurnCredentials {
    const username = `${Math.floor(expiresAtMs / 1000)}:${sessionId}`;
    const credential = randomBytes(16).toString("base64url");
    this.server.addUser(username, credential);
    return { url: this.url, username, credential };
  }

  hasUser(username: string): boolean {
    return username in this.users();
  }

  /** Remove the session's users and close their allocations. Returns how many allocations were closed. */
  revoke(sessionId: string): number {
    const mine = (username: string | undefined) => username?.endsWith(`:${sessionId}`);
    for (const username of Object.keys(this.users())) if (mine(username)) this.server.removeUser(username);
    let closed = 0;
    for (const [key, allocation] of Object.entries(this.server.allocations)) {
      if (!mine(allocation.user?.username)) continue;
      this.closeAllocation(key);
      closed++;
    }
    return closed;
  }

  /** Open allocations per session id (for tests and the emulator's inspection route). */
  allocationsOf(sessionId: string): number {
    return Object.values(this.server.allocations).filter((a) => a.user?.username.endsWith(`:${sessionId}`)).length;
  }

  get allocationCount(): number {
    return Object.keys(this.server.allocations).length;
  }

  async close(): Promise<void> {
    for (const key of Object.keys(this.server.allocations)) this.closeAllocation(key);
    const sockets = this.server.network.sockets;
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            try {
              socket.close(() => resolve());
            } catch {
              resolve();
            }
          }),
      ),
    );
  }

  /** node-turn keeps its long-term users in authentification.credentials (username -> password). */
  private users(): Record<string, string> {
    return (this.server as unknown as { authentification: { credentials: Record<string, string> } }).authentification.credentials;
  }

  private closeAllocation(key: string): void {
    const allocation = this.server.allocations[key];
    if (!allocation) return;
    clearTimeout(allocation.timer);
    for (const socket of allocation.sockets) {
      try {
        socket.close();
      } catch {
        // already closed
      }
    }
    delete this.server.allocations[key];
  }
}

function freeUdpPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createSocket("udp4");
    probe.once("error", reject);
    probe.bind(0, host, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
