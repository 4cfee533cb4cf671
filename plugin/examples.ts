/**
 * The examples of each resource in every language, the one source of the `{{% example %}}` blocks in the schema's
 * resource descriptions (which Pulumi's registry renders, and each SDK generator keeps its own language of, in its
 * doc comments). Each is a whole program written from its definition's example values (`program`), so a new resource
 * brings its four programs with it: test/release/ type-checks the TypeScript ones, compiles the Go ones, runs the
 * Python ones with Pulumi's mocks and previews the YAML ones, against the release's SDKs.
 */
import type { ConfigSecret, InputField, ProgramExample, ResourceDefinition } from "../provider/definitions/define";

export interface ResourceExample {
  title: string;
  typescript: string;
  python: string;
  go: string;
  yaml: string;
}

const isConfigSecret = (value: unknown): value is ConfigSecret => typeof value === "object" && value !== null && "configSecret" in value;
const configSecretsOf = (program: ProgramExample): string[] =>
  Object.values(program.inputs)
    .filter(isConfigSecret)
    .map((v) => v.configSecret);
const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function typescript(type: string, program: ProgramExample): string {
  const hasConfig = configSecretsOf(program).length > 0;
  const value = (v: unknown): string => {
    if (isConfigSecret(v)) return `config.requireSecret(${JSON.stringify(v.configSecret)})`;
    if (Array.isArray(v)) return `[${v.map(value).join(", ")}]`;
    if (isRecord(v))
      return `{ ${Object.entries(v)
        .map(([k, item]) => `${k}: ${value(item)}`)
        .join(", ")} }`;
    return JSON.stringify(v);
  };
  const [exported, output] = program.exports;
  return [
    ...(hasConfig ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as svc from "pulumi-svc/native";',
    "",
    ...(hasConfig ? ["const config = new pulumi.Config();"] : []),
    `const ${program.variable} = new svc.${type}(${JSON.stringify(program.name)}, {`,
    ...Object.entries(program.inputs).map(([key, v]) => `  ${key}: ${value(v)},`),
    "});",
    "",
    `export const ${exported} = ${program.variable}.${output};`,
  ].join("\n");
}

function python(type: string, program: ProgramExample): string {
  const hasConfig = configSecretsOf(program).length > 0;
  const value = (v: unknown): string => {
    if (isConfigSecret(v)) return `config.require_secret(${JSON.stringify(v.configSecret)})`;
    if (Array.isArray(v)) return `[${v.map(value).join(", ")}]`;
    if (isRecord(v))
      return `{${Object.entries(v)
        .map(([k, item]) => `${JSON.stringify(k)}: ${value(item)}`)
        .join(", ")}}`;
    if (typeof v === "boolean") return v ? "True" : "False";
    return JSON.stringify(v);
  };
  const variable = snake(program.variable);
  const [exported, output] = program.exports;
  const args = Object.entries(program.inputs).map(([key, v]) => `    ${snake(key)}=${value(v)}`);
  return [
    "import pulumi",
    "import pulumi_svc as svc",
    "",
    ...(hasConfig ? ["config = pulumi.Config()"] : []),
    `${variable} = svc.${type}(${JSON.stringify(program.name)},\n${args.join(",\n")})`,
    "",
    `pulumi.export(${JSON.stringify(exported)}, ${variable}.${snake(output)})`,
  ].join("\n");
}

function go(definition: ResourceDefinition): string {
  const { type, program } = definition;
  const hasConfig = configSecretsOf(program).length > 0;
  const scalar = (v: unknown, field: InputField | undefined): string => {
    if (isConfigSecret(v)) return `conf.RequireSecret(${JSON.stringify(v.configSecret)})`;
    if (typeof v === "string" && field?.typeName) return `svc.${field.typeName}${v}`;
    if (typeof v === "number") return `pulumi.Int(${v})`;
    if (typeof v === "boolean") return `pulumi.Bool(${v})`;
    return `pulumi.String(${JSON.stringify(v)})`;
  };
  const object = (v: Record<string, unknown>) =>
    `{${Object.entries(v)
      .map(([k, item]) => `${pascal(k)}: ${scalar(item, undefined)}`)
      .join(", ")}}`;
  // gofmt aligns the values of consecutive one-line fields; a field that spans lines ends the run.
  const entries = Object.entries(program.inputs).map(([key, v]): [string, string, boolean] => {
    const field = definition.inputs[key];
    if (Array.isArray(v) && field?.typeName) {
      const items = v.map((item) => `\t\t\t\tsvc.${field.typeName}Args${object(item as Record<string, unknown>)},`);
      return [pascal(key), `svc.${field.typeName}Array{\n${items.join("\n")}\n\t\t\t}`, true];
    }
    if (isRecord(v) && !isConfigSecret(v)) {
      return [
        pascal(key),
        `pulumi.StringMap{${Object.entries(v)
          .map(([k, item]) => `${JSON.stringify(k)}: ${scalar(item, undefined)}`)
          .join(", ")}}`,
        false,
      ];
    }
    return [pascal(key), scalar(v, field), false];
  });
  const lines: string[] = [];
  let run: [string, string][] = [];
  const flush = () => {
    const width = Math.max(0, ...run.map(([key]) => key.length));
    for (const [key, v] of run) lines.push(`\t\t\t${`${key}:`.padEnd(width + 2)}${v},`);
    run = [];
  };
  for (const [key, v, multiline] of entries) {
    if (multiline) {
      flush();
      lines.push(`\t\t\t${key}: ${v},`);
    } else run.push([key, v]);
  }
  flush();
  const [exported, output] = program.exports;
  const imports = [
    "github.com/pulumi-svc/pulumi-svc/sdk/go/svc",
    "github.com/pulumi/pulumi/sdk/v3/go/pulumi",
    ...(hasConfig ? ["github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"] : []),
  ];
  return [
    "package main",
    "",
    "import (",
    ...imports.map((i) => `\t"${i}"`),
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...(hasConfig ? ['\t\tconf := config.New(ctx, "")'] : []),
    `\t\t${program.variable}, err := svc.New${type}(ctx, ${JSON.stringify(program.name)}, &svc.${type}Args{`,
    ...lines,
    "\t\t})",
    "\t\tif err != nil {",
    "\t\t\treturn err",
    "\t\t}",
    `\t\tctx.Export(${JSON.stringify(exported)}, ${program.variable}.${output === "id" ? "ID()" : pascal(output)})`,
    "\t\treturn nil",
    "\t})",
    "}",
  ].join("\n");
}

/** A YAML scalar: plain when YAML reads it back as the same string, else double-quoted. */
const yamlScalar = (v: unknown): string => {
  if (typeof v !== "string") return JSON.stringify(v);
  const plain = v !== "" && !/^[\s{}[\]&*!|>'"%@`#,?:-]|: | #|:$|\s$/.test(v) && !/^(true|false|null|~|[-+.\d].*)$/i.test(v);
  return plain ? v : JSON.stringify(v);
};

function yaml(type: string, program: ProgramExample): string {
  const secrets = configSecretsOf(program);
  const properties = Object.entries(program.inputs).flatMap(([key, v]) => {
    if (isConfigSecret(v)) return [`      ${key}: \${${v.configSecret}}`];
    if (Array.isArray(v)) {
      return [
        `      ${key}:`,
        ...v.flatMap((item) => Object.entries(item as Record<string, unknown>).map(([k, x], i) => `        ${i === 0 ? "- " : "  "}${k}: ${yamlScalar(x)}`)),
      ];
    }
    if (isRecord(v)) return [`      ${key}:`, ...Object.entries(v).map(([k, x]) => `        ${k}: ${yamlScalar(x)}`)];
    return [`      ${key}: ${yamlScalar(v)}`];
  });
  const [exported, output] = program.exports;
  return [
    ...(secrets.length > 0 ? ["config:", ...secrets.flatMap((key) => [`  ${key}:`, "    type: string", "    secret: true"])] : []),
    "resources:",
    `  ${program.name}:`,
    `    type: svc:index:${type}`,
    "    properties:",
    ...properties,
    "outputs:",
    `  ${exported}: \${${program.name}.${output}}`,
  ].join("\n");
}

/** A resource's example program in every language, from its definition. */
export function resourceExample(definition: ResourceDefinition): ResourceExample {
  const { type, program } = definition;
  return { title: program.title, typescript: typescript(type, program), python: python(type, program), go: go(definition), yaml: yaml(type, program) };
}

/** The `{{% examples %}}` block of a resource's description: its example program in every language. */
export function examplesBlock(definition: ResourceDefinition): string {
  const example = resourceExample(definition);
  return [
    "{{% examples %}}",
    "## Example Usage",
    "",
    "{{% example %}}",
    `### ${example.title}`,
    "",
    ...(["typescript", "python", "go", "yaml"] as const).flatMap((language) => [`\`\`\`${language}`, example[language], "```", ""]),
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}

/** Every resource's example programs, by type. */
export function examplesOf(definitions: readonly ResourceDefinition[]): Record<string, ResourceExample> {
  return Object.fromEntries(definitions.map((definition) => [definition.type, resourceExample(definition)]));
}
