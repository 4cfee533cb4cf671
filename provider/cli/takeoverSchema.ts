/**
 * The plugin's package schema (plugin/schema.json: what `pulumi package get-schema` serves and the SDKs are
 * generated from; a test keeps it in step with the definitions) as the takeover writers read it: a resource's input
 * properties, their types, the object and enum types they refer to, and each language's package name. A writer
 * renders a value by walking its property's type, so a field added to a definition, or a type made an enum or an
 * object, is written correctly in every language without a change here. The file is read, not imported: the
 * provider does not import the plugin (test/architecture), and the file ships in the package at the same place.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { untrusted } from "./asciiLiteral";

export interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
}

interface TypeSpec {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, PropertySpec>;
}

export interface SchemaView {
  resources: Record<string, { inputProperties: Record<string, PropertySpec> }>;
  types?: Record<string, TypeSpec>;
  language: { python: { packageName: string }; go: { importBasePath: string } };
}

/** How a language writes one value: primitives, lists, maps with text keys, and values of the schema's named types. */
export interface ValueSyntax {
  text(value: string): string;
  integer(value: number): string;
  number(value: number): string;
  boolean(value: boolean): string;
  /** `spec` is the list's own type (its items are rendered already). */
  list(items: string[], spec: PropertySpec): string;
  map(entries: [string, string][], spec: PropertySpec): string;
  /** A value of the object type `name` (`EmailRecipient` for `svc:index:EmailRecipient`); fields by schema name. */
  object(name: string, fields: [string, string][]): string;
  /** A value of the enum type `name`, its value rendered as a primitive. */
  enumValue(name: string, rendered: string): string;
}

/** plugin/schema.json of this package, found above this file (the repository, or the installed package). */
function schemaFile(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "plugin", "schema.json");
    if (existsSync(file) && existsSync(join(dir, "package.json"))) return file;
  }
  throw new Error(`plugin/schema.json of pulumi-svc was not found above ${__dirname}: the package is incomplete`);
}

/** Read at each call: a program is written once per takeover run, and 64 kB parse in about a millisecond. */
export function schemaView(): SchemaView {
  return JSON.parse(readFileSync(schemaFile(), "utf8")) as SchemaView;
}

/** The short name of a type token: `EmailRecipient` for `#/types/svc:index:EmailRecipient`. */
export const typeName = (ref: string): string => ref.slice(ref.lastIndexOf(":") + 1);

export function referencedType(schema: SchemaView, ref: string): TypeSpec {
  const found = schema.types?.[ref.replace(/^#\/types\//, "")];
  if (!found) throw new Error(`the schema has no type ${ref}`);
  return found;
}

export function inputProperty(schema: SchemaView, token: string, key: string): PropertySpec {
  const spec = schema.resources[token]?.inputProperties[key];
  if (!spec) throw new Error(`the schema of ${token} has no input ${key}`);
  return spec;
}

/** `value` written as `syntax` says, following `spec`; a value that does not fit the type is refused, naming `path`. */
export function renderValue(schema: SchemaView, spec: PropertySpec, value: unknown, syntax: ValueSyntax, path: string): string {
  const wrong = (expected: string) => new Error(`${path}: expected ${expected}, the platform sent ${untrusted(JSON.stringify(value) ?? String(value))}`);
  if (spec.$ref) {
    const target = referencedType(schema, spec.$ref);
    if (target.enum) {
      // The schema lists an enum's members as { name, value } (Pulumi's package schema); a bare value is read as well.
      const allowed = target.enum.map((member) => (member !== null && typeof member === "object" && "value" in member ? member.value : member));
      if (!allowed.includes(value)) throw wrong(`one of ${JSON.stringify(allowed)}`);
      return syntax.enumValue(typeName(spec.$ref), renderValue(schema, { type: target.type ?? "string" }, value, syntax, path));
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw wrong("an object");
    const fields = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]): [string, string] => {
        const fieldSpec = target.properties?.[key];
        if (!fieldSpec) throw new Error(`${path}: the type ${typeName(spec.$ref!)} has no field ${untrusted(key)}`);
        return [key, renderValue(schema, fieldSpec, item, syntax, `${path}.${key}`)];
      });
    return syntax.object(typeName(spec.$ref), fields);
  }
  switch (spec.type) {
    case "string":
      if (typeof value !== "string") throw wrong("text");
      return syntax.text(value);
    case "integer":
      if (!Number.isSafeInteger(value)) throw wrong("a whole number");
      return syntax.integer(value as number);
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) throw wrong("a number");
      return syntax.number(value);
    case "boolean":
      if (typeof value !== "boolean") throw wrong("true or false");
      return syntax.boolean(value);
    case "array":
      if (!Array.isArray(value) || !spec.items) throw wrong("a list");
      return syntax.list(
        value.map((item, i) => renderValue(schema, spec.items!, item, syntax, `${path}[${i}]`)),
        spec,
      );
    case "object":
      if (value === null || typeof value !== "object" || Array.isArray(value) || !spec.additionalProperties) throw wrong("a map");
      return syntax.map(
        Object.entries(value as Record<string, unknown>).map(([key, item]) => [
          key,
          renderValue(schema, spec.additionalProperties!, item, syntax, `${path}.${key}`),
        ]),
        spec,
      );
    default:
      throw new Error(`${path}: the schema's type ${untrusted(JSON.stringify(spec))} has no writer`);
  }
}
