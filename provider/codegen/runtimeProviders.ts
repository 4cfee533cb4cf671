/**
 * The dynamic provider runtime's exports, one per resource, as TypeScript source (`npm run generate`): the names
 * the stored shims call (`runtime.<runtimeExport>.<method>`), each the handlers of its definition, so go to definition goes
 * from the export to its definition and its handlers. Written in the lint's own format: it lives beside the runtime
 * (provider/runtime/), which imports it, rather than in provider/generated/.
 */
import type { ResourceDefinition } from "../definitions/define";

export const RUNTIME_PROVIDERS_FILE = "provider/runtime/providers.ts";

export function runtimeProvidersModule(definitions: readonly ResourceDefinition[]): string {
  const exports = definitions.map(
    (definition) =>
      `/** The dynamic provider of ${definition.type} (shims call \`runtime.${definition.runtimeExport}.<method>\`). */\nexport const ${definition.runtimeExport} = new DefinitionHandlers(RESOURCES.${definition.type}, session);\n`,
  );
  return `// Generated from the resource definitions by \`npm run generate\`: do not edit.
/**
 * The dynamic providers of the runtime, one per resource: the names stored shims call, which never change. Each
 * is the handlers of its definition, run in the process's provider process (session.ts).
 */
import { RESOURCES } from "../definitions";
import { DefinitionHandlers } from "./handlers";
import { session } from "./session";

${exports.join("\n")}`;
}
