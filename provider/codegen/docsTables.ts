/** docs/resources.md: each resource's fields, how a change applies, and which are secret, from the definitions. */
import { z } from "zod";
import { SETTINGS } from "../core/connection";
import { ACCOUNTS_SETTING } from "../core/namedAccounts";
import { fieldsOf, type InputField, type OutputField, type ResourceDefinition } from "../definitions/define";
import type { ArgumentField, FunctionDefinition } from "../definitions/defineFunction";
import { SCHEMA_TYPES, type SchemaTypeName } from "../definitions/schemaTypes";
import { typeToken } from "../resources/typeToken";

const CHANGE = { inPlace: "updates in place", replace: "replaces", none: "no change" } as const;

const typeLink = (name: SchemaTypeName): string => `[${name}](#${name.toLowerCase()})`;

function typeName(field: InputField | ArgumentField): string {
  const json = z.toJSONSchema(field.schema, { io: "input", unrepresentable: "any" }) as { type?: string; enum?: unknown[]; default?: unknown };
  const values = json.enum ? json.enum.map((v) => `\`${String(v)}\``).join(" \\| ") : undefined;
  const named = field.typeName ? (json.type === "array" ? `list of ${typeLink(field.typeName)}` : typeLink(field.typeName)) : undefined;
  const base = named && values ? `${named}: ${values}` : (named ?? values ?? json.type ?? "object");
  return json.default !== undefined ? `${base} (default \`${JSON.stringify(json.default)}\`)` : base;
}

function outputTypeName(output: OutputField): string {
  if (output.type === "array") return `list of ${output.typeName ? typeLink(output.typeName) : "string"}`;
  return output.typeName ? typeLink(output.typeName) : output.type;
}

const what = (field: { description: string; deprecationMessage?: string }): string =>
  field.deprecationMessage ? `**Deprecated:** ${field.deprecationMessage} ${field.description}` : field.description;

const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");

export function resourcesPage(definitions: readonly ResourceDefinition[], functions: readonly FunctionDefinition[] = []): string {
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
      parts.push(`| \`${key}\`${required} | ${cell(typeName(field))} | ${CHANGE[field.change]} | ${field.secret ? "yes" : ""} | ${cell(what(field))} |`);
    }
    parts.push("", "| output | type | secret | what |", "|---|---|---|---|");
    for (const [key, output] of Object.entries(definition.outputs)) {
      parts.push(`| \`${key}\` | ${cell(outputTypeName(output))} | ${output.secret ? "yes" : ""} | ${cell(output.description)} |`);
    }
    parts.push(
      "",
      `Every input is an output too. Import: \`pulumi import ${typeToken(definition.type)} <name> <id>\`, where the id is ${definition.idDescription}.`,
      "",
    );
  }
  parts.push(...functionsSection(functions), ...typesSection(), ...settingsSection());
  return `${parts.join("\n")}`;
}

/** The functions' arguments and results (how to call them in each language: docs/functions.md). */
function functionsSection(functions: readonly FunctionDefinition[]): string[] {
  if (functions.length === 0) return [];
  const parts = [
    "## Functions",
    "",
    "Lookups a program makes instead of hard-coding an id per environment, served by the native plugin; how to call",
    "them in TypeScript, Python, Go and YAML: [functions.md](functions.md).",
    "",
  ];
  for (const f of functions) {
    parts.push(`### ${f.name}`, "", f.description, "", "| argument | type | what |", "|---|---|---|");
    for (const [key, field] of Object.entries(f.inputs)) {
      const required = field.schema.safeParse(undefined).success ? "" : " (required)";
      parts.push(`| \`${key}\`${required} | ${cell(typeName(field))} | ${cell(field.description)} |`);
    }
    parts.push("", "| result | type | secret | what |", "|---|---|---|---|");
    for (const [key, output] of Object.entries(f.outputs)) {
      parts.push(`| \`${key}\` | ${cell(outputTypeName(output))} | ${output.secret ? "yes" : ""} | ${cell(output.description)} |`);
    }
    parts.push("");
  }
  return parts;
}

/** The named types of the schema: what each language's SDK types a field with. */
function typesSection(): string[] {
  const parts = [
    "## Types",
    "",
    "The schema names a type for each enum and object field, and the generated SDKs type the field with it: a union",
    "of the values in TypeScript (`pulumi-svc` and `pulumi-svc/native` too), an enum class in Python",
    "(`svc.HashType.SHA256`) and constants in Go (`svc.HashTypeSHA256`), a class per object. A typo in an enum value",
    "fails type-checking in TypeScript and compiling in Go; in Python and YAML (where any string passes the language)",
    "`pulumi preview` fails, the plugin's check naming the field and the allowed values. The dynamic providers accept",
    "the same values as ever: the types only name them.",
    "",
    "A field on its way out carries a `deprecationMessage` in the schema: each SDK marks it deprecated, and a program",
    "that sets it gets a warning in `pulumi preview` and `up` (TypeScript `pulumi-svc/native` and Python).",
    "",
  ];
  for (const [name, type] of Object.entries(SCHEMA_TYPES)) {
    parts.push(`### ${name}`, "", type.description, "");
    if (type.kind === "enum") {
      parts.push(`Values: ${(type.schema.options as string[]).map((v) => `\`${v}\``).join(", ")}.`, "");
      continue;
    }
    parts.push("| field | type | what |", "|---|---|---|");
    if ("schema" in type) {
      const shape = type.schema.shape as Record<string, z.ZodType>;
      for (const [key, description] of Object.entries(type.fields)) {
        const optional = shape[key]?.safeParse(undefined).success ? "" : " (required)";
        parts.push(`| \`${key}\`${optional} | string | ${cell(description)} |`);
      }
    } else {
      for (const [key, p] of Object.entries(type.properties)) {
        parts.push(`| \`${key}\`${p.optional ? "" : " (always)"} | ${p.typeName ? typeLink(p.typeName) : p.type} | ${cell(p.description)} |`);
      }
    }
    parts.push("");
  }
  return parts;
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
    "- Each setting comes from the nearest source that sets it, except the account and its credentials: a `connection`",
    "  or the provider's settings (stack config, an explicit provider) that sets any of `baseUrl`, `partnerId` or a",
    "  credential takes none of those three from the environment. A missing `baseUrl` or `partnerId` is then an error",
    "  naming where to set it, never `SVC_BASE_URL` (which may point at another platform: a staging runner's).",
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
    "- The package schema names each setting's variable as `defaultInfo.environment` of the stack config (the generated",
    "  SDKs' `config` getters fall back to it), not of an explicit provider's inputs: there a generated SDK would copy",
    "  the environment's credentials into a provider that names another account. The plugin applies the fallback itself,",
    "  under the rules above.",
    "",
    ...namedAccountsSection(),
  ];
}

/** A Pulumi YAML reference, `${name}`, as the docs print it. */
const yamlRef = (name: string) => `$\{${name}}`;

/** Named accounts (`accounts`, `account`) and the move of a stack to them, step by step. */
function namedAccountsSection(): string[] {
  return [
    "## Named accounts",
    "",
    "One provider (one plugin process, or the dynamic providers' one process) serves many accounts: the setting",
    `\`${ACCOUNTS_SETTING.config}\` (\`${ACCOUNTS_SETTING.key}\` on an explicit provider; a secret) maps a name (letters, digits, \`-\`,`,
    "`_`) to an account's connection, with the fields of `connection` (baseUrl, partnerId, credentials,",
    "requestTimeoutMs, allowInsecureHttp), and each resource and function names its account with `account`.",
    "",
    "```sh",
    "pulumi config set --path svc:accounts.eu.partnerId 102",
    'pulumi config set --path --secret svc:accounts.eu.adminSecret "$EU_ADMIN_SECRET"',
    "pulumi config set --path svc:accounts.us.baseUrl https://us.api.example.com/api_v3",
    "pulumi config set --path svc:accounts.us.partnerId 310",
    'pulumi config set --path --secret svc:accounts.us.adminSecret "$US_ADMIN_SECRET"',
    "```",
    "",
    "```ts",
    'new svc.AppToken("eu-pipeline", { description: "Pipeline", account: "eu" });',
    'const usTokens = svc.getAppTokensOutput({ account: "us" });',
    "```",
    "",
    "- An entry resolves as a `connection` does: a `baseUrl` left out is the provider's own `svc:baseUrl` (never",
    "  `SVC_BASE_URL`), and the entry brings its own credentials. A provider that serves named accounts need not have",
    "  an account of its own; a resource without `account` then fails check.",
    "- Without `account`, a resource uses the provider's own account, as before. `account` and `connection` together",
    "  are refused; `connection` is deprecated.",
    "- An unknown name fails check (and so `pulumi preview`), naming it and the names the provider knows. A bad entry",
    "  fails the provider's check, naming the entry and the field (`` `accounts.eu.partnerId` must be a whole number from 1 ``).",
    "- Each account has its own client and session; the sockets to one platform origin are shared.",
    "- The same account is the same partner and base URL, whatever names it: a resource whose `account` (or",
    "  `connection`, or explicit provider) changes to a name of the same account is updated in the state only; to",
    "  another account, it is replaced. An entry changed to another partner under resources that name it is refused",
    "  in preview (the state holds the name, so their deletes would go to the new partner): add the new account under",
    "  another name and move them to it.",
    "- `pulumi import` (and the import file of `pulumi-svc takeover`) reads an object by its id alone, which names no account: it",
    "  searches the provider's own account. To take over a named account's objects, import them with an explicit",
    "  provider of that account, then move them to `account` as below.",
    "",
    "### Moving to named accounts",
    "",
    "A stack of explicit providers (one per account), or of resources with a `connection`, moves with nothing created,",
    "deleted or replaced, every id the same. The engine asks the new provider whether the old provider's account is",
    "one it serves (DiffConfig, by partner and base URL), then each resource's diff holds the partner in its state to",
    "the account it now names.",
    "",
    "TypeScript (`pulumi-svc/native`; a program of the dynamic providers with `connection` does the same from step 2):",
    "",
    "1. Put each account in stack config, under the name the program will use, with the same `baseUrl` and `partnerId`",
    "   as its provider (or `connection`) has today: `pulumi config set --path svc:accounts.eu.partnerId 102`, and",
    "   `pulumi config set --path --secret svc:accounts.eu.adminSecret ...` (and `baseUrl` when it is not `svc:baseUrl`).",
    '2. In the program, remove `{ provider }` (or `connection`) from each resource and give it `account: "eu"`; remove',
    '   the `new svc.Provider(...)` of each account. Before: `new svc.AppToken("t", { description }, { provider: eu })`;',
    '   after: `new svc.AppToken("t", { description, account: "eu" })`.',
    "3. `pulumi preview`: every resource shows an update of `account` (`~`, state only, no platform call), the explicit",
    "   providers a delete; no create, no replace. A resource shown as a replacement names an account of another",
    "   partner or base URL: fix its `account`. A resource left without `account` whose object is in a named account's",
    "   partner fails the preview, saying which `account` keeps it.",
    "4. `pulumi up`. Then `pulumi preview --expect-no-changes` is clean; every id is the one it was.",
    "",
    "YAML: the same, with `accounts` in stack config as above, and in `Pulumi.yaml`:",
    "",
    "```yaml",
    "# before",
    "resources:",
    "  eu:",
    "    type: pulumi:providers:svc",
    `    properties: { baseUrl: https://api.example.com/api_v3, partnerId: 102, adminSecret: ${yamlRef("euAdminSecret")} }`,
    "  pipeline:",
    "    type: svc:index:AppToken",
    "    properties: { description: Pipeline }",
    `    options: { provider: ${yamlRef("eu")} }`,
    "# after",
    "resources:",
    "  pipeline:",
    "    type: svc:index:AppToken",
    "    properties: { description: Pipeline, account: eu }",
    "```",
    "",
    "Tested through the engine: `test/accounts/namedAccounts.test.ts` (TypeScript) and",
    "`test/accounts/namedAccountsYaml.test.ts` (YAML), each with 5 named accounts, and",
    "`test/accounts/namedAccountsDynamic.test.ts` (the dynamic providers, `svc:accounts` set by path).",
    "",
  ];
}
