/**
 * DiffConfig's judgement of an account move: the provider's own account (baseUrl, partnerId) changed, or a
 * resource came to this provider from another (the engine asks the new provider's DiffConfig with the old
 * provider's inputs). "Same account" is partner and base URL, whichever names it: a provider that still serves the
 * old account, as its own or as one of its named accounts, is no move.
 */
import { sameBaseUrl } from "../provider/core/connection";
import { NamedAccountsError, parseNamedAccounts } from "../provider/core/namedAccounts";
import type { Props } from "./properties";

/** A setting's value as DiffConfig compares it: a map (`accounts`, an object or its JSON text) as the object, the rest as text. */
export function settingText(value: unknown): unknown {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return value;
  if (typeof value === "string" && value.trimStart().startsWith("{")) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return String(value);
}

const text = (value: unknown): string | undefined => (value === undefined || value === null || value === "" ? undefined : String(value));

/** Whether the new provider's inputs still serve the account the old ones named (its own, or a named account with the same partner and base URL). */
export function servesAccountOf(olds: Props, news: Props, env: NodeJS.ProcessEnv = process.env): boolean {
  const oldBase = text(olds.baseUrl) ?? env.SVC_BASE_URL;
  const oldPartner = Number(text(olds.partnerId) ?? env.SVC_PARTNER_ID);
  if (oldBase === undefined || !Number.isInteger(oldPartner)) return false;
  let named: ReturnType<typeof parseNamedAccounts>;
  try {
    named = parseNamedAccounts(news.accounts);
  } catch (error) {
    if (error instanceof NamedAccountsError) return false;
    throw error;
  }
  const served = [
    { baseUrl: text(news.baseUrl), partnerId: text(news.partnerId) },
    ...[...named.values()].map((entry) => ({ baseUrl: text(entry.baseUrl) ?? text(news.baseUrl), partnerId: text(entry.partnerId) })),
  ];
  return served.some(({ baseUrl, partnerId }) => baseUrl !== undefined && Number(partnerId) === oldPartner && sameBaseUrl(baseUrl, oldBase));
}
