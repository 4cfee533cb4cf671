/** docs/resources.md: each resource's fields, how a change applies, and which are secret, from the definitions. */
import { z } from "zod";
import { fieldsOf, type ResourceDefinition } from "./define";

const CHANGE = { inPlace: "updates in place", replace: "replaces", none: "no change" } as const;

function typeName(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { type?: string; enum?: unknown[]; default?: unknown };
  const base = json.enum ? json.enum.map((v) => `\`${String(v)}\``).join(" \\| ") : (json.type ?? "object");
  return json.default !== undefined ? `${base} (default \`${JSON.stringify(json.default)}\`)` : base;
}

const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");

export function resourcesPage(definitions: readonly ResourceDefinition[]): string {
  const parts = [
    "# Resources",
    "",
    "<!-- Generated from provider/definitions by `npm run generate`: do not edit; a test fails when it differs. -->",
    "",
    "Each resource is the same in the dynamic provider (`new svc.AppToken(...)` from `pulumi-svc`) and in the native",
    "plugin (`svc:index:AppToken` from `pulumi-resource-svc`, for Python, Go, YAML and `pulumi import`).",
    "",
  ];
  for (const definition of definitions) {
    const fields = fieldsOf(definition);
    parts.push(`## ${definition.type}`, "", definition.description, "", "```typescript", definition.example, "```", "");
    parts.push("| input | type | a change | secret | what |", "|---|---|---|---|---|");
    for (const key of fields.inputKeys) {
      const field = definition.inputs[key]!;
      const required = field.schema.safeParse(undefined).success ? "" : " (required)";
      parts.push(
        `| \`${key}\`${required} | ${cell(typeName(field.schema))} | ${CHANGE[field.change]} | ${field.secret ? "yes" : ""} | ${cell(field.description)} |`,
      );
    }
    parts.push("", "| output | type | secret | what |", "|---|---|---|---|");
    for (const [key, output] of Object.entries(definition.outputs)) {
      parts.push(`| \`${key}\` | ${output.type} | ${output.secret ? "yes" : ""} | ${cell(output.description)} |`);
    }
    parts.push(
      "",
      `Every input is an output too. Import: \`pulumi import svc:index:${definition.type} <name> <id>\`, where the id is ${definition.idDescription}.`,
      "",
    );
  }
  return `${parts.join("\n")}`;
}
