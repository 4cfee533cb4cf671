/**
 * The account guard of diff: a resource never follows its connection to another account in place, which would
 * send the old id to the new account (an update of a stranger's object, or a not-found read as "gone").
 */
import type { ConnectionInput } from "./connectionInput";
import type { ClientCache } from "./clients";
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
 * state against the one the new inputs resolve to), or the base URL of an explicit connection. A rotation of
 * credentials alone is no change. Unknown connections (preview) are no change.
 */
export function accountChange(
  connections: Pick<ClientCache, "accountOf">,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  onStackMove: StackAccountMove = "refuse",
): boolean {
  if (isUnknown(news.connection) || isUnknown(olds.connection)) return false;
  const before = olds.connection as ConnectionInput | undefined;
  const after = news.connection as ConnectionInput | undefined;
  const target = connections.accountOf(after);
  if (!target) return false; // check has reported why the connection does not resolve
  // The old connection resolved under today's config: where the replacement's delete would go.
  const reachable = connections.accountOf(before);
  const oldPartner = typeof olds.partnerId === "number" ? olds.partnerId : before ? reachable?.partnerId : undefined;
  const oldUrl = before ? reachable?.baseUrl : undefined;
  const partnerMoved = oldPartner !== undefined && oldPartner !== target.partnerId;
  const urlMoved = oldUrl !== undefined && after !== undefined && oldUrl !== target.baseUrl;
  if (!partnerMoved && !urlMoved) return false;
  // When the old object is still reachable through its own connection (explicit in state, or the stack's config that
  // has not moved), the replacement's delete finds it: replace.
  if (onStackMove === "replace" || (reachable !== undefined && reachable.partnerId === oldPartner)) return true;
  throw new ProviderError(
    `the account changed under this resource: it lives in partner ${oldPartner}, but the connection now reaches partner ${target.partnerId}. ` +
      "Updating it there would touch another account's object. Put the previous svc:partnerId (and its credentials) back, " +
      "or move the resource with an explicit `connection` for the new account (a replacement), or `pulumi state delete` it first",
  );
}
