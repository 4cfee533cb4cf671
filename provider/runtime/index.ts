/**
 * The provider runtime: what the serialized shims load, by package name, inside the engine's dynamic provider
 * process. This module path (pulumi-svc/provider-runtime) is a stable contract: stacks store shims that require it,
 * so it must keep existing and keep these names (`configure`, and each definition's `runtimeExport`) across releases.
 *
 * It is the composition root of the dynamic provider: the process's one provider process (session.ts), the stack
 * config it is configured with, and its exit on the engine's SIGINT.
 */
import { flushCompileCache } from "./compileCache"; // first: what is loaded after it is compiled from the cache
import { exitAfterSettlingWhenStopped } from "../core/termination";
import { session } from "./session";

/** Called by the shims with the stack config (`configure(req.config)`), before any other method. */
export function configure(config: { get(key: string): string | undefined }, env: NodeJS.ProcessEnv = process.env): void {
  session.configure(config, env);
}

// One handler set per resource, exported under its definition's runtimeExport (generated from the definitions: `npm run generate`).
export * from "./providers";

// Loaded inside the engine's dynamic provider process: its SIGINT, or the engine's death (the end of the process's
// stdin), means the engine no longer takes answers, so creates in flight delete what they made before the exit
// (core/termination.ts). Its stdin is watched only where this process is @pulumi/pulumi's dynamic provider host.
exitAfterSettlingWhenStopped(session.termination, { engineStdin: inDynamicProviderHost() });

function inDynamicProviderHost(): boolean {
  return /[\\/]cmd[\\/]dynamic-provider[\\/]/.test(require.main?.filename ?? "");
}

flushCompileCache();
