/**
 * getAppToken: one app token of the account, by id. Its value is a secret, returned only when the provider's
 * connection is the account admin (the platform shows token values to no one else); deleted tokens are not found.
 */
import { z } from "zod";
import { AppTokenStatus } from "../../contract/platform";
import { ProviderError, unlessGone } from "../core/errors";
import { APP_TOKEN_ID, appToken, appTokenOutputs } from "./appToken";
import type { OutputField } from "./define";
import { ACCOUNT_ARGUMENT, defineFunction } from "./defineFunction";

const inputs = {
  id: {
    schema: z.string().regex(APP_TOKEN_ID, "expected an app token id like 0_ab12cd34"),
    description: "The app token's id, like 0_ab12cd34.",
    example: "0_ab12cd34",
  },
  account: ACCOUNT_ARGUMENT,
};

export type GetAppTokenArgs = { id: string /** A named account of the provider (`accounts`); its own account when left out. */; account?: string };
export type GetAppTokenResult = ReturnType<typeof tokenResult>;

export const getAppToken = defineFunction<GetAppTokenArgs, GetAppTokenResult>({
  name: "getAppToken",
  description:
    "Looks up an app token of the account by id. `token`, its value, is a secret and is present only when the provider " +
    "authenticates with the account's admin secret. Fails, naming the account and the id, when there is no such active or disabled token.",
  example: `const token = svc.getAppTokenOutput({ id: config.require("pipelineTokenId") });
export const pipelineValue = token.token; // a secret`,
  inputs,
  outputs: {
    tokenId: { type: "string", description: "The token's id.", example: "0_ab12cd34" },
    token: { ...resourceOutput("token"), description: "The token value: a secret; present only with an admin connection." },
    partnerId: resourceOutput("partnerId"),
    status: { type: "integer", description: "1 disabled, 2 active.", example: 2 },
    hashType: { type: "string", typeName: "HashType", description: "The hash its sessions are signed with.", example: "SHA256" },
    sessionType: { type: "string", typeName: "SessionType", description: "USER or ADMIN.", example: "USER" },
    sessionDuration: { type: "integer", description: "Lifetime of its sessions, in seconds; 0 is the account default.", example: 86400 },
    sessionPrivileges: { type: "string", description: "Privileges of its sessions.", example: "list:*" },
    sessionUserId: { type: "string", description: "The user id of its sessions.", example: "deploy-bot" },
    description: { type: "string", description: "What the token is for.", example: "Deployment pipeline" },
    expiry: { type: "integer", description: "Unix time it expires; 0 is never.", example: 0 },
    createdAt: resourceOutput("createdAt"),
    updatedAt: resourceOutput("updatedAt"),
  },

  async invoke(ctx, { id }) {
    const { client, signal } = ctx;
    const token = await unlessGone(() => client.appTokens.get(id, { signal }));
    if (!token || token.status === AppTokenStatus.DELETED) {
      throw new ProviderError(
        `getAppToken: app token ${JSON.stringify(id)} was not found in ${ctx.accountName} (searched by id; deleted tokens are not found)`,
      );
    }
    return tokenResult(appTokenOutputs(token, {}));
  },
});

/** An output the AppToken resource declares as this function returns it: one declaration, one text in the schema. */
function resourceOutput(key: "token" | "partnerId" | "createdAt" | "updatedAt"): OutputField {
  const field = appToken.outputs[key];
  if (!field) throw new Error(`the AppToken definition declares no output ${key}`);
  return field;
}

function tokenResult(outs: ReturnType<typeof appTokenOutputs>) {
  const { keepers: _keepers, adoptId: _adoptId, connection: _connection, account: _account, ...result } = outs;
  return result;
}
