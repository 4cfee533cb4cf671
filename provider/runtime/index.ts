/**
 * The provider runtime: what the serialized shims load, by package name, inside the engine's dynamic provider
 * process. This module path (pulumi-svc/provider-runtime) is a stable contract: stacks store shims that
 * require it, so it must keep existing and keep these names across releases.
 */
import { flushCompileCache } from "./compileCache"; // first: what is loaded after it is compiled from the cache
export { configure } from "./clients";
export { appTokenProvider as appToken } from "./appTokenProvider";
export { templateProvider as httpNotificationTemplate } from "./templateProvider";

flushCompileCache();
