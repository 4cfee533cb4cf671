/**
 * Named accounts: the provider setting `accounts` (a secret), a map from a name to an account's connection (the
 * fields a `connection` takes: baseUrl, partnerId, the credentials, requestTimeoutMs, allowInsecureHttp), and the
 * `account` input of every resource and function that picks one by name. One provider (one plugin process) then
 * serves every account of a stack, each with its own client and session (clients.ts).
 *
 * An entry resolves by the rules of an explicit `connection` (connection.ts): a baseUrl left out comes from the
 * provider's own `baseUrl` (never from SVC_BASE_URL), and it brings its own credentials. Checked here without zod:
 * the plugin checks its settings at Configure before it loads zod.
 */
import type { ConnectionInput } from "./connectionInput";
import { followsRule, type ValueRule } from "./settingRules";
import { CONNECTION_KEYS, type ConnectionKey, SETTINGS } from "./settings";
import { isUnknown } from "./unknowns";

/** The setting as stack config (`svc:accounts`) and as an explicit provider's input (`accounts`). */
export const ACCOUNTS_SETTING = {
  key: "accounts",
  config: "svc:accounts",
  description:
    "Named accounts this provider serves (a secret): a map from a name (letters, digits, `-`, `_`) to the account's connection " +
    "(baseUrl, partnerId and credentials, as `connection` takes them). A resource or function picks one with its `account` input. " +
    "Stack config: `pulumi config set --path svc:accounts.<name>.partnerId 102` and `pulumi config set --path --secret svc:accounts.<name>.adminSecret <secret>`.",
} as const;

/** What an account's name may be: letters, digits, `-` and `_`. */
export const ACCOUNT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const ACCOUNT_NAME_EXPECTATION = "a name of letters, digits, `-` and `_` (at most 64)";

/** The named accounts, each entry as a connection. */
export type NamedAccounts = ReadonlyMap<string, ConnectionInput>;

export class NamedAccountsError extends Error {
  override readonly name = "NamedAccountsError";
}

/** The entries' fields as messages name them. */
const fieldName = (name: string, key: string) => `\`accounts.${name}.${key}\``;

/**
 * The setting's value (an object, or its JSON text as stack config hands it over; undefined or empty when unset) as
 * named accounts; a NamedAccountsError names the entry and the field that is wrong, never a value. Numbers and
 * booleans may come as text (`pulumi config set --path` stores text).
 */
export function parseNamedAccounts(value: unknown): NamedAccounts {
  const accounts = new Map<string, ConnectionInput>();
  if (value === undefined || value === null || value === "") return accounts;
  let object = value;
  if (typeof value === "string") {
    try {
      object = JSON.parse(value);
    } catch {
      throw new NamedAccountsError("`accounts` must be a map from an account's name to its connection, got text that is not one");
    }
  }
  if (typeof object !== "object" || object === null || Array.isArray(object))
    throw new NamedAccountsError("`accounts` must be a map from an account's name to its connection");
  for (const [name, entry] of Object.entries(object as Record<string, unknown>)) {
    if (!ACCOUNT_NAME.test(name)) throw new NamedAccountsError(`\`accounts\`: the name "${printable(name)}" is not ${ACCOUNT_NAME_EXPECTATION}`);
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      throw new NamedAccountsError(`\`accounts.${name}\` must be an object of connection fields (${CONNECTION_KEYS.join(", ")})`);
    const connection: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(entry as Record<string, unknown>)) {
      if (raw === undefined || raw === null) continue;
      if (!(CONNECTION_KEYS as readonly string[]).includes(key))
        throw new NamedAccountsError(`${fieldName(name, printable(key))} is not a connection field; expected one of: ${CONNECTION_KEYS.join(", ")}`);
      const typed = typedValue(key as ConnectionKey, raw);
      if (typed === undefined || !followsRule(SETTINGS[key as ConnectionKey].value, typed))
        throw new NamedAccountsError(`${fieldName(name, key)} must be ${expectation(key as ConnectionKey)}`);
      connection[key] = typed;
    }
    accounts.set(name, connection as ConnectionInput);
  }
  return accounts;
}

/** A field's value as the `connection` input takes it: whole numbers and booleans from their text too. */
function typedValue(key: ConnectionKey, raw: unknown): unknown {
  const rule = SETTINGS[key].value;
  if (rule.kind === "whole" && typeof raw === "string" && /^\s*\d+\s*$/.test(raw)) return Number(raw);
  if (rule.kind === "boolean" && typeof raw === "string" && /^(true|false)$/i.test(raw.trim())) return raw.trim().toLowerCase() === "true";
  return raw;
}

function expectation(key: ConnectionKey): string {
  const rule: ValueRule = SETTINGS[key].value;
  switch (rule.kind) {
    case "url":
      return "an http(s) URL such as https://host/api_v3";
    case "text":
      return "non-empty text";
    case "oneOf":
      return `one of ${rule.options.join(", ")}`;
    case "whole":
      return `a whole number from ${rule.min}${rule.max === undefined ? "" : ` to ${rule.max}`}`;
    case "boolean":
      return "true or false";
  }
}

/** A name as a message may show it: a misspelt key is no secret, but it is cut and kept printable. */
const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, "?").slice(0, 64);

/** Why `name` picks no account: it is unknown (the known names listed), or the provider has none. */
export function unknownAccountMessage(name: string, accounts: NamedAccounts): string {
  const known = [...accounts.keys()].sort();
  return known.length === 0
    ? `account "${printable(name)}" is unknown: this provider has no named accounts (set \`svc:accounts.${printable(name)}\` in stack config, or \`accounts\` on the explicit provider)`
    : `account "${printable(name)}" is unknown: this provider knows ${known.map((known) => `"${known}"`).join(", ")}`;
}

/**
 * Which account an operation acts on, as a resource's inputs (or state) or a function's arguments say: a named
 * `account`, an explicit `connection` (deprecated), or neither (the provider's own account).
 */
export interface AccountChoice {
  connection?: ConnectionInput;
  account?: string;
}

/** The choice a resource's inputs or state (or a function's arguments) make; unknown values (preview) count as unset. */
export function choiceOf(props: Record<string, unknown> | undefined): AccountChoice {
  const connection = props?.connection;
  const account = props?.account;
  return {
    ...(connection !== null && typeof connection === "object" && !Array.isArray(connection) ? { connection: connection as ConnectionInput } : {}),
    ...(typeof account === "string" && account !== "" && !isUnknown(account) ? { account } : {}),
  };
}
