/**
 * The provider runtime: what the serialized shims load, by package name, inside the engine's dynamic provider
 * process. This module path (pulumi-svc/provider-runtime) is a stable contract: stacks store shims that require it,
 * so it must keep existing and keep these names (`configure`, and one handler set per resource `kind`) across releases.
 */
import { flushCompileCache } from "./compileCache"; // first: what is loaded after it is compiled from the cache
import { appToken as appTokenDefinition, DEFINITIONS, httpNotificationTemplate as templateDefinition } from "../definitions";
import { handlersFor } from "../definitions/handlers";
import { exitAfterSettlingOnSigint } from "../core/termination";

export { configure } from "../core/clients";
/** The dynamic provider of AppToken (shims call `runtime.appToken.<method>`). */
export const appToken = handlersFor(appTokenDefinition);
/** The dynamic provider of HttpNotificationTemplate. */
export const httpNotificationTemplate = handlersFor(templateDefinition);

// Every other resource under its kind (the two above are named: stored shims and typed imports rely on them).
for (const definition of DEFINITIONS) {
  if (!(definition.kind in module.exports)) module.exports[definition.kind] = handlersFor(definition);
}

// Loaded inside the engine's dynamic provider process: its SIGINT means the engine no longer takes answers, so
// creates in flight delete what they made before the exit (core/termination.ts).
exitAfterSettlingOnSigint();

flushCompileCache();
