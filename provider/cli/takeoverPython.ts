/**
 * The takeover program in Python (`__main__.py` of a `runtime: python` project), on the generated SDK whose module
 * the schema names (`pulumi_svc`). Argument names are the SDK's: snake_case of the schema's names; every value is a
 * literal from quotedCodePoints (printable ASCII, no way out of the string), objects of the schema's types as their
 * `<Type>Args(...)` classes, enums as their text.
 */
import { quotedCodePoints } from "./asciiLiteral";
import { type Declaration, headerLines, type ProgramHeader } from "./takeoverDeclarations";
import { inputProperty, renderValue, type SchemaView, type ValueSyntax } from "./takeoverSchema";

const PYTHON_KEYWORDS: ReadonlySet<string> = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** The SDK's argument name for a schema property: `systemTemplateId` is `system_template_id`, a keyword gets `_`. */
export function pythonName(name: string): string {
  const snake = name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
  return PYTHON_KEYWORDS.has(snake) ? `${snake}_` : snake;
}

const MODULE_ALIAS = "svc";

const pythonSyntax: ValueSyntax = {
  text: quotedCodePoints,
  integer: (n) => String(n),
  number: (n) => String(n),
  boolean: (b) => (b ? "True" : "False"),
  list: (items) => `[${items.join(", ")}]`,
  map: (entries) => `{${entries.map(([key, value]) => `${quotedCodePoints(key)}: ${value}`).join(", ")}}`,
  object: (name, fields) => `${MODULE_ALIAS}.${name}Args(${fields.map(([key, value]) => `${pythonName(key)}=${value}`).join(", ")})`,
  enumValue: (_name, rendered) => rendered,
};

export function pythonProgram(schema: SchemaView, declarations: readonly Declaration[], header: ProgramHeader): string {
  const module = schema.language.python.packageName;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(module)) throw new Error(`the schema's Python package name ${module} is not a module name`);
  const lines = [...headerLines(declarations, header).map((line) => `# ${line}`), "import pulumi", `import ${module} as ${MODULE_ALIAS}`, ""];
  for (const d of declarations) {
    lines.push(`# ${d.type} ${d.id}`, `${MODULE_ALIAS}.${d.type}(`, `    ${quotedCodePoints(d.name)},`);
    for (const [key, value] of Object.entries(d.inputs)) {
      lines.push(`    ${pythonName(key)}=${renderValue(schema, inputProperty(schema, d.token, key), value, pythonSyntax, `${d.type} ${d.id}: ${key}`)},`);
    }
    lines.push("    opts=pulumi.ResourceOptions(protect=True),", ")", "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
