/**
 * The account a client reaches, as text: what scopes per-process bookkeeping to one account, so that work for one
 * account never waits on another's (a create recovering in one account waits only for creates of equal fields in
 * that same account; a reseller declares the same token in each of its accounts).
 */
import type { SvcClient } from "../../sdk";

export function accountScope(client: Pick<SvcClient, "baseUrl" | "partnerId">): string {
  return `partner ${client.partnerId} at ${client.baseUrl}`;
}
