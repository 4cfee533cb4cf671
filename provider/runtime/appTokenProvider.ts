/**
 * The AppToken dynamic provider, run inside the engine's dynamic provider process (loaded by the thin shim in
 * provider/resources/appToken.ts). check validates before any API call; diff is exact; create-before-delete on
 * replacement (the default), so consumers never see a gap; read returns the server's truth; delete treats gone as done.
 */
import type { AppToken as AppTokenRecord } from "../../sdk/contract/platform";
import { AppTokenStatus, SessionType } from "../../sdk/contract/platform";
import { AppTokenInputs, APP_TOKEN_IN_PLACE, APP_TOKEN_REPLACES, type SessionTypeName } from "../schemas/appTokenInputs";
import type { ConnectionInput } from "../schemas/connection";
import { checkConnection, checkFields, type CheckResult } from "./check";
import { clientFor, operationSignal } from "./clients";
import { diffFields, keptState, plain, type DiffOutcome } from "./diff";
import { ProviderError, unlessGone } from "./errors";
import { UNKNOWN } from "./unknowns";

type Props = Record<string, unknown>;

/** The outputs of an AppToken: every AppToken field, plus the inputs that have no server counterpart. */
export function appTokenOutputs(token: AppTokenRecord, inputs: Props, previousToken?: unknown): Props {
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

function sessionTypeName(value: number): SessionTypeName {
  return value === SessionType.ADMIN ? "ADMIN" : "USER";
}

function creationFields(inputs: Props) {
  return {
    hashType: inputs.hashType as AppTokenRecord["hashType"],
    sessionType: SessionType[inputs.sessionType as SessionTypeName],
    sessionDuration: inputs.sessionDuration as number,
    sessionPrivileges: inputs.sessionPrivileges as string,
    sessionUserId: inputs.sessionUserId as string,
    description: inputs.description as string,
    expiry: inputs.expiry as number,
  };
}

function inPlaceFields(inputs: Props) {
  return {
    description: inputs.description as string,
    sessionDuration: inputs.sessionDuration as number,
    sessionPrivileges: inputs.sessionPrivileges as string,
    sessionUserId: inputs.sessionUserId as string,
  };
}

const connectionOf = (props: Props) => props.connection as ConnectionInput | undefined;

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

  async diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
    const { changed, replaces } = diffFields(olds, news, APP_TOKEN_IN_PLACE, APP_TOKEN_REPLACES);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs: Props): Promise<{ id: string; outs: Props }> {
    const client = clientFor(connectionOf(inputs));
    const signal = operationSignal();
    if (typeof inputs.adoptId === "string") return adopt(inputs.adoptId, inputs, signal);
    const token = await client.appTokens.add(creationFields(inputs), { signal });
    return { id: token.id, outs: appTokenOutputs(token, inputs) };
  },

  async read(id: string, props: Props): Promise<{ id: string; props?: Props; inputs?: Props }> {
    const client = clientFor(connectionOf(props));
    const token = await unlessGone(() => client.appTokens.get(id, { signal: operationSignal() }));
    if (!token || token.status === AppTokenStatus.DELETED) return { id: "" }; // deleted outside Pulumi: refresh drops it, up recreates it
    const outs = appTokenOutputs(token, props, props.token);
    const inputs = plain({
      hashType: outs.hashType,
      sessionType: outs.sessionType,
      sessionDuration: outs.sessionDuration,
      sessionPrivileges: outs.sessionPrivileges,
      sessionUserId: outs.sessionUserId,
      description: outs.description,
      expiry: outs.expiry,
      keepers: props.keepers,
      adoptId: props.adoptId,
      connection: props.connection,
    });
    return { id, props: outs, inputs };
  },

  async update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
    const { changed } = diffFields(olds, news, APP_TOKEN_IN_PLACE, []);
    if (changed.length === 0) return { outs: keptState(olds, news, ["keepers", "adoptId", "connection"]) };
    const client = clientFor(connectionOf(news));
    const token = await client.appTokens.update(id, inPlaceFields(news), { signal: operationSignal() });
    return { outs: appTokenOutputs(token, news, olds.token) };
  },

  async delete(id: string, props: Props): Promise<void> {
    const client = clientFor(connectionOf(props));
    await unlessGone(() => client.appTokens.delete(id, { signal: operationSignal() })); // already gone counts as deleted
  },
};

/** Adopt an existing token: verified and read, never duplicated; in-place fields converge to the inputs. */
async function adopt(id: string, inputs: Props, signal: AbortSignal): Promise<{ id: string; outs: Props }> {
  const client = clientFor(connectionOf(inputs));
  const token = await unlessGone(() => client.appTokens.get(id, { signal }));
  if (!token) throw new ProviderError(`adoptId: app token ${id} was not found in partner ${client.partnerId}; nothing was created`);
  const mismatched = (["hashType", "sessionType", "expiry"] as const).filter((key) => {
    const actual = key === "sessionType" ? sessionTypeName(token.sessionType) : token[key];
    return inputs[key] !== UNKNOWN && actual !== inputs[key];
  });
  if (mismatched.length > 0) {
    const detail = mismatched.map((key) => `${key} is ${key === "sessionType" ? sessionTypeName(token.sessionType) : token[key]} on the server but ${String(inputs[key])} in the program`).join("; ");
    throw new ProviderError(`adoptId: app token ${id} cannot be adopted as declared (${detail}); these fields cannot be changed, so set them to the server's values`);
  }
  const outs = appTokenOutputs(token, inputs);
  const { changed } = diffFields(outs, inputs, APP_TOKEN_IN_PLACE, []);
  if (changed.length === 0) return { id, outs };
  const updated = await client.appTokens.update(id, inPlaceFields(inputs), { signal });
  return { id, outs: appTokenOutputs(updated, inputs, token.token) };
}
