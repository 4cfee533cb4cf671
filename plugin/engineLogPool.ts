/**
 * The engine's log service as the shared process's connections (sharedServer.ts) reach it: one EngineLog, so one
 * http2 connection, per engine address, leased by every connection attached to it, instead of one per provider
 * instance. With many accounts (one provider, so one connection, each) the connections to the engine, their
 * handshakes and sockets no longer grow with the accounts. Each line still carries its resource's URN, so where it
 * is shown does not depend on which connection sent it. Closed when its last lease ends.
 */
import { EngineLog } from "./engineLog";

export interface EngineLogLease {
  readonly log: EngineLog;
  /** Ends this lease (again: nothing more); the last one closes the engine's connection. */
  release(): void;
}

export class EngineLogPool {
  private readonly logs = new Map<string, { log: EngineLog; leases: number }>();

  constructor(private readonly open: (address: string) => EngineLog = (address) => new EngineLog(address)) {}

  lease(address: string): EngineLogLease {
    let entry = this.logs.get(address);
    if (!entry) this.logs.set(address, (entry = { log: this.open(address), leases: 0 }));
    entry.leases++;
    const leased = entry;
    let released = false;
    return {
      log: leased.log,
      release: () => {
        if (released) return;
        released = true;
        if (--leased.leases > 0) return;
        leased.log.close();
        if (this.logs.get(address) === leased) this.logs.delete(address);
      },
    };
  }

  /** The engine addresses with an open log (each one connection). */
  addresses(): string[] {
    return [...this.logs.keys()];
  }
}
