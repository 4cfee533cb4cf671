/**
 * The account guard of diff: a resource never follows its connection to another account in place, which would
 * send the old id to the new account (an update of a stranger's object, or a not-found read as "gone").
 */
import type { ClientCache } from "./clients";
import { sameBaseUrl } from "./connection";
import { choiceOf } from "./namedAccounts";
import { ProviderError } from "./errors";
import { isUnknown } from "./unknowns";

/**
 * What to do when the account of stack config (or of the plugin's provider) moved under a resource: the dynamic
 * provider refuses (its delete would run with the new config, so the old object could not be removed); the
 * plugin replaces (the engine deletes the old object through the old provider, which keeps the old account).
 */
export type StackAccountMove = "refuse" | "replace";

/**
 * True when the resource must be replaced because its account changed: its partner (the server's `partnerId` in
 * state against the one the new inputs resolve to), or the base URL of an explicit choice (an `account` name or a
 * `connection`). "Same account" is partner and base URL, whatever names it: a resource moving from a connection, or
 * from an explicit provider of its own, to a named account of the same partner and URL is no change. A rotation of
 * credentials alone is no change. Unknown choices (preview) are no change.
 */
export function accountChange(
  connections: Pick<ClientCache, "accountOf" | "namedAccountsReach">,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  onStackMove: StackAccountMove = "refuse",
): boolean {
  if ([olds.connection, olds.account, news.connection, news.account].some(isUnknown)) return false;
  const before = choiceOf(olds);
  const after = choiceOf(news);
  const explicitBefore = before.connection !== undefined || before.account !== undefined;
  const explicitAfter = after.connection !== undefined || after.account !== undefined;
  const target = connections.accountOf(after);
  if (!target) return false; // check has reported why the choice does not resolve
  // The old choice resolved under today's config: where the replacement's delete would go.
  const reachable = connections.accountOf(before);
  const oldPartner = typeof olds.partnerId === "number" ? olds.partnerId : explicitBefore ? reachable?.partnerId : undefined;
  const oldUrl = explicitBefore ? reachable?.baseUrl : undefined;
  const partnerMoved = oldPartner !== undefined && oldPartner !== target.partnerId;
  const urlMoved = oldUrl !== undefined && explicitAfter && !sameBaseUrl(oldUrl, target.baseUrl);
  if (!partnerMoved && !urlMoved) return false;
  // A named account whose entry now reaches another partner than the one this resource lives in: its delete would go
  // there too (the state holds the name, not the connection), so it is neither replaced nor followed.
  if (before.account !== undefined && reachable !== undefined && oldPartner !== undefined && reachable.partnerId !== oldPartner) {
    throw new ProviderError(
      `this resource lives in partner ${oldPartner}, but its account "${before.account}" now reaches partner ${reachable.partnerId}: ` +
        `put that account's previous partner back, or add the new account under another name and move the resource to it (a replacement)`,
    );
  }
  // The provider's own account moved under a resource that names none, and the provider still serves its partner by
  // name: its delete would go to the new own account, so it is neither replaced nor followed; naming the account keeps it.
  if (!explicitBefore && !explicitAfter && oldPartner !== undefined) {
    const serving = connections.namedAccountsReach().filter(({ account }) => account.partnerId === oldPartner);
    if (serving.length > 0) {
      const names = serving.map(({ name }) => `"${name}"`).join(" or ");
      throw new ProviderError(
        `this resource lives in partner ${oldPartner}, which this provider serves as the named account ${names}, but it names no account ` +
          `and the provider's own account is partner ${target.partnerId}. Set \`account: ${serving[0]!.name}\` on it to keep it where it is (no change)`,
      );
    }
  }
  // When the old object is still reachable through its own choice (explicit in state, or the stack's config that
  // has not moved), the replacement's delete finds it: replace.
  if (onStackMove === "replace" || (reachable !== undefined && reachable.partnerId === oldPartner)) return true;
  throw new ProviderError(
    `the account changed under this resource: it lives in partner ${oldPartner}, but the connection now reaches partner ${target.partnerId}. ` +
      "Updating it there would touch another account's object. Put the previous svc:partnerId (and its credentials) back, " +
      "or move the resource to a named account for the new one (`account`: a replacement), or `pulumi state delete` it first",
  );
}
