/**
 * The field table of the dynamic resources: each resource's input and output names and its secret ones, as a plain
 * module. Programs construct resources from it without loading zod, the sdk or the runtime (the definitions'
 * modules), which would cost every `pulumi up` of a program (docs/bench.md). Rendered by `npm run generate`.
 */
import { SECRET_SETTINGS } from "../core/settings";
import { ACCOUNTS_SETTING } from "../core/namedAccounts";
import { requiredInputs } from "./argsTypes";
import { fieldsOf, type ResourceDefinition } from "../definitions/define";
import type { ResourceFields } from "../resources/resourceFields";

export function fieldTable(definitions: readonly ResourceDefinition[]): Record<string, ResourceFields> {
  return Object.fromEntries(
    definitions.map((definition) => {
      const fields = fieldsOf(definition);
      return [
        definition.type,
        {
          runtimeExport: definition.runtimeExport,
          inputs: fields.inputKeys,
          outputs: fields.outputKeys,
          secrets: fields.secrets,
          deprecated: fields.deprecated,
          required: requiredInputs(definition.inputs),
        },
      ];
    }),
  );
}

export function fieldTableModule(definitions: readonly ResourceDefinition[]): string {
  // One line per column: the rows of resources that share fields stay short and apart.
  const rows = Object.entries(fieldTable(definitions)).map(
    ([type, row]) =>
      `  ${JSON.stringify(type)}: {\n${Object.entries(row)
        .map(([column, value]) => `    ${JSON.stringify(column)}: ${JSON.stringify(value)},`)
        .join("\n")}\n  },`,
  );
  const table = `{\n${rows.join("\n")}\n}`;
  return `// Generated from provider/definitions by \`npm run generate\`: do not edit.
export const FIELD_TABLE = ${table} as const;

export type ResourceType = keyof typeof FIELD_TABLE;

/** Whether \`name\` (from a request, a URN, a state) names a resource of the package. */
export const isResourceType = (name: string): name is ResourceType => Object.hasOwn(FIELD_TABLE, name);

/** The provider settings that are secrets (an explicit provider wraps them). */
export const PROVIDER_SECRET_SETTINGS = ${JSON.stringify([...SECRET_SETTINGS, ACCOUNTS_SETTING.key])} as const;
`;
}
