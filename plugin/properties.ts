/**
 * Pulumi's property values on the wire of the provider protocol: secrets travel as objects carrying the signature
 * key (`acceptSecrets`). Inputs are unwrapped once at the edge (the runtime sees plain values), and what goes back
 * is wrapped again for every field the definition marks secret, so no secret leaves the plugin in plain text.
 */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;

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

/** The names of the top-level properties that arrived as secrets (kept secret on the way back, whatever the schema says). */
export function secretKeys(props: Props | undefined): string[] {
  return Object.entries(props ?? {})
    .filter(([, value]) => isSecret(value))
    .map(([key]) => key);
}

export function secret(value: unknown): unknown {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** `props` with each of `keys` that has a value wrapped as a secret. */
export function wrapSecrets(props: Props, keys: Iterable<string>): Props {
  const out: Props = { ...props };
  for (const key of keys) if (out[key] !== undefined && !isSecret(out[key])) out[key] = secret(out[key]);
  return out;
}
