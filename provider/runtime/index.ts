/**
 * The provider runtime: what the serialized shims load, by package name, inside the engine's dynamic provider
 * process. This module path (pulumi-svc/provider-runtime) is a stable contract: stacks store shims that require it,
 * so it must keep existing and keep these names (`configure`, and one handler set per resource `kind`) across releases.
 *
 * It is the composition root of the dynamic provider: the process's one provider session is made here, and every
 * handler set below runs its operations in it.
 */
import { flushCompileCache } from "./compileCache"; // first: what is loaded after it is compiled from the cache
import { appToken as appTokenDefinition, DEFINITIONS, httpNotificationTemplate as templateDefinition } from "../definitions";
import { handlersFor } from "./handlers";
import { ProviderSession } from "../core/providerSession";
import { exitAfterSettlingOnSigint } from "../core/termination";

/** The session of this dynamic provider process (one per deployment: the engine starts one process per run). */
const session = new ProviderSession();

/** Called by the shims with the stack config (`configure(req.config)`), before any other method. */
export function configure(config: { get(key: string): string | undefined }, env: NodeJS.ProcessEnv = process.env): void {
  session.configure(config, env);
}
/** The dynamic provider of AppToken (shims call `runtime.appToken.<method>`). */
export const appToken = handlersFor(appTokenDefinition, session);
/** The dynamic provider of HttpNotificationTemplate. */
export const httpNotificationTemplate = handlersFor(templateDefinition, session);

// Every other resource under its kind (the two above are named: stored shims and typed imports rely on them).
for (const definition of DEFINITIONS) {
  if (!(definition.kind in module.exports)) module.exports[definition.kind] = handlersFor(definition, session);
}

// Loaded inside the engine's dynamic provider process: its SIGINT means the engine no longer takes answers, so
// creates in flight delete what they made before the exit (core/termination.ts).
exitAfterSettlingOnSigint(session.termination);

flushCompileCache();
