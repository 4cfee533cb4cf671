/** docs/resources.md: each resource's fields, how a change applies, and which are secret, from the definitions. */
import { z } from "zod";
import { SETTINGS } from "../core/connection";
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
  parts.push(...settingsSection());
  return `${parts.join("\n")}`;
}

/** The provider's settings (the one list: SETTINGS) and where a resource's connection takes each from. */
function settingsSection(): string[] {
  return [
    "## Provider settings and `connection`",
    "",
    "Every resource reaches the platform through its provider's settings: the stack config `svc:*` (the default",
    "provider), or the inputs of an explicit provider of the plugin (`new svc.Provider(...)`), with the `SVC_*`",
    "environment variables as fallback. A resource's `connection` input (a secret) takes the same fields, but",
    "`maxConcurrency`, to reach another account.",
    "",
    "| stack config | environment | type | secret | what |",
    "|---|---|---|---|---|",
    ...Object.values(SETTINGS).map(
      (setting) =>
        `| \`${setting.config}\` | \`${setting.env}\` | ${setting.type} | ${"secret" in setting && setting.secret ? "yes" : ""} | ${cell(setting.description)} |`,
    ),
    "",
    "Where each value comes from, the sources nearest first: the resource's `connection`, the provider's settings,",
    "the environment.",
    "",
    "- Each setting comes from the nearest source that sets it.",
    "- Credentials (`adminSecret`, `appTokenId` + `appToken` + `appTokenHashType`, `ks`) all come from one source, the",
    "  nearest that sets any of them, never combined across sources. A source that names an account (`baseUrl` or",
    "  `partnerId`) brings its own credentials: a `connection` with only a `baseUrl` or a `partnerId` is refused, never",
    "  sent the provider's credentials; an explicit provider (or stack config) that names its account takes no `SVC_*`",
    "  credentials, unless the environment names that very account (`SVC_BASE_URL` and `SVC_PARTNER_ID` equal to it, as",
    "  a committed stack file and a CI job's variables naming the same account do). The error names what is missing.",
    "- Plain `http://` is refused for any host outside loopback (127.0.0.0/8, ::1, localhost): every call carries a",
    "  credential, which would travel unencrypted. `allowInsecureHttp` opts in, and counts only in the source that sets",
    "  the `baseUrl` (`svc:allowInsecureHttp` for `svc:baseUrl`, `SVC_ALLOW_INSECURE_HTTP` for `SVC_BASE_URL`,",
    "  `connection.allowInsecureHttp` for `connection.baseUrl`). The sdk's `SvcClient` has the same option, default off.",
    "- No message (error, log line, event, diagnostic) carries a URL's `user:password@`.",
    "",
  ];
}
