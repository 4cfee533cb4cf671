/**
 * AppToken: an app token of the platform. check validates before any API call; create-before-delete on replacement
 * (the default), so consumers never see a gap; read returns the server's truth; delete treats gone as done.
 */
import { z } from "zod";
import type { SvcClient } from "../../sdk";
import { type AppToken as AppTokenRecord, AppTokenStatus, HashType, SessionType } from "../../contract/platform";
import { plain } from "../core/diff";
import { ProviderError, unlessGone } from "../core/errors";
import { accountScope } from "../core/accountScope";
import { createWithRecovery } from "../core/recovery";
import { isUnknown } from "../core/unknowns";
import {
  ACCOUNT_FIELD,
  CONNECTION_FIELD,
  defineResource,
  keysWithChange,
  type OutputField,
  stateChecker,
  type CheckedInputsOf,
  type ProgramInputsOf,
} from "./define";
import { SessionTypeName } from "./schemaTypes";

export { SessionTypeName };

export const APP_TOKEN_ID = /^\d+_[A-Za-z0-9]+$/;

const inputs = {
  hashType: {
    schema: HashType.default("SHA256"),
    typeName: "HashType",
    change: "replace",
    description: "The hash the token's sessions are signed with. Default SHA256 here (the platform's own default is SHA1). Changing it replaces the token.",
    example: "SHA256",
  },
  sessionType: {
    schema: SessionTypeName.default("USER"),
    typeName: "SessionType",
    change: "replace",
    description: "The type of the sessions the token starts: USER (recommended) or ADMIN. Changing it replaces the token.",
    example: "USER",
  },
  sessionDuration: {
    schema: z.number().int().min(0).default(0),
    change: "inPlace",
    description: "Lifetime of the sessions the token starts, in seconds; 0 is the account default.",
    example: 86400,
  },
  sessionPrivileges: {
    schema: z.string().default(""),
    change: "inPlace",
    description: "Privileges of the sessions the token starts, comma-separated.",
    example: "list:*",
  },
  sessionUserId: {
    schema: z.string().default(""),
    change: "inPlace",
    description: "The user id of the sessions the token starts.",
    example: "deploy-bot",
  },
  description: {
    schema: z.string().default(""),
    change: "inPlace",
    description: "What the token is for.",
    example: "Deployment pipeline",
  },
  expiry: {
    schema: z.number().int().min(0).default(0),
    change: "replace",
    description: "Unix time the token expires; 0 is never. The platform cannot change it: a change replaces the token.",
    example: 0,
  },
  keepers: {
    schema: z.record(z.string(), z.string()).optional(),
    change: "replace",
    description: "Arbitrary values whose change forces a new token (rotation), as pulumi-random's keepers.",
    example: { rotation: "1" },
  },
  adoptId: {
    schema: z.string().regex(APP_TOKEN_ID, "expected an app token id like 0_ab12cd34").optional(),
    change: "replace",
    description: "Adopt an existing token by id instead of creating one (verified and read, never duplicated).",
    example: "0_ab12cd34",
  },
  connection: CONNECTION_FIELD,
  account: ACCOUNT_FIELD,
} as const;

const outputs = {
  tokenId: { type: "string", description: "The platform's id of the token (also the resource id).", example: "0_ab12cd34" },
  token: {
    type: "string",
    secret: true,
    optional: true,
    description: "The token value: a secret. Present after create, and after reads by the account admin.",
    example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  },
  partnerId: { type: "integer", description: "The account (partner) the token belongs to.", example: 101 },
  status: { type: "integer", description: "1 disabled, 2 active, 3 deleted.", example: 2 },
  createdAt: { type: "integer", description: "Creation time, unix seconds.", example: 1795000000 },
  updatedAt: { type: "integer", description: "Time of the last change, unix seconds.", example: 1795000000 },
} as const satisfies Record<string, OutputField>;

export type AppTokenInputs = CheckedInputsOf<typeof inputs>;
export type AppTokenProgramInputs = ProgramInputsOf<typeof inputs>;
/** The state: every input and output (the mapper below is checked against both tables). */
export type AppTokenOutputs = ReturnType<typeof appTokenOutputs>;

const checkedState = stateChecker(inputs, outputs);

/** The outputs of an AppToken: every AppToken field, plus the inputs that have no server counterpart. */
export function appTokenOutputs(
  token: AppTokenRecord,
  carried: Pick<AppTokenInputs, "keepers" | "adoptId" | "connection" | "account">,
  previousToken?: unknown,
) {
  return checkedState(
    plain({
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
      keepers: carried.keepers,
      adoptId: carried.adoptId,
      connection: carried.connection,
      account: carried.account,
    }),
  );
}

export const appToken = defineResource<AppTokenInputs, AppTokenOutputs>({
  type: "AppToken",
  runtimeExport: "appToken",
  description:
    "An app token of the platform: a pipeline's credential that starts sessions without the account's admin secret. " +
    "`token` is a secret. Changing hashType, sessionType, expiry or keepers replaces the token (the new one is created " +
    "before the old one is deleted, so consumers never see a gap); description and the session settings update in place.",
  example: `const pipeline = new svc.AppToken("deploy-pipeline", {
  description: "Deployment pipeline",
  sessionPrivileges: "list:*",
  keepers: { rotation: "1" },
});
export const pipelineToken = pipeline.token; // a secret`,
  program: {
    title: "An app token for a deployment pipeline",
    name: "pipeline",
    variable: "pipeline",
    inputs: { description: "Deployment pipeline", hashType: "SHA256", sessionPrivileges: "list:*" },
    exports: ["pipelineToken", "token"],
  },
  recovery: {
    creationFields: ["description", "hashType", "sessionType", "sessionDuration", "sessionPrivileges", "sessionUserId", "expiry"],
    emptyAsUnset: ["description", "sessionPrivileges", "sessionUserId"],
  },
  takeover: {
    id: { pattern: APP_TOKEN_ID, max: 64, expected: "an app token id (digits, _, then letters and digits, like 0_ab12cd34)" },
    namePrefix: "token",
    noun: "app token",
    // Status 1 is a disabled token (AppTokenStatus.DISABLED).
    isDisabled: (listed) => listed.status === AppTokenStatus.DISABLED,
  },
  idDescription: "the app token's id, like 0_ab12cd34",
  inputs,
  outputs,

  validate(checked, olds, failures) {
    const expiry = checked.expiry;
    // A past expiry is refused when it is being set, not on every later preview of a token that has since expired.
    if (typeof expiry === "number" && expiry !== 0 && expiry !== olds.expiry && expiry <= Date.now() / 1000) {
      failures.push({ property: "expiry", reason: "expiry: expected 0 (never) or a unix time in the future" });
    }
  },

  async create(ctx, inputs) {
    const { client, signal } = ctx;
    if (typeof inputs.adoptId === "string") return adopt(client, inputs.adoptId, inputs, signal);
    const fields = creationFields(inputs);
    const token = await createWithRecovery<AppTokenRecord>(ctx, {
      what: "app token",
      fingerprint: `${accountScope(client)} appToken ${JSON.stringify(fields)}`,
      create: () => client.appTokens.add(fields, { signal }),
      find: (since, lookupSignal) => findCreated(client, fields, since, lookupSignal),
      idOf: (t) => t.id,
      propertiesOf: (t) => appTokenOutputs(t, inputs),
      // Without the value (a connection that is not the account admin cannot read it) the token is useless to the
      // program: delete it and make one whose value we receive.
      usable: (t) => typeof t.token === "string" && t.token !== "",
      discard: (t, discardSignal) => unlessGone(() => client.appTokens.delete(t.id, { signal: discardSignal })).then(() => undefined),
    });
    return { id: token.id, outs: appTokenOutputs(token, inputs) };
  },

  async read({ client, signal }, id, state) {
    const token = await unlessGone(() => client.appTokens.get(id, { signal }));
    if (!token || token.status === AppTokenStatus.DELETED) return undefined;
    return appTokenOutputs(token, state, state.token);
  },

  async update({ client, signal }, id, olds, news) {
    const token = await client.appTokens.update(id, inPlaceFields(news), { signal });
    return appTokenOutputs(token, news, olds.token);
  },

  async delete({ client, signal }, id) {
    await unlessGone(() => client.appTokens.delete(id, { signal })); // already gone counts as deleted
  },

  async list({ client, signal }) {
    // Active and disabled (status 1) tokens: takeover leaves disabled ones out unless asked (--include-disabled).
    const tokens = await client.appTokens.iterate({}, { signal, pageSize: 500 }).toArray();
    return tokens
      .filter((token) => token.status !== AppTokenStatus.DELETED)
      .map((token) => {
        const outs = appTokenOutputs(token, {});
        return { id: token.id, name: token.description || token.id, inputs: outs };
      });
  },
});

export function sessionTypeName(value: number): SessionTypeName {
  return value === SessionType.ADMIN ? "ADMIN" : "USER";
}

function creationFields(inputs: AppTokenInputs) {
  const { hashType, sessionType, sessionDuration, sessionPrivileges, sessionUserId, description, expiry } = inputs;
  return { hashType, sessionType: SessionType[sessionType], sessionDuration, sessionPrivileges, sessionUserId, description, expiry };
}

/** The fields an update sends: the inputs whose change applies in place (the wire orders them by its own schema). */
const IN_PLACE = keysWithChange(inputs, "inPlace");

function inPlaceFields(inputs: Pick<AppTokenInputs, (typeof IN_PLACE)[number]>) {
  return Object.fromEntries(IN_PLACE.map((key) => [key, inputs[key]])) as Pick<AppTokenInputs, (typeof IN_PLACE)[number]>;
}

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
async function adopt(client: SvcClient, id: string, inputs: AppTokenInputs, signal: AbortSignal): Promise<{ id: string; outs: AppTokenOutputs }> {
  const token = await unlessGone(() => client.appTokens.get(id, { signal }));
  if (!token) throw new ProviderError(`adoptId: app token ${id} was not found in partner ${client.partnerId}; nothing was created`);
  const actual = { hashType: token.hashType, sessionType: sessionTypeName(token.sessionType), expiry: token.expiry };
  const mismatched = (["hashType", "sessionType", "expiry"] as const).filter((key) => !isUnknown(inputs[key]) && actual[key] !== inputs[key]);
  if (mismatched.length > 0) {
    const detail = mismatched.map((key) => `${key} is ${actual[key]} on the server but ${String(inputs[key])} in the program`).join("; ");
    throw new ProviderError(
      `adoptId: app token ${id} cannot be adopted as declared (${detail}); these fields cannot be changed, so set them to the server's values`,
    );
  }
  const outs = appTokenOutputs(token, inputs);
  const current = inPlaceFields(outs);
  const wanted = inPlaceFields(inputs);
  if (JSON.stringify(current) === JSON.stringify(wanted)) return { id, outs };
  const updated = await client.appTokens.update(id, wanted, { signal });
  return { id, outs: appTokenOutputs(updated, inputs, token.token) };
}
