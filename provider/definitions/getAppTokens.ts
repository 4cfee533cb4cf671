/**
 * getAppTokens: the account's active app tokens, filtered by session type and hash type on the server and by a part
 * of the description here. Never the tokens' values (a list is for finding ids; getAppToken reads one).
 */
import { z } from "zod";
import { AppTokenStatus, HashType, SessionType } from "../../contract/platform";
import { sessionTypeName } from "./appToken";
import { ACCOUNT_ARGUMENT, defineFunction } from "./defineFunction";
import { SessionTypeName } from "./schemaTypes";

const inputs = {
  descriptionContains: {
    schema: z.string().optional(),
    description: "Only tokens whose description contains this text (case-sensitive).",
    example: "pipeline",
  },
  sessionType: {
    schema: SessionTypeName.optional(),
    typeName: "SessionType" as const,
    description: "Only tokens of this session type: USER or ADMIN.",
    example: "ADMIN",
  },
  hashType: { schema: HashType.optional(), typeName: "HashType" as const, description: "Only tokens of this hash type.", example: "SHA256" },
  account: ACCOUNT_ARGUMENT,
};

export type GetAppTokensArgs = {
  descriptionContains?: string;
  sessionType?: SessionTypeName;
  hashType?: HashType /** A named account of the provider (`accounts`); its own account when left out. */;
  account?: string;
};
/** An app token as getAppTokens lists it (the schema's AppTokenSummary). */
export interface AppTokenSummary {
  tokenId: string;
  description: string;
  hashType: HashType;
  sessionType: SessionTypeName;
  sessionDuration: number;
  sessionPrivileges: string;
  status: number;
  expiry: number;
  createdAt: number;
}
export type GetAppTokensResult = { ids: string[]; tokens: AppTokenSummary[] };

export const getAppTokens = defineFunction<GetAppTokensArgs, GetAppTokensResult>({
  name: "getAppTokens",
  description:
    "Lists the account's active app tokens, optionally only those of a session type, of a hash type, or whose description " +
    "contains a text. Never their values. An empty list is not an error.",
  example: `const admins = svc.getAppTokensOutput({ sessionType: "ADMIN", descriptionContains: "pipeline" });
export const adminTokenIds = admins.ids;`,
  inputs,
  outputs: {
    ids: { type: "array", description: "The ids of the tokens found, in the platform's order.", example: ["0_ab12cd34"] },
    tokens: {
      type: "array",
      typeName: "AppTokenSummary",
      description: "The tokens found, without their values.",
      example: [{ tokenId: "0_ab12cd34", description: "Deployment pipeline", hashType: "SHA256", sessionType: "ADMIN" }],
    },
  },

  async invoke(ctx, { descriptionContains, sessionType, hashType }) {
    const { client, signal } = ctx;
    const filter = {
      statusEqual: AppTokenStatus.ACTIVE,
      ...(hashType ? { hashTypeEqual: hashType } : {}),
      ...(sessionType ? { sessionTypeEqual: SessionType[sessionType] } : {}),
    };
    const found = await client.appTokens.iterate(filter, { signal, pageSize: 500 }).toArray();
    const tokens = found
      .filter((t) => descriptionContains === undefined || (t.description ?? "").includes(descriptionContains))
      .map(
        (t): AppTokenSummary => ({
          tokenId: t.id,
          description: t.description ?? "",
          hashType: t.hashType,
          sessionType: sessionTypeName(t.sessionType),
          sessionDuration: t.sessionDuration,
          sessionPrivileges: t.sessionPrivileges ?? "",
          status: t.status,
          expiry: t.expiry,
          createdAt: t.createdAt,
        }),
      );
    return { ids: tokens.map((t) => t.tokenId), tokens };
  },
});
