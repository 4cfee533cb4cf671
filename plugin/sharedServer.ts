/**
 * The shared mode of `pulumi-resource-svc` (`--shared`): one process serves every svc provider of a Pulumi operation.
 * The engine attaches to it instead of starting a process per provider when PULUMI_DEBUG_PROVIDERS names its port
 * (`pulumi-svc shared`, provider/cli/shared.ts): each provider instance dials its own connection, calls Attach with
 * the engine's address, then Configure and the rest, and at its end Cancel and closes its connection.
 *
 * So each connection is one provider: its own server and provider process (account, clients, Cancel, ledger,
 * diagnostics), made when it opens; only the connection to the engine's log service is the process's, one per
 * engine address (engineLogPool.ts). Its close is what the engine's SIGINT is to a process of its own
 * (provider/core/termination.ts): creates in flight then mean a terminated run, and are rolled back the same way.
 * The process ends when the one that started it closes its stdin or dies (no orphan outlives the run), or at
 * SIGINT/SIGTERM: every connection still open is settled the same way first.
 */
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { EXIT_BUDGET_MS } from "../provider/core/operationLifetime";
import type { SdkLoader } from "../provider/core/clients";
import { ProviderProcessCore } from "../provider/core/providerProcessCore";
import { reportLeftBehind, whenStdinEnds } from "../provider/core/termination";
import { type DiagnosticsSink, OperationLog, type Severity } from "../provider/core/operationLog";
import { type EngineLogLease, EngineLogPool } from "./engineLogPool";
import { GrpcError, Status } from "./grpcWire";
import { type ProviderHandlers, type Handler, type Reply, serveProviderPerConnection } from "./providerMethods";
import { ProviderServer, type RuntimeLoader } from "./providerServer";

/**
 * The engine's log service of one connection, known once the engine has called Attach with its address: a lease of
 * the process's log to that address (engineLogPool.ts), shared with the other connections of the same engine.
 */
class AttachedEngineLog implements DiagnosticsSink {
  private engine?: EngineLogLease;

  constructor(private readonly pool: EngineLogPool) {}

  attach(address: string): void {
    this.engine?.release();
    this.engine = process.env.SVC_ENGINE_LOG !== "off" && address ? this.pool.lease(address) : undefined;
  }

  log(severity: Severity, message: string, urn: string): Promise<void> {
    return this.engine ? this.engine.log.log(severity, message, urn) : Promise.resolve();
  }

  close(): void {
    this.engine?.release();
    this.engine = undefined;
  }
}

function notConfigured(): GrpcError {
  return new GrpcError(
    Status.FAILED_PRECONDITION,
    "this connection to the shared pulumi-resource-svc was not configured (the engine reconnected after its connection dropped); run the command again",
  );
}

/** One provider instance of the engine: what its connection is served by. */
class Connection {
  readonly provider: ProviderProcessCore;
  private readonly engineLog: AttachedEngineLog;
  readonly handlers: ProviderHandlers;
  private settled?: Promise<void>;
  private configured = false;

  constructor(loadRuntime: RuntimeLoader, version: string, loadSdk: SdkLoader, engineLogs: EngineLogPool, diagnostics: OperationLog) {
    this.engineLog = new AttachedEngineLog(engineLogs);
    this.provider = new ProviderProcessCore(loadSdk, { diagnostics });
    const service = new ProviderServer(loadRuntime, version, this.engineLog, this.provider).service();
    this.handlers = {
      ...service,
      // An attaching engine sends its address here (a process it starts gets it as its argument).
      attach: (call: { request: plugproto.PluginAttach }, reply: Reply<emptyproto.Empty>) => {
        this.engineLog.attach(call.request.getAddress());
        reply(null, new emptyproto.Empty());
      },
      configure: (call, reply) =>
        service.configure(call, (error, value) => {
          this.configured ||= !error;
          reply(error, value);
        }),
      check: this.configuredOnly(service.check),
      diff: this.configuredOnly(service.diff),
      create: this.configuredOnly(service.create),
      read: this.configuredOnly(service.read),
      update: this.configuredOnly(service.update),
      delete: this.configuredOnly(service.delete),
      invoke: this.configuredOnly(service.invoke),
    };
  }

  /**
   * A method that acts on an account, refused on a connection not configured yet. The engine configures each
   * provider before its first such call, on the connection it dialed; a call without it would come from an engine
   * that reconnected (its gRPC client opens a new connection after one dropped), and must not fall back on the
   * environment's account (SVC_*) instead of the provider's.
   */
  private configuredOnly<Req, Res>(handler: Handler<Req, Res>): Handler<Req, Res> {
    return (call, reply) => (this.configured ? handler(call, reply) : reply(notConfigured()));
  }

  /** The connection's end: a terminated run's creates roll back (termination.ts), then its clients close. */
  settle(): Promise<void> {
    this.settled ??= this.provider.termination
      .settleBeforeExit()
      .then(({ leftBehind }) => reportLeftBehind(leftBehind))
      .finally(() => {
        this.engineLog.close();
        return this.provider.close();
      });
    return this.settled;
  }
}

/** How long a stopping process waits for its connections' goodbyes once every connection has settled. */
const CLOSE_GRACE_MS = 1_000;

export interface SharedServer {
  port: number;
  /** Connections opened so far (each one provider instance of the engine, or one of its look-ups). */
  connectionsServed(): number;
  /** Stops taking connections, settles those open (as at their close), and resolves when all are settled. */
  stop(): Promise<void>;
}

/** `loadSdk`: the sdk each connection's provider makes its clients with, called at its first client (as main's). */
export async function serveShared(loadRuntime: RuntimeLoader, version: string, loadSdk: SdkLoader): Promise<SharedServer> {
  const open = new Set<Connection>();
  const settling = new Set<Promise<void>>();
  // One connection to each engine's log service for all the connections attached to it.
  const engineLogs = new EngineLogPool();
  // One diagnostics scope for every connection's operations (each operation carries its own sink and URN).
  const diagnostics = new OperationLog();
  let served = 0;
  const running = await serveProviderPerConnection(() => {
    const connection = new Connection(loadRuntime, version, loadSdk, engineLogs, diagnostics);
    open.add(connection);
    served++;
    return {
      handlers: connection.handlers,
      close: () => {
        open.delete(connection);
        const settled = connection.settle();
        settling.add(settled);
        void settled.finally(() => settling.delete(settled));
      },
    };
  });
  return {
    port: running.port,
    connectionsServed: () => served,
    async stop() {
      const closed = running.close();
      await Promise.allSettled([...[...open].map((connection) => connection.settle()), ...settling]);
      // Settled: what an answer still on its way would say is no longer needed, so a peer's slow goodbye holds nothing.
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
    },
  };
}

/**
 * The shared process's end: when stdin ends (the runner closed it, or died: its end of the pipe closed with it) or at
 * SIGINT/SIGTERM, every connection is settled, then the process exits.
 */
export function exitWhenParentGoes(server: SharedServer): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Settling is bounded by the exit budget (termination.ts); past it and a little more, the process goes regardless.
    setTimeout(() => process.exit(0), EXIT_BUDGET_MS + CLOSE_GRACE_MS + 1_000).unref();
    void server.stop().finally(() => process.exit(0));
  };
  whenStdinEnds(stop);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
