/**
 * The provider's settings as the plugin receives them (CheckConfig's news, Configure's arguments): each one known,
 * each of its type, and together a connection that resolves. One check for both methods, so a peer that skips
 * CheckConfig gets the same answer from Configure. Reasons name the setting and never quote its value; a failure's
 * property (which the engine prints beside the property's value) is left empty for a setting the schema marks secret
 * and for any setting that came in as a secret, a misspelt one (`svc:adminsecret`) included.
 */
import { ConnectionError, resolveConnection, SETTINGS } from "../provider/core/connection";
import { ACCOUNTS_SETTING, NamedAccountsError, type NamedAccounts, parseNamedAccounts } from "../provider/core/namedAccounts";
import { SECRET_SETTINGS } from "../provider/core/settings";
import { isUnknown } from "../provider/core/unknowns";
import type { Props } from "./properties";

export interface SettingFailure {
  property: string;
  reason: string;
}

type SettingName = keyof typeof SETTINGS;

const isSetting = (key: string): key is SettingName => Object.hasOwn(SETTINGS, key);
/** Every setting the provider takes: the table's, and `accounts` (named accounts, namedAccounts.ts). */
export const isProviderSetting = (key: string): boolean => isSetting(key) || key === ACCOUNTS_SETTING.key;
const SETTING_NAMES = [...Object.keys(SETTINGS), ACCOUNTS_SETTING.key];

/** Keys the engine adds to a provider's inputs (`version`, `__internal`...): never the user's settings. */
const isEngineKey = (key: string) => key === "version" || key.startsWith("__");

/**
 * Every problem with `settings` (plain values); empty when they are usable (unknown values, in preview, are not
 * judged). `cameAsSecret`: the settings whose values came in wrapped as secrets.
 */
export function settingsFailures(settings: Props, cameAsSecret: ReadonlySet<string> = new Set()): SettingFailure[] {
  const failures: SettingFailure[] = [];
  // The engine prints a failure's property value beside its reason: a secret's failure names it in the text only.
  const propertyOf = (key: string) =>
    cameAsSecret.has(key) || key === ACCOUNTS_SETTING.key || (isSetting(key) && "secret" in SETTINGS[key] && SETTINGS[key].secret) ? "" : key;
  let named: NamedAccounts = new Map();
  for (const [key, value] of Object.entries(settings)) {
    if (isEngineKey(key)) continue;
    if (key === ACCOUNTS_SETTING.key) {
      if (isUnknown(value)) continue;
      try {
        named = parseNamedAccounts(value);
      } catch (error) {
        if (!(error instanceof NamedAccountsError)) throw error;
        failures.push({ property: "", reason: error.message });
      }
      continue;
    }
    if (!isSetting(key)) {
      const near = SETTING_NAMES.find((name) => name.toLowerCase() === key.toLowerCase());
      const hint = near ? `did you mean "${near}"? (names are case-sensitive)` : `expected one of: ${SETTING_NAMES.join(", ")}`;
      failures.push({ property: propertyOf(key), reason: `unknown setting "${key}"; ${hint}` });
      continue;
    }
    const problem = typeProblem(SETTINGS[key].type, value);
    if (problem) failures.push({ property: propertyOf(key), reason: `${key}: ${problem}` });
  }
  if (failures.length > 0 || Object.values(settings).some(isUnknown)) return failures;
  const lookup = lookupOf(settings);
  // Each named account resolves as a `connection` would (its baseUrl may be the provider's; its credentials are its own).
  for (const [name, entry] of named) {
    try {
      resolveConnection(entry, lookup, process.env, `accounts.${name}`);
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
      failures.push({ property: "", reason: error.message });
    }
  }
  // The provider's own account: needed unless it serves named accounts and sets no account of its own (its resources
  // then each name theirs, and check refuses one that names none).
  const ownSet = Object.keys(settings).some((key) => isSetting(key) && ("account" in SETTINGS[key] || "credential" in SETTINGS[key]) && settings[key] != null);
  try {
    resolveConnection(undefined, lookup);
  } catch (error) {
    if (!(error instanceof ConnectionError)) throw error;
    if (named.size === 0 || ownSet) failures.push({ property: "", reason: error.message });
  }
  return failures;
}

/** The settings as the runtime's config lookup ("svc:<name>"); numbers as their text, unknown values as unset. */
export function lookupOf(settings: Props): (key: string) => string | undefined {
  return (key) => {
    const value = settings[key.replace(/^svc:/, "")];
    if (value === undefined || value === null || isUnknown(value)) return undefined;
    // `accounts` is a map: its JSON text, as stack config gives it to the dynamic providers.
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  };
}

/** The settings the schema marks secret (from the one settings table). */
export function secretSettings(): string[] {
  return [...SECRET_SETTINGS, ACCOUNTS_SETTING.key];
}

function typeProblem(type: "string" | "integer" | "boolean", value: unknown): string | undefined {
  if (value === undefined || value === null || isUnknown(value)) return undefined;
  // The engine sends config as text or, for the schema's integers and booleans, as numbers and booleans: both are accepted.
  if (type === "boolean") {
    if (typeof value === "boolean" || (typeof value === "string" && /^(true|false)$/i.test(value.trim()))) return undefined;
    return `expected true or false, got ${typeof value === "string" ? "other text" : kindOf(value)}`;
  }
  if (type === "integer") {
    const whole = (typeof value === "number" && Number.isInteger(value)) || (typeof value === "string" && /^-?\d+$/.test(value.trim()));
    if (whole) return undefined;
    return `expected a whole number, got ${typeof value === "string" ? "text that is not one" : kindOf(value)}`;
  }
  return typeof value === "string" ? undefined : `expected text, got ${kindOf(value)}`;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "text";
  if (typeof value === "number") return Number.isInteger(value) ? "a number" : "a number with a fraction";
  return `a ${typeof value}`;
}
