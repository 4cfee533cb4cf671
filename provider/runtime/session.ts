/**
 * The provider process of this dynamic provider process (one per deployment: the engine starts one process per
 * run): the composition root's one binding. The engine's shims load the runtime and call `configure` and
 * `<runtimeExport>.<method>` on it with no object of their own to hold (a contract stored in every stack), so the
 * session lives in a module; every handler set of the runtime (providers.ts) runs its operations in it.
 */
import { ProviderProcess } from "../core/providerProcess";

export const session = new ProviderProcess();
