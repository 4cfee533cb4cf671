/**
 * The engine's own log service, as Pulumi's providers use it: the engine starts a plugin with its address as the
 * argument (after any `--logtostderr`, `-v=N` and `--tracing <url>` flags, as @pulumi/pulumi's provider runtime
 * parses them), and a provider logs by calling `pulumirpc.Engine/Log` there with the resource's URN. The engine
 * shows info and warnings with the resource in `pulumi up` and writes debug lines to its log (`-v=9 --logflow`).
 */
import type * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import type { DiagnosticsSink, OperationLog, Severity } from "../provider/core/operationLog";
import { GrpcUnaryCaller } from "./grpcUnaryCall";
import type { Handler } from "./providerMethods";

const SEVERITY: Record<Severity, engproto.LogSeverity> = {
  debug: engproto.LogSeverity.DEBUG,
  info: engproto.LogSeverity.INFO,
  warning: engproto.LogSeverity.WARNING,
};

/** A log line waits this long for the engine at most: an engine that stopped answering never holds an operation. */
const LOG_DEADLINE_MS = 5_000;

/** The engine's address among the plugin's arguments (the first one that is not a flag), or undefined. */
export function engineAddressOf(args: readonly string[]): string | undefined {
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--tracing") {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    positional.push(arg);
  }
  return positional[0];
}

/** The Engine service's Log method, as the stubs name it (its type checks the path). */
const LOG_PATH: (typeof engrpc.EngineService)["log"]["path"] = "/pulumirpc.Engine/Log";

export class EngineLog implements DiagnosticsSink {
  private readonly engine: GrpcUnaryCaller;

  constructor(address: string) {
    this.engine = new GrpcUnaryCaller(address);
  }

  /** Sends one line; resolves when the engine took it or refused it (a log line never fails an operation). */
  log(severity: Severity, message: string, urn: string): Promise<void> {
    const request = new engproto.LogRequest().setSeverity(SEVERITY[severity]).setMessage(message).setUrn(urn);
    return this.engine.call(LOG_PATH, request.serializeBinary(), LOG_DEADLINE_MS).then(
      () => undefined,
      () => undefined,
    );
  }

  close(): void {
    this.engine.close();
  }
}

/**
 * A gRPC handler of a resource operation run as one diagnostics scope of `log` (the server's provider process's):
 * what it reports is attached to the request's
 * URN, and the answer goes back once the engine has its lines (so they are shown with the step, not after it).
 * Without a sink (no engine address), the handler as it is.
 */
export function withDiagnostics<R extends { getUrn(): string }, V>(
  log: OperationLog,
  sink: DiagnosticsSink | undefined,
  name: string,
  handler: Handler<R, V>,
): Handler<R, V> {
  if (!sink) return handler;
  return (call, callback) =>
    log.run(sink, call.request.getUrn(), name, (finish) =>
      handler(call, (error, value) => {
        void finish().then(() => callback(error, value));
      }),
    );
}
