/**
 * The AppToken dynamic provider, run inside the engine's dynamic provider process (loaded by the thin shim in
 * provider/resources/appToken.ts). check validates before any API call; diff is exact; create-before-delete on
 * replacement (the default), so consumers never see a gap; read returns the server's truth; delete treats gone as done.
 */
import type { AppToken as AppTokenRecord } from "../../contract/platform";
import { AppTokenStatus, SessionType } from "../../contract/platform";
import type { SvcClient } from "../../sdk";
import { AppTokenInputs, APP_TOKEN_IN_PLACE, APP_TOKEN_REPLACES, type SessionTypeName } from "../schemas/appTokenInputs";
import { checkConnection, checkFields, type CheckResult } from "./check";
import { clientFor, operationSignal, serverNowMs } from "./clients";
import { diffFields, inputsFromOutputs, keptState, plain, type DiffOutcome } from "./diff";
import { ProviderError, unlessGone } from "./errors";
import { createWithRecovery, noteManaged } from "./recovery";
import { isUnknown } from "./unknowns";

type Props = Record<string, unknown>;
/**
 * The engine hands create/update what check returned (the schema's output) and read/update/delete the outputs in
 * state: typed once, at the entry of each method, and typed from there on.
 */
type Inputs = AppTokenInputs;
type State = AppTokenOutputs;

/** The outputs of an AppToken: every AppToken field, plus the inputs that have no server counterpart. */
export function appTokenOutputs(token: AppTokenRecord, inputs: Pick<Inputs, "keepers" | "adoptId" | "connection">, previousToken?: unknown) {
  return plain({
    tokenId: token.id,
    // The value is returned on add and to the account admin on get; otherwise keep the value we already hold.
    token: token.token ?? (typeof previousToken === "string" ? previousToken : undefined),
    partnerId: token.partnerId,
    status: token.status,
    hashType: token.hashType,
    sessionType: sessionTypeName(token.sessionType),
    sessionDuration: token.sessionDuration,
    sessionPrivileges: token.sessionPrivileges ?? "",
    sessionUserId: token.sessionUserId ?? "",
    description: token.description ?? "",
    expiry: token.expiry,
    createdAt: token.createdAt,
    updatedAt: token.updatedAt,
    keepers: inputs.keepers,
    adoptId: inputs.adoptId,
    connection: inputs.connection,
  });
}
export type AppTokenOutputs = ReturnType<typeof appTokenOutputs>;

function sessionTypeName(value: number): SessionTypeName {
  return value === SessionType.ADMIN ? "ADMIN" : "USER";
}

function creationFields(inputs: Inputs) {
  const { hashType, sessionType, sessionDuration, sessionPrivileges, sessionUserId, description, expiry } = inputs;
  return { hashType, sessionType: SessionType[sessionType], sessionDuration, sessionPrivileges, sessionUserId, description, expiry };
}

function inPlaceFields(inputs: Inputs) {
  const { description, sessionDuration, sessionPrivileges, sessionUserId } = inputs;
  return { description, sessionDuration, sessionPrivileges, sessionUserId };
}

export const appTokenProvider = {
  async check(olds: Props, news: Props): Promise<CheckResult> {
    const result = checkFields(AppTokenInputs, news, ["connection"]);
    const expiry = result.inputs.expiry;
    // A past expiry is refused when it is being set, not on every later preview of a token that has since expired.
    if (typeof expiry === "number" && expiry !== 0 && expiry !== olds.expiry && expiry <= Date.now() / 1000) {
      result.failures.push({ property: "expiry", reason: "expiry: expected 0 (never) or a unix time in the future" });
    }
    checkConnection(result);
    return result;
  },

  async diff(id: string, olds: Props, news: Props): Promise<DiffOutcome> {
    noteManaged(id);
    const { changed, replaces } = diffFields(olds, news, APP_TOKEN_IN_PLACE, APP_TOKEN_REPLACES);
    return { changes: changed.length > 0, replaces };
  },

  async create(raw: Props): Promise<{ id: string; outs: State }> {
    const inputs = raw as Inputs;
    const client = clientFor(inputs.connection);
    const signal = operationSignal();
    if (typeof inputs.adoptId === "string") return adopt(inputs.adoptId, inputs, signal);
    const fields = creationFields(inputs);
    const token = await createWithRecovery<AppTokenRecord>({
      what: "app token",
      fingerprint: `appToken ${JSON.stringify(fields)}`,
      create: () => client.appTokens.add(fields, { signal }),
      find: (since) => findCreated(client, fields, since, signal),
      idOf: (t) => t.id,
      // Without the value (a connection that is not the account admin cannot read it) the token is useless to the
      // program: delete it and make one whose value we receive.
      usable: (t) => typeof t.token === "string" && t.token !== "",
      discard: (t) => unlessGone(() => client.appTokens.delete(t.id, { signal })).then(() => undefined),
      serverNowMs: () => serverNowMs(client),
      signal,
    });
    return { id: token.id, outs: appTokenOutputs(token, inputs) };
  },

  async read(id: string, state: Props): Promise<{ id: string; props?: State; inputs?: Props }> {
    noteManaged(id);
    const props = state as State;
    const client = clientFor(props.connection);
    const token = await unlessGone(() => client.appTokens.get(id, { signal: operationSignal() }));
    if (!token || token.status === AppTokenStatus.DELETED) return { id: "" }; // deleted outside Pulumi: refresh drops it, up recreates it
    const outs = appTokenOutputs(token, props, props.token);
    return { id, props: outs, inputs: inputsFromOutputs(AppTokenInputs, outs) };
  },

  async update(id: string, oldState: Props, newInputs: Props): Promise<{ outs: Props }> {
    noteManaged(id);
    const [olds, news] = [oldState as State, newInputs as Inputs];
    const { changed } = diffFields(olds, news, APP_TOKEN_IN_PLACE, []);
    if (changed.length === 0) return { outs: keptState(olds, news, ["keepers", "adoptId", "connection"]) };
    const client = clientFor(news.connection);
    const token = await client.appTokens.update(id, inPlaceFields(news), { signal: operationSignal() });
    return { outs: appTokenOutputs(token, news, olds.token) };
  },

  async delete(id: string, state: Props): Promise<void> {
    noteManaged(id);
    const client = clientFor((state as State).connection);
    await unlessGone(() => client.appTokens.delete(id, { signal: operationSignal() })); // already gone counts as deleted
  },
};

/**
 * Active tokens created since `sinceSec` (platform clock) with exactly the fields a lost `add` sent: what that add may
 * have made. The list is filtered on the server by status, hash type and session type, then matched here on the rest.
 */
async function findCreated(client: SvcClient, fields: ReturnType<typeof creationFields>, sinceSec: number, signal: AbortSignal): Promise<AppTokenRecord[]> {
  const candidates = await client.appTokens
    .iterate({ statusEqual: AppTokenStatus.ACTIVE, hashTypeEqual: fields.hashType, sessionTypeEqual: fields.sessionType }, { signal, pageSize: 500 })
    .toArray();
  return candidates.filter(
    (t) =>
      t.createdAt >= sinceSec &&
      (t.description ?? "") === fields.description &&
      (t.sessionPrivileges ?? "") === fields.sessionPrivileges &&
      (t.sessionUserId ?? "") === fields.sessionUserId &&
      t.sessionDuration === fields.sessionDuration &&
      t.expiry === fields.expiry,
  );
}

/** Adopt an existing token: verified and read, never duplicated; in-place fields converge to the inputs. */
async function adopt(id: string, inputs: Inputs, signal: AbortSignal): Promise<{ id: string; outs: State }> {
  const client = clientFor(inputs.connection);
  const token = await unlessGone(() => client.appTokens.get(id, { signal }));
  if (!token) throw new ProviderError(`adoptId: app token ${id} was not found in partner ${client.partnerId}; nothing was created`);
  const mismatched = (["hashType", "sessionType", "expiry"] as const).filter((key) => {
    const actual = key === "sessionType" ? sessionTypeName(token.sessionType) : token[key];
    return !isUnknown(inputs[key]) && actual !== inputs[key];
  });
  if (mismatched.length > 0) {
    const detail = mismatched
      .map(
        (key) => `${key} is ${key === "sessionType" ? sessionTypeName(token.sessionType) : token[key]} on the server but ${String(inputs[key])} in the program`,
      )
      .join("; ");
    throw new ProviderError(
      `adoptId: app token ${id} cannot be adopted as declared (${detail}); these fields cannot be changed, so set them to the server's values`,
    );
  }
  const outs = appTokenOutputs(token, inputs);
  const { changed } = diffFields(outs, inputs, APP_TOKEN_IN_PLACE, []);
  if (changed.length === 0) return { id, outs };
  const updated = await client.appTokens.update(id, inPlaceFields(inputs), { signal });
  return { id, outs: appTokenOutputs(updated, inputs, token.token) };
}
