/**
 * What one provider operation (a create, a read, an update, a delete, a list, a function's lookup) works with,
 * handed to the definition by its caller, as pulumi-go-provider's `infer` passes `ctx`: the sdk client of the
 * account the operation acts on, the signal that ends it, the platform's clock and the operation's diagnostics. A
 * definition reads nothing of the process around it, so following a create from a program to the HTTP request is
 * plain go-to-definition: handlers build the context, the definition calls `ctx.client`.
 */
import type { SvcClient } from "../../sdk";
import type { ConnectionInput } from "./connectionInput";
import { accountOf, clientFor, operationSignal, serverNowMs } from "./clients";
import { diagnose, type Severity } from "./operationLog";
import { stripUserinfo } from "../../contract/urlUserinfo";

export interface OperationContext {
  /** The sdk client of the account this operation acts on (its connection resolved). */
  readonly client: SvcClient;
  /** Aborted by Cancel or by the operation's deadline; every call of the operation passes it on. */
  readonly signal: AbortSignal;
  /** The platform's clock now (ms), from the Date header of the client's latest answer; undefined before any. */
  serverNowMs(): number | undefined;
  /** A line of diagnostics on the operation's resource (the engine's log in the plugin; nowhere otherwise). */
  log(severity: Severity, message: string): void;
  /** The account searched, as a message names it: partner and host, never a URL's userinfo. */
  readonly accountName: string;
}

/** The context of an operation on the account `connection` reaches (the provider's own when undefined). */
export function operationContext(connection: ConnectionInput | undefined, signal: AbortSignal = operationSignal()): OperationContext {
  const client = clientFor(connection);
  const account = accountOf(connection);
  return {
    client,
    signal,
    serverNowMs: () => serverNowMs(client),
    log: diagnose,
    accountName: account ? `partner ${account.partnerId} at ${stripUserinfo(account.baseUrl)}` : "the configured account",
  };
}
