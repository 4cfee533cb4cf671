/**
 * AppToken: an app token of the platform, as a Pulumi resource. `token` is a Pulumi secret. Changing hashType,
 * sessionType, expiry or keepers replaces the token (the new one is created before the old one is deleted, so
 * consumers never see a gap); description and the session settings update in place.
 */
import * as pulumi from "@pulumi/pulumi";
import type { HashType } from "../../contract/platform";
import type { AppTokenProgramInputs } from "../schemas/appTokenInputs";
import type { ConnectionArgs } from "./connectionArgs";
import type { PulumiInputs } from "./inputs";
import { ShimResource } from "./shim";
import { dynamicTypeToken, isResourceOfType } from "./typeToken";

/**
 * The inputs of an AppToken: derived from the schema check validates (provider/schemas/appTokenInputs.ts), where
 * each field is documented. hashType (default SHA256), sessionType (default USER) and expiry replace on change;
 * keepers force a new token; adoptId takes over an existing one; connection reaches another account (a secret).
 */
export type AppTokenArgs = PulumiInputs<Omit<AppTokenProgramInputs, "connection">> & { connection?: pulumi.Input<ConnectionArgs> };

export class AppToken extends ShimResource {
  /** The engine's type token: dynamic resources are named `pulumi-nodejs:dynamic/<module>:<type>`. */
  static readonly __pulumiType = dynamicTypeToken("AppToken");

  /** The platform's id of the token (also the resource id). */
  declare readonly tokenId: pulumi.Output<string>;
  /** The token value: a secret. Present after create, and after reads by the account admin. */
  declare readonly token: pulumi.Output<string>;
  declare readonly partnerId: pulumi.Output<number>;
  /** 2 = active. */
  declare readonly status: pulumi.Output<number>;
  declare readonly hashType: pulumi.Output<HashType>;
  declare readonly sessionType: pulumi.Output<"USER" | "ADMIN">;
  declare readonly sessionDuration: pulumi.Output<number>;
  declare readonly sessionPrivileges: pulumi.Output<string>;
  declare readonly sessionUserId: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly expiry: pulumi.Output<number>;
  declare readonly createdAt: pulumi.Output<number>;
  declare readonly updatedAt: pulumi.Output<number>;
  declare readonly keepers: pulumi.Output<Record<string, string> | undefined>;
  declare readonly adoptId: pulumi.Output<string | undefined>;

  /**
   * An existing token, read into the program by id without managing it: Pulumi never updates or deletes it.
   * (To take over an existing token instead, use `adoptId`.)
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, connection?: pulumi.Input<ConnectionArgs>, opts: pulumi.CustomResourceOptions = {}): AppToken {
    return new AppToken(name, { connection }, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is AppToken {
    return isResourceOfType(obj, AppToken.__pulumiType);
  }

  constructor(name: string, args: AppTokenArgs = {}, opts: pulumi.CustomResourceOptions = {}) {
    // Every output is named here (undefined until the provider fills it), so each is a property of the resource.
    const props = {
      hashType: args.hashType,
      sessionType: args.sessionType,
      sessionDuration: args.sessionDuration,
      sessionPrivileges: args.sessionPrivileges,
      sessionUserId: args.sessionUserId,
      description: args.description,
      expiry: args.expiry,
      keepers: args.keepers,
      adoptId: args.adoptId,
      tokenId: undefined,
      token: undefined,
      partnerId: undefined,
      status: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      // An input only (not an output of the resource): left out when not given.
      ...(args.connection === undefined ? {} : { connection: pulumi.secret(args.connection) }),
    };
    super("appToken", "AppToken", name, props, pulumi.mergeOptions(opts, { additionalSecretOutputs: ["token", "connection"] }));
  }
}
