/**
 * The takeover program in Pulumi YAML: a `resources:` document (Main.yaml beside a Pulumi.yaml without resources, or
 * merged into Pulumi.yaml). Property names are the schema's; every value is a double-quoted scalar from
 * quotedCodePoints (printable ASCII) in flow style. Pulumi YAML reads `${...}` in any string as an interpolation (a
 * config value, another resource's output) and a key starting `fn::` as a function call: so every `$` is written `$$`
 * (Pulumi YAML's escape for a literal `$`), and a map key starting `fn::` is refused.
 */
import { quotedCodePoints, untrusted } from "./asciiLiteral";
import { type Declaration, headerLines, type ProgramHeader } from "./takeoverDeclarations";
import { inputProperty, renderValue, type SchemaView, type ValueSyntax } from "./takeoverSchema";

/** A string Pulumi YAML reads back as `text`, never as an interpolation. */
export const yamlText = (text: string): string => quotedCodePoints(text.replaceAll("$", "$$$$"));

function yamlKey(key: string): string {
  if (/^fn::/i.test(key.trim())) throw new Error(`the map key ${untrusted(key)} would be a Pulumi YAML function call; takeover wrote nothing`);
  return yamlText(key);
}

const yamlSyntax: ValueSyntax = {
  text: yamlText,
  integer: (n) => String(n),
  number: (n) => String(n),
  boolean: (b) => String(b),
  list: (items) => `[${items.join(", ")}]`,
  map: (entries) => `{${entries.map(([key, value]) => `${yamlKey(key)}: ${value}`).join(", ")}}`,
  object: (_name, fields) => `{${fields.map(([key, value]) => `${yamlKey(key)}: ${value}`).join(", ")}}`,
  enumValue: (_name, rendered) => rendered,
};

export function yamlProgram(schema: SchemaView, declarations: readonly Declaration[], header: ProgramHeader): string {
  const lines = [...headerLines(declarations, header).map((line) => `# ${line}`), "resources:"];
  // A YAML program names resources by their key, which must be unique across types; the resource name may repeat
  // across types (a token and a webhook both "deploy"), so such a key gets its type and `name:` keeps the name.
  const keys = new Set<string>();
  for (const d of declarations) {
    let key = d.name;
    for (let n = 1; keys.has(key); n++) key = `${d.name}-${d.type.toLowerCase()}${n === 1 ? "" : `-${n}`}`;
    keys.add(key);
    lines.push(`  # ${d.type} ${d.id}`, `  ${yamlText(key)}:`, `    type: ${d.token}`);
    if (key !== d.name) lines.push(`    name: ${yamlText(d.name)}`);
    const entries = Object.entries(d.inputs);
    if (entries.length > 0) {
      lines.push("    properties:");
      for (const [name, value] of entries) {
        lines.push(`      ${name}: ${renderValue(schema, inputProperty(schema, d.token, name), value, yamlSyntax, `${d.type} ${d.id}: ${name}`)}`);
      }
    }
    lines.push("    options:", "      protect: true");
  }
  return `${lines.join("\n")}\n`;
}
