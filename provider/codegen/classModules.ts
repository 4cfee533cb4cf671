/**
 * The resource classes programs construct, as TypeScript source, from the definitions (`npm run generate`): per
 * resource a dynamic class (exported by `pulumi-svc`) and a native one (exported by `pulumi-svc/native`), all in
 * provider/generated/, with their Args, outputs, required inputs and type tokens; the Args of the named object
 * types the inputs use; the explicit provider's `ProviderArgs`; the field table they read. A class imports only
 * types from the definitions and its row of the field table, so a program loads no zod and no runtime.
 */
import { dirname, join, relative, sep } from "node:path";
import {
  argsName,
  argsProperties,
  docComment,
  objectArgsProperties,
  objectBody,
  objectTypesOf,
  providerArgsProperties,
  requiredInputs,
  requiredOnCreateOnly,
} from "./argsTypes";
import type { ResourceDefinition } from "../definitions/define";
import { fieldTableModule } from "./fieldTable";

/** Where the generated files go, and where the hand-written modules they import are. */
export interface ClassLayout {
  /** The folder the generated files' paths are relative to (the repository, or a test's folder). */
  out: string;
  /** The repository, whose hand-written modules (base classes, type tokens) the generated ones import. */
  source: string;
  /** The module that exports RESOURCES (the definitions by type name), relative to `source`. */
  registry: string;
}

/** Every generated file is in one folder (lint and format leave it alone: biome.json). */
const GENERATED_DIR = "provider/generated";
/** The hand-written modules the generated classes stand on (base classes, type tokens, the connection's Args). */
const RESOURCES_DIR = "provider/resources";
const HEADER = "// Generated from the resource definitions by `npm run generate`: do not edit.\n";

/** The file of a resource's dynamic class: AppToken in provider/generated/appToken.ts. */
const classFile = (type: string): string => `${GENERATED_DIR}/${lowerFirst(type)}.ts`;
const RESOURCES_INDEX = `${GENERATED_DIR}/resources.ts`;
const NATIVE_FILE = `${GENERATED_DIR}/native.ts`;
const FIELD_TABLE_FILE = `${GENERATED_DIR}/fieldTable.ts`;
const INPUT_TYPES_FILE = `${GENERATED_DIR}/inputTypes.ts`;

/** Every generated file of the classes, as [path from `layout.out`, text]. */
export function classFiles(definitions: readonly ResourceDefinition[], layout: ClassLayout): [string, string][] {
  const objectTypes = [...new Set(definitions.flatMap((definition) => objectTypesOf(definition.inputs)))];
  return [
    [FIELD_TABLE_FILE, fieldTableModule(definitions)],
    ...definitions.map((definition): [string, string] => [classFile(definition.type), dynamicClassModule(definition, layout)]),
    [INPUT_TYPES_FILE, inputTypesModule(objectTypes)],
    [RESOURCES_INDEX, resourcesIndexModule(definitions, objectTypes, layout)],
    [NATIVE_FILE, nativeModule(definitions, objectTypes, layout)],
  ];
}

/** Where an imported module is: generated beside the file (`out`), hand-written (`source`), or a package. */
type Where = "out" | "source" | "package";

/** The import path from generated file `from` to a module: generated beside it, hand-written, or a package's name. */
function importPath(layout: ClassLayout, from: string, module: string, where: Where): string {
  if (where === "package") return module;
  const target = join(where === "out" ? layout.out : layout.source, module).replace(/(\/index)?\.ts$/, "");
  const path = relative(dirname(join(layout.out, from)), target)
    .split(sep)
    .join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/** Imports of a generated file, by module: `import <what> from "<module>";`. */
function importsOf(layout: ClassLayout, from: string, imports: [what: string, module: string, where: Where][]): string {
  return imports.map(([what, module, where]) => `import ${what} from "${importPath(layout, from, module, where)}";\n`).join("");
}

const firstSentence = (text: string): string => text.split(/(?<=\.)\s/)[0]!;
/** "an AppToken", "an HttpNotificationTemplate" (read as "aitch"), "a Lamp". */
const article = (word: string): string => (/^([AEIOU]|Http)/.test(word) ? "an" : "a");
const lowerFirst = (text: string): string => `${text[0]!.toLowerCase()}${text.slice(1)}`;
const outputsType = (type: string): string => `DefinitionOutputs<(typeof RESOURCES)[${JSON.stringify(type)}]>`;

/** What the generated code of one resource needs to know of it. */
function shapeOf(definition: ResourceDefinition) {
  const required = requiredInputs(definition.inputs);
  return {
    type: definition.type,
    args: `${definition.type}Args`,
    required,
    /** With no required input, a program may leave the Args out. */
    argsParameter: required.length === 0 ? `args: ${definition.type}Args = {}` : `args: ${definition.type}Args`,
    /** The Args of a read by id: only the connection, since the server gives the rest. */
    emptyArgs: (fields: string) => (required.length === 0 ? fields : `${fields} as ${definition.type}Args`),
    importable: requiredOnCreateOnly(definition.inputs),
    adoptable: "adoptId" in definition.inputs,
  };
}

function dynamicClassModule(definition: ResourceDefinition, layout: ClassLayout): string {
  const file = classFile(definition.type);
  const shape = shapeOf(definition);
  const { type, args } = shape;
  const objectTypes = objectTypesOf(definition.inputs).map(argsName);
  const takeOver = shape.adoptable ? "use `adoptId`, or `pulumi import` with the plugin" : "use `pulumi import` with the plugin";
  return `${HEADER}/**
 * ${type}, a dynamic resource of \`pulumi-svc\`: ${lowerFirst(firstSentence(definition.description))} Its definition says what each field means.
 */
${importsOf(layout, file, [
  ["type * as pulumi", "@pulumi/pulumi", "package"],
  ["type { RESOURCES }", layout.registry, "source"],
  ["type { ConnectionArgs }", `${RESOURCES_DIR}/connectionArgs.ts`, "source"],
  ["{ DynamicResource, isResourceOfType }", `${RESOURCES_DIR}/dynamicResource.ts`, "source"],
  ["type { DefinitionOutputs }", `${RESOURCES_DIR}/definitionOutputs.ts`, "source"],
  ["{ FIELD_TABLE }", FIELD_TABLE_FILE, "out"],
  ...(objectTypes.length > 0 ? [[`type { ${objectTypes.join(", ")} }`, INPUT_TYPES_FILE, "out"] as [string, string, Where]] : []),
  ["{ dynamicTypeToken }", `${RESOURCES_DIR}/typeToken.ts`, "source"],
])}
/** The inputs of ${article(type)} ${type}, from its definition's input schemas. */
export type ${args} = ${objectBody(argsProperties(definition.inputs))};

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface ${type} extends ${outputsType(type)} {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class ${type} extends DynamicResource {
  /** The engine's type token: dynamic resources are named \`pulumi-nodejs:dynamic/<module>:<type>\`. */
  static readonly __pulumiType = dynamicTypeToken(${JSON.stringify(type)});

  /**
   * An existing ${type}, read into the program by id without managing it: Pulumi never updates or deletes it.
   * (To take one over instead, ${takeOver}.)
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, connection?: pulumi.Input<ConnectionArgs>, opts: pulumi.CustomResourceOptions = {}): ${type} {
    return new ${type}(name, ${shape.emptyArgs("{ connection }")}, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is ${type} {
    return isResourceOfType(obj, ${type}.__pulumiType);
  }

  constructor(name: string, ${shape.argsParameter}, opts: pulumi.CustomResourceOptions = {}) {
    super(FIELD_TABLE.${type}, ${JSON.stringify(type)}, name, args, opts);
  }
}
`;
}

function inputTypesModule(objectTypes: readonly string[]): string {
  return `${HEADER}/** The named object types of the resources' inputs, as a program writes them: each field a pulumi.Input. */
import type * as pulumi from "@pulumi/pulumi";
${objectTypes
  .map(
    (name) =>
      `\n${docComment(`A ${name} of the package schema (provider/definitions/schemaTypes.ts).`)}export type ${argsName(name as never)} = ${objectBody(objectArgsProperties(name as never))};\n`,
  )
  .join("")}`;
}

function resourcesIndexModule(definitions: readonly ResourceDefinition[], objectTypes: readonly string[], layout: ClassLayout): string {
  const classes = definitions.map((d) => `export { ${d.type}, type ${d.type}Args } from "./${classFile(d.type).slice(GENERATED_DIR.length + 1, -3)}";\n`);
  const types = objectTypes.length > 0 ? `export type { ${objectTypes.map((name) => argsName(name as never)).join(", ")} } from "./inputTypes";\n` : "";
  return `${HEADER}/** The dynamic resource classes of \`pulumi-svc\` and their Args. */
${classes.join("")}${types}export type { ConnectionArgs } from "${importPath(layout, RESOURCES_INDEX, `${RESOURCES_DIR}/connectionArgs.ts`, "source")}";
`;
}

function nativeModule(definitions: readonly ResourceDefinition[], objectTypes: readonly string[], layout: ClassLayout): string {
  const file = NATIVE_FILE;
  const argsTypes = [...definitions.map((d) => `${d.type}Args`), ...objectTypes.map((name) => argsName(name as never)), "ConnectionArgs"];
  const classes = definitions.map((definition) => {
    const shape = shapeOf(definition);
    const { type, args } = shape;
    const imported = `Imported${args}`;
    const importedType =
      shape.importable.length === 0
        ? ""
        : `/**
 * ${article(type) === "an" ? "An" : "A"} ${type} taken over with \`pulumi import\`: the plugin cannot read back ${shape.importable.join(", ")}, so the program may leave
 * ${shape.importable.length === 1 ? "it" : "them"} out (the platform keeps what it has) until it declares ${shape.importable.length === 1 ? "one" : "them"}; the next \`up\` then writes ${shape.importable.length === 1 ? "that one" : "those"}. A new
 * ${type} still needs ${shape.importable.length === 1 ? "it" : "them"}: the plugin's check refuses one without ${shape.importable.length === 1 ? "it" : "them"} at preview.
 */
export type ${imported} = Omit<${args}, ${shape.importable.map((k) => JSON.stringify(k)).join(" | ")}> & Partial<Pick<${args}, ${shape.importable.map((k) => JSON.stringify(k)).join(" | ")}>>;

`;
    const argsType = shape.importable.length === 0 ? args : `${args} | ${imported}`;
    return `
${importedType}/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface ${type} extends ${outputsType(type)} {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class ${type} extends NativeResource {
  static readonly __pulumiType = typeToken(${JSON.stringify(type)});
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts: pulumi.CustomResourceOptions = {}): ${type} {
    return new ${type}(name, ${shape.emptyArgs("{}")}, { ...opts, id });
  }
  constructor(name: string, ${shape.argsParameter.replace(`: ${args}`, `: ${argsType}`)}, opts: pulumi.CustomResourceOptions = {}) {
    super(FIELD_TABLE.${type}, ${JSON.stringify(type)}, name, args, opts);
  }
}
`;
  });
  return `${HEADER}/**
 * The resources of the native plugin \`pulumi-resource-svc\` (\`pulumi-svc/native\`, registered as \`svc:index:<type>\`),
 * with the same Args as the dynamic resources, and the settings of an explicit provider.
 */
${importsOf(layout, file, [
  ["type * as pulumi", "@pulumi/pulumi", "package"],
  ["type { RESOURCES }", layout.registry, "source"],
  ["type { DefinitionOutputs }", `${RESOURCES_DIR}/definitionOutputs.ts`, "source"],
  [`type { ${argsTypes.join(", ")} }`, RESOURCES_INDEX, "out"],
  ["{ FIELD_TABLE }", FIELD_TABLE_FILE, "out"],
  ["{ NativeResource }", `${RESOURCES_DIR}/nativeResource.ts`, "source"],
  ["{ typeToken }", `${RESOURCES_DIR}/typeToken.ts`, "source"],
])}
export type { ${argsTypes.join(", ")} };
${classes.join("")}
/** The settings of an explicit provider: the \`svc:*\` stack config keys, for a second account. */
export interface ProviderArgs ${objectBody(providerArgsProperties())}
`;
}
