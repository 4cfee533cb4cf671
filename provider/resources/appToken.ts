/**
 * AppToken: an app token of the platform, as a Pulumi resource (the definition, with every field's meaning, is
 * provider/definitions/appToken.ts). `token` is a Pulumi secret.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AppTokenOutputs, AppTokenProgramInputs } from "../definitions/appToken";
import type { ConnectionArgs } from "./connectionArgs";
import { DefinedResource, type OutputsOf } from "./definedResource";
import type { PulumiInputs } from "./inputs";
import { dynamicTypeToken, isResourceOfType } from "./typeToken";

/** The inputs of an AppToken, derived from its definition's schema. */
export type AppTokenArgs = PulumiInputs<Omit<AppTokenProgramInputs, "connection">> & { connection?: pulumi.Input<ConnectionArgs> };

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface AppToken extends OutputsOf<Omit<AppTokenOutputs, "connection">> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class AppToken extends DefinedResource {
  /** The engine's type token: dynamic resources are named `pulumi-nodejs:dynamic/<module>:<type>`. */
  static readonly __pulumiType = dynamicTypeToken("AppToken");

  /**
   * An existing token, read into the program by id without managing it: Pulumi never updates or deletes it.
   * (To take over an existing token instead, use `adoptId`, or `pulumi import` with the plugin.)
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, connection?: pulumi.Input<ConnectionArgs>, opts: pulumi.CustomResourceOptions = {}): AppToken {
    return new AppToken(name, { connection }, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is AppToken {
    return isResourceOfType(obj, AppToken.__pulumiType);
  }

  constructor(name: string, args: AppTokenArgs = {}, opts: pulumi.CustomResourceOptions = {}) {
    super("AppToken", name, args, opts);
  }
}
