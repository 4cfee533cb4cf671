/**
 * The field table of the dynamic resources: each resource's input and output names and its secret ones, as a plain
 * module. Programs construct resources from it without loading zod, the sdk or the runtime (the definitions'
 * modules), which would cost every `pulumi up` of a program (docs/bench.md). Rendered by `npm run generate`.
 */
import { SECRET_SETTINGS } from "../core/settings";
import { requiredInputs } from "./argsTypes";
import { fieldsOf, type ResourceDefinition } from "./define";

/** A resource's row: what its classes need of its definition at run time, as plain data. Each class passes its own. */
export interface ResourceFields {
  /** The runtime's name of the provider, which the dynamic resource's stored shim calls. */
  readonly kind: string;
  readonly inputs: readonly string[];
  /** The outputs that are not inputs. */
  readonly outputs: readonly string[];
  /** Every secret property (inputs and outputs). */
  readonly secrets: readonly string[];
  /** The deprecated inputs and what to use instead (the native classes warn when a program sets one). */
  readonly deprecated: Readonly<Record<string, string>>;
  /** The inputs a program must give to create one (the dynamic classes check them; the plugin's check does too). */
  readonly required: readonly string[];
}

export function fieldTable(definitions: readonly ResourceDefinition[]): Record<string, ResourceFields> {
  return Object.fromEntries(
    definitions.map((definition) => {
      const fields = fieldsOf(definition);
      return [
        definition.type,
        {
          kind: definition.kind,
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

/** The provider settings that are secrets (an explicit provider wraps them). */
export const PROVIDER_SECRET_SETTINGS = ${JSON.stringify(SECRET_SETTINGS)} as const;
`;
}
