/**
 * The plugin's resource runtime: what its methods about resources and functions need (the definitions' handlers by
 * type, the functions, the package schema), built from the definitions. The plugin's main requires this module at
 * the first request about a resource, so its imports (the definitions, the runtime's handlers, the schema's
 * generation) are not evaluated by a process that answers only Configure (test/plugin/startupModules.test.ts).
 */
import type { ProviderProcessCore } from "../provider/core/providerProcessCore";
import type { ResourceDefinition } from "../provider/definitions/define";
import { FunctionInvoker } from "./invoke";
import { packageSchema } from "./schema";
import { ServedResources } from "./servedResources";

export interface ResourceRuntime {
  resources: ServedResources;
  invoker: FunctionInvoker;
  /** The package schema as GetSchema sends it: made at the first GetSchema (most operations never ask for it). */
  schema(): string;
}

export function resourceRuntime(definitions: readonly ResourceDefinition[], session: ProviderProcessCore, version: string): ResourceRuntime {
  let schemaText: string | undefined;
  return {
    resources: new ServedResources(definitions, session),
    invoker: new FunctionInvoker(session),
    schema: () => (schemaText ??= JSON.stringify(packageSchema(definitions, version))),
  };
}
