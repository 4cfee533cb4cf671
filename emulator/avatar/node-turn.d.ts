/** The part of node-turn (pure-JavaScript STUN/TURN server, no types of its own) the emulator uses. */
declare module "node-turn" {
  import type { Socket } from "node:dgram";

  interface NodeTurnAllocation {
    user?: { username: string };
    sockets: Socket[];
    timer: NodeJS.Timeout;
    fiveTuple: string;
    relayedTransportAddress: { address: string; port: number };
  }

  interface NodeTurnOptions {
    listeningPort?: number;
    listeningIps?: string[];
    relayIps?: string[];
    minPort?: number;
    maxPort?: number;
    authMech?: "none" | "short-term" | "long-term";
    realm?: string;
    credentials?: Record<string, string>;
    debugLevel?: "OFF" | "FATAL" | "ERROR" | "WARN" | "INFO" | "DEBUG" | "TRACE" | "ALL";
    log?: (message: unknown) => void;
  }

  class NodeTurnServer {
    constructor(options?: NodeTurnOptions);
    allocations: Record<string, NodeTurnAllocation>;
    network: { sockets: Socket[] };
    start(): void;
    stop(): void;
    addUser(username: string, password: string): void;
    removeUser(username: string): void;
  }
  export = NodeTurnServer;
}
