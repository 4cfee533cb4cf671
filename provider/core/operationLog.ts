/**
 * Diagnostics of one provider operation (a create, an update, a read...), attached to the resource it is for.
 *
 * The scope is an AsyncLocalStorage of the provider process, entered once per operation by the plugin, not a logger
 * passed down to every line: retries and slow calls are reported by the sdk client's event hook, and one client (one
 * connection pool, one concurrency limit) serves every resource of the process; the hook runs in the async context of
 * the request that caused it, so the scope names the right URN even with many operations in flight. Definitions write
 * their own lines through `ctx.log`, which is `OperationLog.diagnose`. Outside a scope (the dynamic provider, unit
 * tests of the definitions) nothing is sent.
 *
 * Every message goes through the sdk's redaction before it leaves, whatever its sink.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { redact } from "../../sdk/core/redact";

export type Severity = "debug" | "info" | "warning";

/** One line of diagnostics on the current operation's resource (what `ctx.log` is). */
export type LogLine = (severity: Severity, message: string) => void;

/** Where the lines go (the engine's log service, in the plugin). A sink never throws and never fails an operation. */
export interface DiagnosticsSink {
  log(severity: Severity, message: string, urn: string): Promise<void>;
}

interface Operation {
  sink: DiagnosticsSink;
  urn: string;
  name: string;
  startedAt: number;
  /** Lines sent and not yet acknowledged: the operation answers the engine after them, so they are shown with it. */
  pending: Set<Promise<void>>;
  requests: number;
  retries: number;
}

/**
 * A process holds one, whatever number of accounts it serves (Node 22 runs every AsyncLocalStorage's hook at each
 * promise and resource made, so a storage per account would make each of them cost as many times as there are
 * accounts). An operation's lines reach its own sink: the store is the operation, with its sink.
 */
export class OperationLog {
  private readonly scope = new AsyncLocalStorage<Operation>();
  /**
   * Runs `run` as the operation `name` on the resource `urn`: diagnostics raised inside it (at any await depth) go to
   * `sink` with that URN. `finish` sends the operation's summary (debug) and waits for every line to be sent.
   */
  run<T>(sink: DiagnosticsSink, urn: string, name: string, run: (finish: () => Promise<void>) => T): T {
    const operation: Operation = { sink, urn, name, startedAt: performance.now(), pending: new Set(), requests: 0, retries: 0 };
    const finish = async (): Promise<void> => {
      if (operation.requests > 0) {
        const ms = Math.round(performance.now() - operation.startedAt);
        const retries = operation.retries === 1 ? "1 retry" : `${operation.retries} retries`;
        send(operation, "debug", `${name}: ${operation.requests} API request${operation.requests === 1 ? "" : "s"}, ${retries}, ${ms} ms`);
      }
      await Promise.all([...operation.pending]);
    };
    return this.scope.run(operation, () => run(finish));
  }

  /** Reports `message` on the current operation's resource; a no-op outside an operation. */
  readonly diagnose: LogLine = (severity, message) => {
    const operation = this.scope.getStore();
    if (operation) send(operation, severity, message);
  };

  /** Counts an API request (an attempt) and a retry of the current operation, for its summary line. */
  countRequest(kind: "request" | "retry"): void {
    const operation = this.scope.getStore();
    if (!operation) return;
    if (kind === "request") operation.requests++;
    else operation.retries++;
  }
}

function send(operation: Operation, severity: Severity, message: string): void {
  let sent: Promise<void>;
  try {
    sent = operation.sink.log(severity, redact(message), operation.urn).catch(() => undefined);
  } catch {
    return; // diagnostics never fail an operation
  }
  operation.pending.add(sent);
  void sent.then(() => operation.pending.delete(sent));
}
