/**
 * The connection a resource's `account` (or none) resolves to, given the inputs of its provider as a stack's state
 * holds them (secrets revealed): what a command working from the state alone (recover) needs, by the provider's
 * own rules. Pure: no environment unless one is given, no client made.
 */
import { type ConfigLookup, ConnectionError, resolveConnection, type ResolvedConnection } from "./connection";
import { ACCOUNTS_SETTING, NamedAccountsError, parseNamedAccounts, unknownAccountMessage } from "./namedAccounts";

/**
 * `providerInputs`: a provider resource's inputs (`baseUrl`, `partnerId`, the credentials, `accounts`: the plugin's
 * explicit or default provider) or stack config by full key (`svc:baseUrl`, `svc:accounts`: the dynamic providers').
 * `accounts` may be the map or its JSON text. A ConnectionError names what is missing or unknown, never a value.
 */
export function connectionOfAccount(
  providerInputs: Readonly<Record<string, unknown>>,
  account: string | undefined,
  env: NodeJS.ProcessEnv = {},
): ResolvedConnection {
  const lookup: ConfigLookup = (key) => {
    const value = providerInputs[key] ?? providerInputs[key.replace(/^svc:/, "")];
    if (value === undefined || value === null || value === "") return undefined;
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  };
  return connectionOfAccountIn(lookup, account, env);
}

/** The same, for settings already read as stack config is (`svc:<name>` to text, `svc:accounts` as JSON text). */
export function connectionOfAccountIn(lookup: ConfigLookup, account: string | undefined, env: NodeJS.ProcessEnv = {}): ResolvedConnection {
  if (account === undefined) return resolveConnection(undefined, lookup, env);
  let accounts: ReturnType<typeof parseNamedAccounts>;
  try {
    accounts = parseNamedAccounts(lookup(ACCOUNTS_SETTING.config));
  } catch (error) {
    if (error instanceof NamedAccountsError) throw new ConnectionError(error.message);
    throw error;
  }
  const entry = accounts.get(account);
  if (!entry) throw new ConnectionError(unknownAccountMessage(account, accounts));
  return resolveConnection(entry, lookup, env, `accounts.${account}`);
}
