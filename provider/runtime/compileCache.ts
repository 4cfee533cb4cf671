/**
 * The engine starts a new dynamic provider process for every `pulumi up`, `preview`, `refresh` and `destroy`, and
 * each one compiles this runtime, the sdk, undici and zod again (about 250 modules). Node's on-disk compile cache
 * (`module.enableCompileCache`, in the OS temp dir, keyed by file content; NODE_DISABLE_COMPILE_CACHE=1 turns it off)
 * lets every process after the first skip most of that. Imported first by the runtime's entry point, so that what the
 * entry point loads next is cached; flushed once it is loaded, because the engine ends the provider process with a
 * signal, before Node's own write at exit.
 */
import * as nodeModule from "node:module";

const cache = nodeModule as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };

try {
  cache.enableCompileCache?.();
} catch {
  // A cache that cannot be set up (read-only temp dir, say) only costs time.
}

export function flushCompileCache(): void {
  try {
    cache.flushCompileCache?.();
  } catch {
    // As above: best effort.
  }
}
