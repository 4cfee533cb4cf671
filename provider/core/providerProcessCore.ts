/**
 * Everything one provider process keeps between operations, in one object its entry point makes: the dynamic
 * provider runtime makes one for the process (provider/runtime/index.ts), the plugin one per server
 * (plugin/server.ts), the takeover command one per run (provider/cli/main.ts), and a test one per test. It holds the
 * stack config and the sdk client of each connection (clients.ts), the deadline and Cancel of its operations
 * (operationLifetime.ts), the managed ids and creates in flight of create recovery (createLedger.ts), the creates a
 * termination deletes (termination.ts) and the diagnostics scope (operationLog.ts); and it builds the context each
 * operation is handed (`contextFor`). The sdk comes from a loader, called at the first client: the plugin's main
 * requires it then (a process that has answered only Configure has not loaded it); ProviderProcess
 * (providerProcess.ts) is this with the sdk imported, for every other entry point and the tests.
 */
import { stripUserinfo } from "../../contract/urlUserinfo";
import { ClientCache, type SdkLoader } from "./clients";
import type { ConnectionInput } from "./connectionInput";
import type { AccountChoice } from "./namedAccounts";
import { CreateLedger } from "./createLedger";
import type { OperationContext } from "./operationContext";
import { OperationLifetime } from "./operationLifetime";
import { OperationLog } from "./operationLog";
import { noteTransportEvent } from "./telemetry";
import { Termination } from "./termination";

export interface ProviderProcessOptions {
  /** The deadline of each operation (default OPERATION_DEADLINE_MS; tests give a short one). */
  operationDeadlineMs?: number;
}

export class ProviderProcessCore {
  readonly diagnostics: OperationLog;
  readonly lifetime: OperationLifetime;
  readonly clients: ClientCache;
  readonly ledger = new CreateLedger();
  readonly termination: Termination;

  constructor(sdk: SdkLoader, options: ProviderProcessOptions = {}) {
    this.diagnostics = new OperationLog();
    this.lifetime = new OperationLifetime(options.operationDeadlineMs);
    this.clients = new ClientCache({
      sdk,
      callTimeoutMs: this.lifetime.deadlineMs,
      onEvent: (event) => noteTransportEvent(this.diagnostics, event),
    });
    this.termination = new Termination(
      () => this.lifetime.terminate(),
      this.diagnostics.diagnose,
      () => this.lifetime.endUntil(Number.POSITIVE_INFINITY),
    );
  }

  /** The stack config (the dynamic provider's configure(req), the plugin's Configure) and the environment. */
  configure(config: { get(key: string): string | undefined }, env: NodeJS.ProcessEnv = process.env): void {
    this.clients.configure(config, env);
  }

  /**
   * The context of an operation on the account `connection` reaches (the provider's own when undefined), ended by
   * `signal` (by default the operation's deadline or Cancel).
   */
  contextFor(connection: ConnectionInput | undefined, signal: AbortSignal = this.lifetime.signal()): OperationContext {
    return this.contextOfChoice(connection ? { connection } : {}, signal);
  }

  /**
   * The context of an operation on the account `choice` picks: a named account, a connection, or (neither) the
   * provider's own. Each account has its own client, and with it its own session.
   */
  contextOfChoice(choice: AccountChoice, signal: AbortSignal = this.lifetime.signal()): OperationContext {
    const client = this.clients.clientFor(choice);
    return {
      client,
      signal,
      serverNowMs: () => this.clients.serverNowMs(client),
      log: this.diagnostics.diagnose,
      // The client's own account: the connection was resolved once, for the client.
      accountName: accountName(client),
      ledger: this.ledger,
      requestTimeoutMs: this.clients.requestTimeoutMs(client),
      interruption: this.lifetime,
    };
  }

  /** The account `choice` reaches, as a message names it: partner and host, never a URL's userinfo. */
  accountNameOf(choice: AccountChoice): string {
    const account = this.clients.accountOf(choice);
    return account ? accountName(account) : "the configured account";
  }

  /** Cancel every operation in flight and every later one (the plugin's Cancel). */
  cancel(): void {
    this.lifetime.cancel();
  }

  /** Closes the session's clients (a test's end; a process that exits need not). */
  close(): Promise<void> {
    return this.clients.close();
  }
}

/** An account as a message names it: partner and host, never a URL's userinfo. */
function accountName({ partnerId, baseUrl }: { partnerId: number; baseUrl: string }): string {
  return `partner ${partnerId} at ${stripUserinfo(baseUrl)}`;
}
