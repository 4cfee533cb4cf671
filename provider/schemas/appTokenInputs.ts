/** The inputs of an AppToken, as check validates them (defaults filled in so diff compares like with like). */
import { z } from "zod";
import { HashType } from "../../contract/platform";
import { ConnectionInput } from "./connection";

export const SessionTypeName = z.enum(["USER", "ADMIN"]);
export type SessionTypeName = z.infer<typeof SessionTypeName>;

export const APP_TOKEN_ID = /^\d+_[A-Za-z0-9]+$/;

export const AppTokenInputs = {
  /** Default SHA256 here (the platform's own default is SHA1, which we do not recommend). Changing it replaces the token. */
  hashType: HashType.default("SHA256"),
  /** USER (recommended) or ADMIN. Changing it replaces the token. */
  sessionType: SessionTypeName.default("USER"),
  /** Seconds; 0 = the account default. */
  sessionDuration: z.number().int().min(0).default(0),
  sessionPrivileges: z.string().default(""),
  sessionUserId: z.string().default(""),
  description: z.string().default(""),
  /** Unix time the token expires; 0 = never. The platform cannot change it: a change replaces the token. */
  expiry: z.number().int().min(0).default(0),
  /** Arbitrary values whose change forces a new token (rotation), as pulumi-random's keepers. */
  keepers: z.record(z.string(), z.string()).optional(),
  /** Adopt an existing token by id instead of creating one (verified and read, never duplicated). */
  adoptId: z.string().regex(APP_TOKEN_ID, "expected an app token id like 0_ab12cd34").optional(),
  connection: ConnectionInput.optional(),
} satisfies Record<string, z.ZodType>;

const all = z.object(AppTokenInputs);
/** The checked inputs (defaults filled in): what create and update receive. */
export type AppTokenInputs = z.output<typeof all>;
/** What a program may pass (before defaults): the resource's Args are derived from it. */
export type AppTokenProgramInputs = z.input<typeof all>;

/** Fields the platform updates in place; every other input replaces the token. */
export const APP_TOKEN_IN_PLACE = ["description", "sessionDuration", "sessionPrivileges", "sessionUserId"] as const;
/** Fields whose change replaces the token. */
export const APP_TOKEN_REPLACES = ["hashType", "sessionType", "expiry", "keepers", "adoptId"] as const;
