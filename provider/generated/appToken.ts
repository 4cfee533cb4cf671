// Generated from the resource definitions by `npm run generate`: do not edit.
/**
 * AppToken, a dynamic resource of `pulumi-svc`: an app token of the platform: a pipeline's credential that starts sessions without the account's admin secret. Its definition says what each field means.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RESOURCES } from "../definitions";
import type { ConnectionArgs } from "../resources/connectionArgs";
import { DynamicResource, isResourceOfType } from "../resources/dynamicResource";
import type { DefinitionOutputs } from "../resources/definitionOutputs";
import { FIELD_TABLE } from "./fieldTable";
import { dynamicTypeToken } from "../resources/typeToken";

/** The inputs of an AppToken, from its definition's input schemas. */
export type AppTokenArgs = {
  /** The hash the token's sessions are signed with. Default SHA256 here (the platform's own default is SHA1). Changing it replaces the token. */
  hashType?: pulumi.Input<"SHA1" | "SHA256" | "SHA512" | "MD5" | undefined>;
  /** The type of the sessions the token starts: USER (recommended) or ADMIN. Changing it replaces the token. */
  sessionType?: pulumi.Input<"USER" | "ADMIN" | undefined>;
  /** Lifetime of the sessions the token starts, in seconds; 0 is the account default. */
  sessionDuration?: pulumi.Input<number | undefined>;
  /** Privileges of the sessions the token starts, comma-separated. */
  sessionPrivileges?: pulumi.Input<string | undefined>;
  /** The user id of the sessions the token starts. */
  sessionUserId?: pulumi.Input<string | undefined>;
  /** What the token is for. */
  description?: pulumi.Input<string | undefined>;
  /** Unix time the token expires; 0 is never. The platform cannot change it: a change replaces the token. */
  expiry?: pulumi.Input<number | undefined>;
  /** Arbitrary values whose change forces a new token (rotation), as pulumi-random's keepers. */
  keepers?: pulumi.Input<Record<string, pulumi.Input<string>> | undefined>;
  /** Adopt an existing token by id instead of creating one (verified and read, never duplicated). */
  adoptId?: pulumi.Input<string | undefined>;
  /**
   * How to reach another account than the provider's (a secret); usually left out. Deprecated: use `account`.
   * @deprecated `connection` is deprecated: add the account to the provider's `accounts` (stack config `svc:accounts.<name>.*`, or `accounts` on an explicit provider) and set `account: "<name>"`; a resource moves from one to the other without replacement
   */
  connection?: pulumi.Input<ConnectionArgs>;
  /** The name of the account to act in: one of the provider's named accounts (`accounts`). Left out, the provider's own account. */
  account?: pulumi.Input<string | undefined>;
};

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface AppToken extends DefinitionOutputs<(typeof RESOURCES)["AppToken"]> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class AppToken extends DynamicResource {
  /** The engine's type token: dynamic resources are named `pulumi-nodejs:dynamic/<module>:<type>`. */
  static readonly __pulumiType = dynamicTypeToken("AppToken");

  /**
   * An existing AppToken, read into the program by id without managing it: Pulumi never updates or deletes it.
   * (To take one over instead, use `adoptId`, or `pulumi import` with the plugin.)
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, connection?: pulumi.Input<ConnectionArgs>, opts: pulumi.CustomResourceOptions = {}): AppToken {
    return new AppToken(name, { connection }, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is AppToken {
    return isResourceOfType(obj, AppToken.__pulumiType);
  }

  constructor(name: string, args: AppTokenArgs = {}, opts: pulumi.CustomResourceOptions = {}) {
    super(FIELD_TABLE.AppToken, "AppToken", name, args, opts);
  }
}
