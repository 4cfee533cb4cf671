/**
 * The takeover program in Go, on the generated SDK whose import path the schema names: one file of package `main`
 * (with `func main() { pulumi.Run(Takeover) }`) or of another package (`--go-package`, for a program that calls
 * `Takeover(ctx)` itself, such as an Automation API program). Field names are the SDK's (the schema's name with a
 * capital), every value is wrapped in the SDK's input type for its schema type (`pulumi.String`, `pulumi.StringMapArray`,
 * `svc.<Type>Args`, ...), and every string is a literal from quotedCodePoints (printable ASCII, no way out of it).
 */
import { quotedCodePoints } from "./asciiLiteral";
import { typeToken } from "../resources/typeToken";
import { type Declaration, headerLines, type ProgramHeader } from "./takeoverDeclarations";
import { inputProperty, type PropertySpec, renderValue, type SchemaView, typeName, type ValueSyntax } from "./takeoverSchema";

const GO_KEYWORDS: ReadonlySet<string> = new Set(
  "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var".split(
    " ",
  ),
);

export const isGoPackageName = (name: string): boolean => /^[a-z][a-z0-9_]*$/.test(name) && !GO_KEYWORDS.has(name);

const SDK_ALIAS = "svc";
const goField = (name: string): string => name[0]!.toUpperCase() + name.slice(1);

const PRIMITIVE_INPUTS: Record<string, string> = { string: "pulumi.String", integer: "pulumi.Int", number: "pulumi.Float64", boolean: "pulumi.Bool" };

/** The SDK's input type for `spec` without its Args suffix: `pulumi.String`, `pulumi.StringMapArray`, `svc.EmailRecipientArray`. */
function inputTypeName(spec: PropertySpec): string {
  if (spec.$ref) return `${SDK_ALIAS}.${typeName(spec.$ref)}`;
  if (spec.type === "array" && spec.items) return `${inputTypeName(spec.items)}Array`;
  if (spec.type === "object" && spec.additionalProperties) return `${inputTypeName(spec.additionalProperties)}Map`;
  const primitive = PRIMITIVE_INPUTS[spec.type ?? ""];
  if (!primitive) throw new Error(`no Go input type for ${JSON.stringify(spec)}`);
  return primitive;
}

/** Values as Go expressions: primitives bare (wrapped by the property they belong to, see `wrapped`). */
function goSyntax(schema: SchemaView): ValueSyntax {
  return {
    text: quotedCodePoints,
    integer: (n) => String(n),
    number: (n) => String(n),
    boolean: (b) => String(b),
    list: (items, spec) => `${inputTypeName(spec)}{${items.map((item) => wrapped(spec.items!, item)).join(", ")}}`,
    map: (entries, spec) =>
      `${inputTypeName(spec)}{${entries.map(([key, value]) => `${quotedCodePoints(key)}: ${wrapped(spec.additionalProperties!, value)}`).join(", ")}}`,
    object: (name, fields) => {
      const type = schema.types?.[typeToken(name)];
      return `${SDK_ALIAS}.${name}Args{${fields.map(([key, value]) => `${goField(key)}: ${type?.properties?.[key] ? wrapped(type.properties[key]!, value) : value}`).join(", ")}}`;
    },
    enumValue: (name, rendered) => `${SDK_ALIAS}.${name}(${rendered})`,
  };
}

/** A rendered primitive in its input type (`pulumi.String("x")`); lists, maps, objects and enums are typed already. */
function wrapped(spec: PropertySpec, rendered: string): string {
  return !spec.$ref && PRIMITIVE_INPUTS[spec.type ?? ""] ? `${PRIMITIVE_INPUTS[spec.type!]}(${rendered})` : rendered;
}

export function goProgram(schema: SchemaView, declarations: readonly Declaration[], header: ProgramHeader, goPackage = "main"): string {
  if (!isGoPackageName(goPackage)) throw new Error(`--go-package ${JSON.stringify(goPackage)} is not a Go package name (lower-case letters, digits, _)`);
  const importPath = schema.language.go.importBasePath;
  if (!/^[A-Za-z0-9._~/-]+\/svc$/.test(importPath)) throw new Error(`the schema's Go import path ${importPath} does not end in /svc`);
  const syntax = goSyntax(schema);
  const lines = [
    ...headerLines(declarations, header).map((line) => `// ${line}`),
    `package ${goPackage}`,
    "",
    "import (",
    `\t${quotedCodePoints(importPath)}`,
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ")",
    "",
  ];
  if (goPackage === "main") lines.push("func main() {", "\tpulumi.Run(Takeover)", "}", "");
  lines.push("// Takeover declares the account's objects, protected as `pulumi import` leaves them.", "func Takeover(ctx *pulumi.Context) error {");
  for (const d of declarations) {
    lines.push(`\t// ${d.type} ${d.id}`, `\tif _, err := ${SDK_ALIAS}.New${d.type}(ctx, ${quotedCodePoints(d.name)}, &${SDK_ALIAS}.${d.type}Args{`);
    for (const [key, value] of Object.entries(d.inputs)) {
      const spec = inputProperty(schema, d.token, key);
      lines.push(`\t\t${goField(key)}: ${wrapped(spec, renderValue(schema, spec, value, syntax, `${d.type} ${d.id}: ${key}`))},`);
    }
    lines.push("\t}, pulumi.Protect(true)); err != nil {", "\t\treturn err", "\t}");
  }
  lines.push("\treturn nil", "}");
  return `${lines.join("\n")}\n`;
}
