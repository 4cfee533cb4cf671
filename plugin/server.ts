/**
 * The native plugin's server for given definitions, its runtime built at once (their types are checked here): what
 * tests and the bench's no-op plugin serve. The plugin process itself (main.ts) runs ProviderServer with a runtime
 * required at its first request about a resource (providerServer.ts, resourceRuntime.ts).
 */
import type { DiagnosticsSink } from "../provider/core/operationLog";
import { ProviderProcess } from "../provider/core/providerProcess";
import type { ResourceDefinition } from "../provider/definitions/define";
import { ProviderServer } from "./providerServer";
import { resourceRuntime } from "./resourceRuntime";

export class SvcProviderServer extends ProviderServer {
  constructor(definitions: readonly ResourceDefinition[], version: string, diagnostics?: DiagnosticsSink, session: ProviderProcess = new ProviderProcess()) {
    const runtime = resourceRuntime(definitions, session, version);
    super(() => runtime, version, diagnostics, session);
  }
}
