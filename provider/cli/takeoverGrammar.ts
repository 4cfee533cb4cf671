/**
 * What `pulumi-svc takeover` accepts from the platform before it writes a line. The listing is data from a server (a
 * compromised platform or an intercepted connection controls it) and the files it becomes are code that the next
 * preview runs, so every id, name and value that reaches the import file or the program is checked here against the
 * platform's grammar. One that does not match stops the run before anything is written, with an error naming the
 * object and showing the value escaped and cut short.
 */
import { fieldsOf, type Grammar, type ResourceDefinition } from "../definitions/define";
import { untrusted } from "./asciiLiteral";

export type { Grammar };

/** A Pulumi resource name as takeover derives it (takeoverListing's resourceName): lower-case words joined by "-". */
export const RESOURCE_NAME: Grammar = {
  pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  max: 100,
  expected: "a resource name (lower-case letters and digits, words joined by -)",
};

/** A TypeScript variable as takeover derives it from the resource name. */
export const VARIABLE_NAME: Grammar = { pattern: /^[A-Za-z][A-Za-z0-9]*$/, max: 120, expected: "a variable name (letters and digits)" };

/**
 * Text the platform stores (names, descriptions, an email's body): well-formed Unicode with no control character but
 * tab and line breaks, at most 100,000 characters (the longest field, an email body).
 */
const TEXT: Grammar = {
  pattern: /^(?:[\t\n\r]|[^\p{Cc}\p{Cs}])*$/u,
  max: 100_000,
  expected: "text (no control characters other than tab and line breaks, at most 100000 characters)",
};
/** One line of such text: every field but the ones in MULTILINE_KEYS (a name, a URL, privileges, a subject, an address). */
const LINE: Grammar = { pattern: /^[^\p{Cc}\p{Cs}\p{Zl}\p{Zp}]*$/u, max: 100_000, expected: "one line of text (no control characters or line breaks)" };
/** Fields whose text may span lines: a description, an email body, a content parameter's value. */
const MULTILINE_KEYS: ReadonlySet<string> = new Set(["description", "body", "value"]);

export const matches = (grammar: Grammar, text: string): boolean => text.length <= grammar.max && grammar.pattern.test(text);

const refused = (what: string, detail: string) => new Error(`${what}: ${detail}; takeover wrote nothing`);

/**
 * The object's id and the resource name it gets: both go into the import file and the program. The id's grammar is
 * its definition's (`takeover.id`); a definition without one is refused, never written.
 */
export function checkIdentity(definition: ResourceDefinition, id: string, name: string): void {
  const { type } = definition;
  const idGrammar: Grammar | undefined = definition.takeover?.id;
  if (!idGrammar) throw refused(`${type} ${untrusted(id)}`, `takeover knows no id grammar for ${untrusted(type)}`);
  if (!matches(idGrammar, id)) throw refused(`${type} ${untrusted(id)}`, `the id the platform sent is not ${idGrammar.expected}`);
  if (!matches(RESOURCE_NAME, name)) throw refused(`${type} ${id}`, `the resource name ${untrusted(name)} is not ${RESOURCE_NAME.expected}`);
}

/**
 * The inputs a program declares for an object: every string at any depth is text (one line, except MULTILINE_KEYS),
 * and every value is one the resource's own input schema accepts, so the program declares what the platform can hold.
 */
export function checkInputs(definition: ResourceDefinition, id: string, declared: Record<string, unknown>): void {
  const shape = fieldsOf(definition).shape;
  for (const [key, value] of Object.entries(declared)) {
    const where = `${definition.type} ${id}`;
    checkText(where, key, key, value);
    const parsed = shape[key]?.safeParse(value);
    if (!parsed?.success) {
      throw refused(where, `${key} from the platform is not a value the program may declare (${parsed?.error.issues[0]?.message ?? "not an input"})`);
    }
  }
}

function checkText(where: string, path: string, key: string, value: unknown): void {
  if (typeof value === "string") {
    const grammar = MULTILINE_KEYS.has(key) ? TEXT : LINE;
    if (!matches(grammar, value)) throw refused(where, `${path} ${untrusted(value)} from the platform is not ${grammar.expected}`);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) checkText(where, `${path}[${i}]`, key, item);
  } else if (value !== null && typeof value === "object") {
    for (const [inner, item] of Object.entries(value)) {
      if (!matches(LINE, inner)) throw refused(where, `a key in ${path}, ${untrusted(inner)}, is not ${LINE.expected}`);
      checkText(where, `${path}.${inner}`, inner, item);
    }
  }
}
