/**
 * What a program writes for a resource, as TypeScript source for the generated classes (classModules.ts): each
 * input field's type from its zod schema as a program writes it (before defaults), every value a `pulumi.Input`,
 * a field of a named object type as that type's Args, and the provider's settings as `ProviderArgs`.
 */
import { ACCOUNTS_SETTING } from "../core/namedAccounts";
import { z } from "zod";
import { SETTINGS } from "../core/settings";
import { CONNECTION_FIELD, type InputField } from "../definitions/define";
import { SCHEMA_TYPES, type SchemaTypeName } from "../definitions/schemaTypes";

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** An object type's fields, one per line, each with its description as a doc comment. */
export interface Property {
  key: string;
  description: string;
  optional: boolean;
  type: string;
}

const jsonOf = (schema: z.ZodType, io: "input" | "output"): JsonSchema => z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;

/** The type a program writes for a JSON schema: enums as unions of their values, a record's values as Inputs. */
function programType(json: JsonSchema): string {
  if (json.enum) return json.enum.map((value) => JSON.stringify(value)).join(" | ");
  const type = Array.isArray(json.type) ? json.type.find((t) => t !== "null") : json.type;
  if (type === "string") return "string";
  if (type === "integer" || type === "number") return "number";
  if (type === "boolean") return "boolean";
  if (type === "array") {
    const items = programType(json.items ?? {});
    return items.includes(" | ") ? `(${items})[]` : `${items}[]`;
  }
  if (type === "object" && typeof json.additionalProperties === "object") return `Record<string, pulumi.Input<${programType(json.additionalProperties)}>>`;
  if (type === "object") return "Record<string, unknown>";
  return "unknown";
}

/** True when the schema takes undefined: the field may be left out. */
export const isOptional = (schema: z.ZodType): boolean => schema.safeParse(undefined).success;

/** The fields a program must give when it creates the resource (an import may lack those marked requiredOnCreate). */
export function requiredInputs(inputs: Record<string, InputField>): string[] {
  return Object.keys(inputs).filter((key) => !isOptional(inputs[key]!.schema) || inputs[key]!.requiredOnCreate);
}

/** The fields a program may leave out of a resource taken over by `pulumi import`, though a new one needs them. */
export const requiredOnCreateOnly = (inputs: Record<string, InputField>): string[] =>
  Object.keys(inputs).filter((key) => inputs[key]!.requiredOnCreate && isOptional(inputs[key]!.schema));

/** The Args properties of a resource's inputs. */
export function argsProperties(inputs: Record<string, InputField>): Property[] {
  const required = new Set(requiredInputs(inputs));
  return Object.entries(inputs).map(([key, field]) => {
    const optional = !required.has(key);
    const described = {
      key,
      description: field.deprecationMessage ? `${field.description}\n@deprecated ${field.deprecationMessage}` : field.description,
      optional,
    };
    if (field === CONNECTION_FIELD) return { ...described, type: "pulumi.Input<ConnectionArgs>" };
    if (field.typeName && SCHEMA_TYPES[field.typeName].kind === "object") {
      const args = `pulumi.Input<${argsName(field.typeName)}>`;
      return { ...described, type: jsonOf(field.schema, "input").type === "array" ? `pulumi.Input<${args}[]>` : args };
    }
    // As z.input of an optional field: the value may be undefined, inside the Input too.
    const plain = programType(jsonOf(field.schema, "input"));
    return { ...described, type: `pulumi.Input<${plain}${optional && !field.requiredOnCreate ? " | undefined" : ""}>` };
  });
}

/** The name of a named object type's Args: `EmailRecipientArgs`. */
export const argsName = (name: SchemaTypeName): string => `${name}Args`;

/** The named object types the inputs use (in the order they are first used). */
export function objectTypesOf(inputs: Record<string, InputField>): SchemaTypeName[] {
  const names = Object.values(inputs).flatMap((field) => (field.typeName && SCHEMA_TYPES[field.typeName].kind === "object" ? [field.typeName] : []));
  return [...new Set(names)];
}

/** A named object type's Args: each of its fields an Input, as the definitions' zod schema of the type has them. */
export function objectArgsProperties(name: SchemaTypeName): Property[] {
  const type = SCHEMA_TYPES[name];
  if (type.kind !== "object" || !("schema" in type)) throw new Error(`${name} is not an object type with a zod schema (schemaTypes.ts)`);
  const json = jsonOf(type.schema, "output");
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([key, property]) => {
    const optional = !required.has(key);
    return { key, description: type.fields[key] ?? "", optional, type: `pulumi.Input<${programType(property)}${optional ? " | undefined" : ""}>` };
  });
}

/** The explicit provider's settings, as a program passes them (every one optional). */
export function providerArgsProperties(): Property[] {
  const tsType = { string: "string", integer: "number", boolean: "boolean" } as const;
  const settings: Property[] = Object.entries(SETTINGS).map(([key, setting]) => ({
    key,
    description: setting.description,
    optional: true,
    type: `pulumi.Input<${tsType[setting.type]}>`,
  }));
  // Named accounts: each a connection (the provider wraps the whole map as a secret).
  return [
    ...settings,
    {
      key: ACCOUNTS_SETTING.key,
      description: ACCOUNTS_SETTING.description,
      optional: true,
      type: "pulumi.Input<Record<string, pulumi.Input<ConnectionArgs>>>",
    },
  ];
}

/** An object type's body: `{`, one documented property a line, `}`. */
export function objectBody(properties: readonly Property[]): string {
  const lines = properties.map((p) => `${docComment(p.description, "  ")}  ${p.key}${p.optional ? "?" : ""}: ${p.type};`);
  return `{\n${lines.join("\n")}\n}`;
}

/** A doc comment of a description (kept on one line when it fits; `@deprecated` on its own line). */
export function docComment(description: string, indent = ""): string {
  const lines = description.replaceAll("*/", "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`).join("\n")}\n${indent} */\n`;
}
