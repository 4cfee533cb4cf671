/**
 * The package schema of the native plugin (`pulumi package get-schema`), derived from the resource definitions and
 * the provider's settings: the input to Pulumi's SDK generators (Python, Go, Node.js) and to YAML programs.
 */
import { z } from "zod";
import { ConnectionInput } from "../provider/core/connectionInput";
import { SETTINGS } from "../provider/core/connection";
import { ACCOUNTS_SETTING } from "../provider/core/namedAccounts";
import { FUNCTIONS } from "../provider/definitions";
import { fieldsOf, type InputField, type OutputField, type ResourceDefinition } from "../provider/definitions/define";
import type { ArgumentField, FunctionDefinition } from "../provider/definitions/defineFunction";
import { enumValues, SCHEMA_TYPES, type SchemaType, type SchemaTypeName } from "../provider/definitions/schemaTypes";
import { examplesBlock } from "./examples";
import { PLUGIN_DOWNLOAD_URL } from "../provider/core/pluginRelease";
import { PACKAGE, typeToken } from "../provider/resources/typeToken";

export const CONNECTION_TYPE = typeToken("Connection");

interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  default?: unknown;
  willReplaceOnChanges?: boolean;
  deprecationMessage?: string;
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  additionalProperties?: JsonSchema;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const typeRef = (name: SchemaTypeName): PropertySpec => ({ $ref: `#/types/${typeToken(name)}` });

/**
 * A field's named type, checked against its zod schema (an enum field takes exactly its type's values), as a
 * property: the type itself, or a list of it.
 */
function namedProperty(field: InputField | ArgumentField, json: JsonSchema, key: string): PropertySpec {
  const name = field.typeName!;
  const type = SCHEMA_TYPES[name];
  const jsonType = Array.isArray(json.type) ? json.type.find((t) => t !== "null") : json.type;
  if (type.kind === "enum") {
    const values = enumValues(name);
    if (JSON.stringify(json.enum) !== JSON.stringify(values))
      throw new Error(`${key}: its values ${JSON.stringify(json.enum)} are not those of the enum ${name} ${JSON.stringify(values)}`);
    return typeRef(name);
  }
  if (jsonType === "array") return { type: "array", items: typeRef(name) };
  if (jsonType === "object") return typeRef(name);
  throw new Error(`${key}: a field of type ${String(jsonType)} cannot name the object type ${name}`);
}

/**
 * A field as a schema property: its named type (an enum or object of the schema) or its JSON type, its default when
 * it has one, and its deprecation.
 */
function propertyOf(field: InputField | ArgumentField, key: string): PropertySpec {
  const description = withExample(field.description, field.example);
  const deprecated = "deprecationMessage" in field && field.deprecationMessage ? { deprecationMessage: field.deprecationMessage } : {};
  if (unwrap(field.schema) === unwrap(ConnectionInput)) return { $ref: `#/types/${CONNECTION_TYPE}`, description, ...deprecated };
  const json = z.toJSONSchema(field.schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const type = field.typeName ? namedProperty(field, json, key) : typeOf(json);
  return { ...type, description, ...(isPrimitive(json.default) ? { default: json.default } : {}), ...deprecated };
}

/** A result field (a resource's output or a function's) as a schema property. */
function outputPropertyOf(output: OutputField): PropertySpec {
  const named = output.typeName ? typeRef(output.typeName) : undefined;
  const type: PropertySpec =
    output.type === "array" ? { type: "array", items: named ?? { type: "string" } } : (named ?? { type: output.type === "object" ? "object" : output.type });
  return { ...type, description: withExample(output.description, output.example), ...(output.secret ? { secret: true } : {}) };
}

function typeOf(json: JsonSchema): PropertySpec {
  const type = Array.isArray(json.type) ? json.type.find((t) => t !== "null") : json.type;
  if (type === "object") return { type: "object", additionalProperties: json.additionalProperties ? typeOf(json.additionalProperties) : { type: "string" } };
  if (type === "array") return { type: "array", items: json.items ? typeOf(json.items) : { type: "string" } };
  if (type === "integer" || type === "number" || type === "boolean") return { type };
  return { type: "string" };
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema as z.ZodType & { unwrap?: () => z.ZodType; def?: { innerType?: z.ZodType } };
  while (current.def?.innerType) current = current.def.innerType as typeof current;
  return current;
}

const isPrimitive = (value: unknown): boolean => ["string", "number", "boolean"].includes(typeof value);
const withExample = (description: string, example: unknown): string => `${description}\n\nExample: \`${JSON.stringify(example)}\``;
const optional = (schema: z.ZodType): boolean => schema.safeParse(undefined).success;

function resourceSpec(definition: ResourceDefinition) {
  const fields = fieldsOf(definition);
  const inputProperties: Record<string, PropertySpec> = {};
  for (const key of fields.inputKeys) {
    const field = definition.inputs[key]!;
    inputProperties[key] = {
      ...propertyOf(field, key),
      ...(field.secret ? { secret: true } : {}),
      ...(field.change === "replace" ? { willReplaceOnChanges: true } : {}),
    };
  }
  const properties: Record<string, PropertySpec> = { ...inputProperties };
  for (const [key, output] of Object.entries(definition.outputs)) properties[key] = outputPropertyOf(output);
  // Defaults of inputs are filled in by check, so those outputs are always present, as the server's fields are.
  const always = [
    ...fields.inputKeys.filter((key) => !optional(definition.inputs[key]!.schema) || hasDefault(definition.inputs[key]!.schema)),
    ...fields.outputKeys.filter((key) => !definition.outputs[key]!.optional),
  ];
  const requiredInputs = fields.inputKeys.filter((key) => !optional(definition.inputs[key]!.schema)).sort();
  return {
    description: `${definition.description}\n\n${examplesBlock(definition)}\n\n## Import\n\n\`\`\`sh\n$ pulumi import ${typeToken(definition.type)} my-${definition.runtimeExport} <id>\n\`\`\`\n\nwhere \`<id>\` is ${definition.idDescription}.`,
    properties,
    required: always.sort(),
    inputProperties,
    ...(requiredInputs.length > 0 ? { requiredInputs } : {}),
  };
}

function hasDefault(schema: z.ZodType): boolean {
  const parsed = schema.safeParse(undefined);
  return parsed.success && parsed.data !== undefined;
}

/**
 * The provider's settings. `withEnvironment` adds each one's SVC_* variable as `defaultInfo.environment`: on the stack
 * config variables (the SDKs' `config` getters read it), never on an explicit provider's inputs, where a generated
 * SDK would copy the environment's credentials into the inputs of a provider that names another account (the
 * plugin applies the same SVC_* fallback itself, under the rule that credentials never mix across sources).
 */
function settingsSpec(withEnvironment: boolean) {
  const settings: Record<string, PropertySpec & { defaultInfo?: { environment: string[] } }> = Object.fromEntries(
    Object.entries(SETTINGS).map(([key, setting]) => [
      key,
      {
        type: setting.type,
        description: `${setting.description} Stack config \`${setting.config}\`, or the environment variable ${setting.env}.`,
        ...("secret" in setting && setting.secret ? { secret: true } : {}),
        ...(withEnvironment ? { defaultInfo: { environment: [setting.env] } } : {}),
      },
    ]),
  );
  // Named accounts: a map of connections, a secret as a whole (it holds every account's credentials); no environment fallback.
  settings[ACCOUNTS_SETTING.key] = {
    type: "object",
    additionalProperties: { $ref: `#/types/${CONNECTION_TYPE}` },
    description: ACCOUNTS_SETTING.description,
    secret: true,
  };
  return settings;
}

/** A named type of the schema: an enum of strings, or an object. */
function typeSpec(type: SchemaType) {
  if (type.kind === "enum") {
    return { type: "string", description: type.description, enum: (type.schema.options as string[]).map((value) => ({ name: value, value })) };
  }
  if ("schema" in type) {
    const json = z.toJSONSchema(type.schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
    const properties = Object.fromEntries(
      Object.entries(json.properties ?? {}).map(([key, property]) => {
        const description = type.fields[key];
        if (!description) throw new Error(`the object type's field ${key} has no description (schemaTypes.ts)`);
        return [key, { ...typeOf(property), description }];
      }),
    );
    return { type: "object", description: type.description, properties, required: [...(json.required ?? [])].sort() };
  }
  const properties = Object.fromEntries(
    Object.entries(type.properties).map(([key, p]) => [
      key,
      { ...(p.typeName ? typeRef(p.typeName) : { type: p.type }), description: p.description, ...(p.secret ? { secret: true } : {}) },
    ]),
  );
  const required = Object.keys(type.properties).filter((key) => !type.properties[key]!.optional);
  return { type: "object", description: type.description, properties, required: required.sort() };
}

/** A function: its arguments and its result, each an object of the schema. */
function functionSpec(definition: FunctionDefinition) {
  const inputs = Object.fromEntries(Object.entries(definition.inputs).map(([key, field]) => [key, propertyOf(field, key)]));
  const requiredInputs = Object.keys(definition.inputs).filter((key) => !optional(definition.inputs[key]!.schema));
  const outputs = Object.fromEntries(Object.entries(definition.outputs).map(([key, output]) => [key, outputPropertyOf(output)]));
  const requiredOutputs = Object.keys(definition.outputs).filter((key) => !definition.outputs[key]!.optional);
  return {
    description: `${definition.description}\n\n## Example Usage\n\n\`\`\`typescript\n${definition.example}\n\`\`\``,
    inputs: { properties: inputs, ...(requiredInputs.length > 0 ? { required: requiredInputs.sort() } : {}) },
    outputs: { properties: outputs, required: requiredOutputs.sort() },
  };
}

function connectionSpec() {
  const json = z.toJSONSchema(ConnectionInput, { io: "input" }) as JsonSchema;
  const properties = Object.fromEntries(
    Object.entries(json.properties ?? {}).map(([key, property]) => {
      const setting = SETTINGS[key as keyof typeof SETTINGS];
      return [
        key,
        { ...typeOf(property), description: setting?.description ?? key, ...(setting && "secret" in setting && setting.secret ? { secret: true } : {}) },
      ];
    }),
  );
  return { type: "object", description: "An explicit connection to an account (a second account): any setting left out comes from the provider.", properties };
}

/**
 * The package schema, for the plugin of `version`, downloaded from `pluginDownloadURL` (package.json's setting, or
 * the release build's SVC_PLUGIN_DOWNLOAD_URL): every generated SDK passes both to the engine.
 */
export function packageSchema(
  definitions: readonly ResourceDefinition[],
  version?: string,
  functions: readonly FunctionDefinition[] = FUNCTIONS,
  pluginDownloadURL = PLUGIN_DOWNLOAD_URL,
) {
  const settings = settingsSpec(false);
  return {
    name: PACKAGE,
    displayName: "svc",
    ...(version ? { version, ...(pluginDownloadURL ? { pluginDownloadURL } : {}) } : {}),
    description: "Infrastructure as code for the video platform's API: app tokens and event notification templates.",
    keywords: ["pulumi", "svc", "video", "webhooks", "kind/native", "category/infrastructure"],
    license: "Apache-2.0",
    publisher: "pulumi-svc",
    repository: "https://github.com/pulumi-svc/pulumi-svc",
    meta: { moduleFormat: "(.*)" },
    language: {
      nodejs: {
        packageName: "@pulumi-svc/svc",
        packageDescription: "Pulumi resources for the video platform (native plugin).",
        dependencies: { "@pulumi/pulumi": "^3.142.0" },
        respectSchemaVersion: true,
      },
      python: { packageName: "pulumi_svc", requires: { pulumi: ">=3.142.0,<4.0.0" }, pyproject: { enabled: true }, respectSchemaVersion: true },
      go: { importBasePath: "github.com/pulumi-svc/pulumi-svc/sdk/go/svc", generateResourceContainerTypes: true, respectSchemaVersion: true },
    },
    config: { variables: settingsSpec(true) },
    provider: {
      description: "The provider of the svc package: which account, and how to authenticate. Settings left out come from the environment (SVC_*).",
      inputProperties: settings,
      properties: Object.fromEntries(Object.entries(settings).filter(([, spec]) => spec.type === "string")),
    },
    types: {
      [CONNECTION_TYPE]: connectionSpec(),
      ...Object.fromEntries(Object.entries(SCHEMA_TYPES).map(([name, type]) => [typeToken(name), typeSpec(type)])),
    },
    resources: Object.fromEntries(definitions.map((definition) => [typeToken(definition.type), resourceSpec(definition)])),
    functions: Object.fromEntries(functions.map((definition) => [typeToken(definition.name), functionSpec(definition)])),
  };
}
