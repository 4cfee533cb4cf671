/**
 * What `pulumi-svc takeover` writes: Pulumi's import file (type, name, id) and a TypeScript program on
 * `pulumi-svc/native` whose inputs are the ones read from the account, so that the preview after
 * `pulumi import --file` shows no change. Only input fields are written, never a secret: a token's value stays in the
 * state (a secret output), and a template's write-once signSecret is left out (see the comment written beside it).
 * What the platform sent is checked against its grammar first (takeoverGrammar.ts) and written only as escaped
 * literals (asciiLiteral.ts); comments hold nothing but checked ids and escaped text. A webhook url that carries
 * credentials (a `user:password@`, a query or fragment parameter that looks like a token, a path that holds a key the
 * way Slack's and Discord's webhooks do) is refused, naming the object: the program would hold them in plain text,
 * and one without them would change the webhook on the next `pulumi up`.
 */
import { sameValue } from "../core/diff";
import { fieldsOf } from "../definitions/define";
import { stripUserinfo } from "../../contract/urlUserinfo";
import { commentText, tsLiteral, untrusted } from "./asciiLiteral";
import { checkIdentity, checkInputs, matches, VARIABLE_NAME } from "./takeoverGrammar";
import { typeToken } from "../resources/typeToken";
import { type Candidate, countsText } from "./takeoverListing";

/** Inputs a takeover never writes: how to reach the account (stack config does), adoption by id, rotation keepers. */
const NOT_WRITTEN: ReadonlySet<string> = new Set(["connection", "adoptId", "keepers"]);

export interface ImportFile {
  resources: { type: string; name: string; id: string }[];
}

/** Throws, naming the object, when an id or a name does not match the platform's grammar. */
export function importFile(candidates: readonly Candidate[]): ImportFile {
  for (const c of candidates) checkIdentity(c.definition, c.id, c.name);
  return { resources: candidates.map((c) => ({ type: typeToken(c.definition.type), name: c.name, id: c.id })) };
}

/** Query (and fragment) parameter names that carry credentials in webhook URLs. */
const SECRET_QUERY_NAME = /token|secret|key|sig|pass|pwd|auth|session|credential|hash|^ks$|^code$/i;
/** A query value that looks like a credential whatever its name: 16 or more characters of a token's alphabet. */
const TOKEN_LIKE_VALUE = /^[A-Za-z0-9_\-.~+/=]{16,}$/;

/**
 * Webhook services that carry the credential in the path itself, refused whatever the secret segment looks like:
 * Slack's `/services/<team>/<bot>/<secret>` and Discord's `/api/webhooks/<id>/<token>`.
 */
const CREDENTIAL_PATHS: readonly RegExp[] = [/^\/services\/[^/]+\/[^/]+\/[A-Za-z0-9]{16,}(?:\/|$)/, /^\/api\/webhooks\/\d+\/[^/]+/];

/**
 * A path segment that looks like a credential: 16 or more letters and digits, both present (dashes and underscores
 * aside), as a random token or key is written (Slack's 24, Discord's 68, hex and UUID keys). Words joined by dashes
 * (`/entry-ready-receiver`) and dates (`/2024-01-01-handler`) are not.
 */
function tokenLikeSegment(segment: string): boolean {
  const bare = decodeSegment(segment).replace(/[-_]/g, "");
  return /^[A-Za-z0-9]{16,}$/.test(bare) && /[0-9]/.test(bare) && /[A-Za-z]/.test(bare);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Why `parsed` may hold a credential (never quoting it), or undefined when nothing in it looks like one. */
function urlCredential(parsed: URL): string | undefined {
  if (parsed.username !== "" || parsed.password !== "") return "holds a user name or password";
  for (const [name, value] of parsed.searchParams) {
    if (SECRET_QUERY_NAME.test(name) || TOKEN_LIKE_VALUE.test(value)) return `has a query parameter ${untrusted(name)} that may hold a credential`;
  }
  if (CREDENTIAL_PATHS.some((shape) => shape.test(parsed.pathname))) return "has a path of a webhook service that carries its credential in the path";
  if (parsed.pathname.split("/").some(tokenLikeSegment)) return "has a path segment that looks like a token or key";
  const fragment = parsed.hash.slice(1);
  if (fragment !== "") {
    // `#token=…`, `#a=1&key=…`, or a bare token.
    for (const [name, value] of new URLSearchParams(fragment)) {
      if (SECRET_QUERY_NAME.test(name) || TOKEN_LIKE_VALUE.test(value) || (value === "" && TOKEN_LIKE_VALUE.test(name)))
        return "has a fragment that may hold a credential";
    }
  }
  return undefined;
}

/** Throws, naming the object, when a url input carries credentials that the program would hold in plain text. */
function refuseUrlCredentials(candidate: Candidate, url: unknown): void {
  if (typeof url !== "string") return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // not a URL: the grammar check refuses it
  }
  const found = urlCredential(parsed);
  if (found === undefined) return;
  const where = `${candidate.definition.type} ${candidate.id} (${untrusted(candidate.name)})`;
  throw new Error(
    `${where}: its url (${parsed.origin}) ${found}; takeover never writes credentials into code and wrote nothing. Move them ` +
      "out of the url on the platform (or adopt this webhook by hand, its url from a secret config value: " +
      "`config.requireSecret(...)`), then run takeover again",
  );
}

/**
 * The inputs a program declares for `candidate`: every readable input field that differs from its default. Throws,
 * naming the object, when a url carries credentials.
 */
export function declaredInputs(candidate: Candidate): Record<string, unknown> {
  refuseUrlCredentials(candidate, candidate.inputs.url);
  const fields = fieldsOf(candidate.definition);
  const declared: Record<string, unknown> = {};
  for (const key of fields.inputKeys) {
    if (NOT_WRITTEN.has(key) || fields.secretInputs.includes(key)) continue;
    const value = candidate.inputs[key];
    if (value === undefined || value === null) continue;
    const fallback = fields.shape[key]?.safeParse(undefined);
    if (fallback?.success && sameValue(fallback.data, value)) continue;
    declared[key] = value;
  }
  return declared;
}

export interface ProgramHeader {
  partnerId: number;
  baseUrl: string;
  /** The import file written beside the program, as the user names it. */
  importFile: string;
}

/**
 * The TypeScript program declaring every candidate, protected as `pulumi import` leaves them. Throws, naming the
 * object, when an id, a name or an input does not match the platform's grammar.
 */
export function programCode(candidates: readonly Candidate[], header: ProgramHeader): string {
  if (!Number.isSafeInteger(header.partnerId)) throw new Error("the partner id is not a whole number");
  const declared = candidates.map((candidate) => {
    checkIdentity(candidate.definition, candidate.id, candidate.name);
    const inputs = declaredInputs(candidate);
    checkInputs(candidate.definition, candidate.id, inputs);
    return { candidate, inputs };
  });
  const variables = new Set(["pulumi", "svc", "config"]);
  const hasTemplates = candidates.some((c) => "signSecret" in c.definition.inputs);
  const lines = [
    `// Written by \`pulumi-svc takeover\` from partner ${header.partnerId} at ${commentText(stripUserinfo(header.baseUrl))}: ${countsText(candidates.map((c) => c.definition))}.`,
    `// Adopt them with \`pulumi import --file ${commentText(header.importFile)} --generate-code=false\`; after that \`pulumi preview\` shows no change.`,
    "// Every input is the value read from the account. Token values are never written here: each token's `token` output",
    "// holds it, as a secret, once imported.",
    'import * as svc from "pulumi-svc/native";',
    "",
  ];
  if (hasTemplates) {
    lines.push(
      "// signSecret is write-once on the platform and cannot be read back, so the webhooks below leave it out: the platform",
      "// keeps the secret it has, and the preview stays clean. To manage one: `pulumi config set --secret <name>SignSecret ...`,",
      '// `const config = new pulumi.Config();` (import * as pulumi from "@pulumi/pulumi") and uncomment its signSecret line;',
      "// the next `pulumi up` then writes that value to the platform (deliveries are signed with it from then on).",
      "",
    );
  }
  for (const { candidate, inputs } of declared) {
    const variable = uniqueVariable(candidate.name, variables);
    // Derived from a checked resource name, so this holds; checked all the same, as it is written bare.
    if (!matches(VARIABLE_NAME, variable)) throw new Error(`${candidate.definition.type} ${candidate.id}: no variable name for ${candidate.name}`);
    variables.add(variable);
    // Keys are the definition's own input names (identifiers); values are escaped literals.
    const args = Object.entries(inputs).map(([key, value]) => `  ${key}: ${tsLiteral(value)},`);
    if ("signSecret" in candidate.definition.inputs) args.push(`  // signSecret: config.requireSecret(${tsLiteral(`${variable}SignSecret`)}),`);
    const type = candidate.definition.type;
    lines.push(
      `// ${type} ${candidate.id}`,
      args.length === 0
        ? `const ${variable} = new svc.${type}(${tsLiteral(candidate.name)}, {}, { protect: true });`
        : `const ${variable} = new svc.${type}(\n  ${tsLiteral(candidate.name)},\n  {\n${args.map((a) => `  ${a}`).join("\n")}\n  },\n  { protect: true },\n);`,
      "",
    );
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

const RESERVED: ReadonlySet<string> = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with let static yield await implements interface package private protected public arguments eval undefined".split(
    " ",
  ),
);

/** camelCase of the resource name, a valid identifier not used yet. */
function uniqueVariable(name: string, used: Set<string>): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let base = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join("") || "resource";
  if (/^[0-9]/.test(base) || RESERVED.has(base)) base = `r${base[0]!.toUpperCase()}${base.slice(1)}`;
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}${n}`)) return `${base}${n}`;
}
