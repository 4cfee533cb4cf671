/**
 * Pulumi's property values on the wire of the provider protocol: secrets travel as objects carrying the signature
 * key (`acceptSecrets`), at any depth (`keepers: { rotation: pulumi.secret(x) }`). Inputs are unwrapped once at the
 * edge (the runtime sees plain values); the path of every secret that came in is recorded first (a list holding
 * one as a whole), and what goes back is wrapped again at those paths and at every field the definition marks secret. The plugin accepts
 * secrets, so the engine does not re-mark them: a path forgotten here would be plain text in the state.
 */
import { registerSecret } from "../sdk/core/redact";

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;
/** Where a value sits: object keys (strings) and array indexes (numbers), from the top-level property down. */
export type PropertyPath = readonly (string | number)[];

function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** The plain value, with every secret wrapper inside it removed. */
export function unwrapSecrets(value: unknown): unknown {
  if (isSecret(value)) return unwrapSecrets(value.value);
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapSecrets(v)]));
  return value;
}

/**
 * The path of every secret in `props`, at any depth. Only the outermost of nested secrets is listed: wrapping it
 * covers what is inside. A list that holds a secret anywhere is listed as a whole, never by index: the platform may
 * return a list reordered, longer or shorter (drift, a recipient added by hand), and an index would then wrap the
 * wrong element and leave the secret one in plain text. So paths name object keys only.
 */
export function secretPaths(props: Props | undefined): PropertyPath[] {
  const paths: PropertyPath[] = [];
  const visit = (value: unknown, path: string[]): void => {
    if (isSecret(value) || (Array.isArray(value) && holdsSecret(value))) paths.push(path);
    else if (value !== null && typeof value === "object" && !Array.isArray(value)) for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
  };
  for (const [key, value] of Object.entries(props ?? {})) visit(value, [key]);
  return paths;
}

/** Whether a secret sits anywhere inside `value`. */
function holdsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (value === null || typeof value !== "object") return false;
  return (Array.isArray(value) ? value : Object.values(value)).some(holdsSecret);
}

/** Top-level keys as paths (the fields a definition or the settings mark secret). */
export function keyPaths(keys: Iterable<string>): PropertyPath[] {
  return [...keys].map((key) => [key]);
}

/** Secret texts shorter than this are not hidden in messages: hiding "1" everywhere would destroy them. */
const MIN_HIDDEN_TEXT = 3;

/** The text of every string and number inside a secret in `props`, at any depth: what no message may show. */
export function secretTexts(props: unknown): string[] {
  const texts: string[] = [];
  const visit = (value: unknown, inSecret: boolean): void => {
    if (isSecret(value)) visit(value.value, true);
    else if (Array.isArray(value)) for (const item of value) visit(item, inSecret);
    else if (value !== null && typeof value === "object") for (const item of Object.values(value)) visit(item, inSecret);
    else if (inSecret && (typeof value === "string" || typeof value === "number") && String(value).length >= MIN_HIDDEN_TEXT) texts.push(String(value));
  };
  visit(props, false);
  return texts;
}

/**
 * Every text the program sent as a secret, registered with the sdk's redaction before a create or update sends it:
 * a platform error that quotes one ("invalid description '<value>'") is then cleaned like one quoting a ks.
 */
export function registerSecretTexts(props: unknown): void {
  for (const text of secretTexts(props)) registerSecret(text);
}

/** `error` with every one of `texts` in its message replaced by [secret] (a lookup's "not found" may quote its argument). */
export function withoutSecretTexts(error: unknown, texts: readonly string[]): unknown {
  if (!(error instanceof Error) || !texts.some((text) => error.message.includes(text))) return error;
  const longestFirst = [...texts].sort((a, b) => b.length - a.length);
  const message = longestFirst.reduce((text, secretText) => text.split(secretText).join("[secret]"), error.message);
  return Object.assign(new Error(message), { name: error.name });
}

export function secret(value: unknown): unknown {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * A copy of `props` with the value at each path wrapped as a secret. What goes back may be shaped differently from
 * what came in (a list the server shortened, an object it replaced by text): a path that does not exist in full
 * wraps the deepest part of it that does, so the secret is never dropped. A path whose top-level property is
 * absent has nothing to wrap. A value already inside a secret is not wrapped again. `props` is left as it is: only
 * the objects and lists on a wrapped path are copied (a refresh answers with this for every resource: a deep clone
 * of the whole state was most of the cost).
 */
export function wrapSecretPaths(props: Props, paths: Iterable<PropertyPath>): Props {
  const out = { ...props };
  const copies = new WeakSet<object>([out]);
  // Shortest first: a deeper path under one already wrapped then finds the wrapper and stops.
  for (const path of [...paths].sort((a, b) => a.length - b.length)) wrapAt(out, path, copies);
  return out;
}

/** `holder[key]` as a copy of this call's own (made once), so that wrapping inside it leaves the caller's value as it is. */
function ownCopy(holder: Record<string | number, unknown>, key: string | number, copies: WeakSet<object>): Record<string | number, unknown> {
  const value = holder[key] as Record<string | number, unknown>;
  if (copies.has(value)) return value;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;
  copies.add(copy);
  holder[key] = copy;
  return copy;
}

function wrapAt(root: Props, path: PropertyPath, copies: WeakSet<object>): void {
  const [first, ...rest] = path;
  if (typeof first !== "string" || !Object.hasOwn(root, first)) return;
  let holder: Record<string | number, unknown> = root;
  let key: string | number = first;
  for (const next of rest) {
    const value = holder[key];
    if (isSecret(value) || !holds(value, next)) break;
    holder = ownCopy(holder, key, copies);
    key = next;
  }
  if (holder[key] !== undefined && !isSecret(holder[key])) holder[key] = secret(holder[key]);
}

/** Whether `container` has an element at `key`: an index of an array, or an own key of an object. */
function holds(container: unknown, key: string | number): boolean {
  if (Array.isArray(container)) return typeof key === "number" && key >= 0 && key < container.length;
  if (container === null || typeof container !== "object" || isSecret(container)) return false;
  return typeof key === "string" && Object.hasOwn(container, key);
}
