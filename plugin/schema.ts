/**
 * The package schema of the native plugin (`pulumi package get-schema`), derived from the resource definitions and
 * the provider's settings: the input to Pulumi's SDK generators (Python, Go, Node.js) and to YAML programs.
 */
import { z } from "zod";
import { ConnectionInput } from "../provider/core/connectionInput";
import { SETTINGS } from "../provider/core/connection";
import { fieldsOf, type ResourceDefinition } from "../provider/definitions/define";
import { examplesBlock } from "./examples";
import { PLUGIN_DOWNLOAD_URL } from "./version";

export const PACKAGE = "svc";
export const CONNECTION_TYPE = `${PACKAGE}:index:Connection`;

export const typeToken = (type: string): string => `${PACKAGE}:index:${type}`;

interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  default?: unknown;
  willReplaceOnChanges?: boolean;
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  additionalProperties?: JsonSchema;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
};

/** A zod schema as a schema property: its JSON type (enums are strings), and its default when it has one. */
function propertyOf(schema: z.ZodType, description: string, example: unknown): PropertySpec {
  if (unwrap(schema) === unwrap(ConnectionInput)) return { $ref: `#/types/${CONNECTION_TYPE}`, description: withExample(description, example) };
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return { ...typeOf(json), description: withExample(description, example), ...(isPrimitive(json.default) ? { default: json.default } : {}) };
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
      ...propertyOf(field.schema, field.description, field.example),
      ...(field.secret ? { secret: true } : {}),
      ...(field.change === "replace" ? { willReplaceOnChanges: true } : {}),
    };
  }
  const properties: Record<string, PropertySpec> = { ...inputProperties };
  for (const [key, output] of Object.entries(definition.outputs)) {
    properties[key] = {
      type: output.type === "object" ? "object" : output.type,
      description: withExample(output.description, output.example),
      ...(output.secret ? { secret: true } : {}),
    };
  }
  // Defaults of inputs are filled in by check, so those outputs are always present, as the server's fields are.
  const always = [
    ...fields.inputKeys.filter((key) => !optional(definition.inputs[key]!.schema) || hasDefault(definition.inputs[key]!.schema)),
    ...fields.outputKeys.filter((key) => !definition.outputs[key]!.optional),
  ];
  const requiredInputs = fields.inputKeys.filter((key) => !optional(definition.inputs[key]!.schema)).sort();
  return {
    description: `${definition.description}\n\n${examplesBlock(definition.type, definition.example)}\n\n## Import\n\n\`\`\`sh\n$ pulumi import ${typeToken(definition.type)} my-${definition.kind} <id>\n\`\`\`\n\nwhere \`<id>\` is ${definition.idDescription}.`,
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

function settingsSpec() {
  return Object.fromEntries(
    Object.entries(SETTINGS).map(([key, setting]) => [
      key,
      {
        type: setting.type,
        description: `${setting.description} Stack config \`${setting.config}\`, or the environment variable ${setting.env}.`,
        ...("secret" in setting && setting.secret ? { secret: true } : {}),
      },
    ]),
  );
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
export function packageSchema(definitions: readonly ResourceDefinition[], version?: string, pluginDownloadURL = PLUGIN_DOWNLOAD_URL) {
  const settings = settingsSpec();
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
    config: { variables: settings },
    provider: {
      description: "The provider of the svc package: which account, and how to authenticate. Settings left out come from the environment (SVC_*).",
      inputProperties: settings,
      properties: Object.fromEntries(Object.entries(settings).filter(([, spec]) => spec.type === "string")),
    },
    types: { [CONNECTION_TYPE]: connectionSpec() },
    resources: Object.fromEntries(definitions.map((definition) => [typeToken(definition.type), resourceSpec(definition)])),
  };
}
