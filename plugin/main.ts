/**
 * Entry of `pulumi-resource-svc`: the engine starts it with its own address, reads the port printed on stdout, and
 * talks gRPC to it for the whole operation. Started by the launcher beside it (bin/pulumi-resource-svc).
 */
import * as nodeModule from "node:module";
import type { SdkLoader } from "../provider/core/clients";
import { ProviderProcessCore } from "../provider/core/providerProcessCore";
import { exitAfterSettlingWhenStopped } from "../provider/core/termination";
import { EngineLog, engineAddressOf } from "./engineLog";
import { serveProvider } from "./providerMethods";
import { ProviderServer } from "./providerServer";
import { PLUGIN_VERSION } from "../provider/core/pluginRelease";

async function main(): Promise<void> {
  // Diagnostics go to the engine that started us (its address is our argument), attached to each resource's URN;
  // SVC_ENGINE_LOG=off sends none (the bench's baseline; the events file does not depend on it).
  const engineAddress = engineAddressOf(process.argv.slice(2));
  const diagnostics = engineAddress && process.env.SVC_ENGINE_LOG !== "off" ? new EngineLog(engineAddress) : undefined;
  // The process's one provider process: what every request of the engine shares (clients, Cancel, diagnostics scope).
  const session = new ProviderProcessCore(loadSdk);
  // The engine's SIGINT, or its death (our stdin's end), means it no longer takes answers: creates in flight delete
  // what they made before the exit.
  exitAfterSettlingWhenStopped(session.termination, { engineStdin: true });
  const handlers = new ProviderServer(loadRuntime, PLUGIN_VERSION, diagnostics, session).service();
  const { port } = await serveProvider(handlers);
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
  // The engine ends the plugin with a signal, before Node's own write of the compile cache at exit: write it now.
  (nodeModule as { flushCompileCache?: () => void }).flushCompileCache?.();
}

/**
 * The definitions and their runtime, required at the first request about a resource, not imported: the bundle
 * evaluates them then, and Configure does not need them. (This file runs compiled only, where `require` is Node's.)
 */
function loadRuntime(session: ProviderProcessCore, version: string) {
  const { DEFINITIONS } = require("../provider/definitions") as typeof import("../provider/definitions");
  const { resourceRuntime } = require("./resourceRuntime") as typeof import("./resourceRuntime");
  return resourceRuntime(DEFINITIONS, session, version);
}

/**
 * The sdk's client, required at the first client (the first platform call), not imported: Configure does not need
 * it. The same module the definitions import (the bundle holds one of each), so its error classes are theirs.
 */
const loadSdk: SdkLoader = () => require("../sdk/svcClient") as typeof import("../sdk/svcClient");

main().catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-svc: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
