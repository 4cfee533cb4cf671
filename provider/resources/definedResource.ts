/**
 * The base of the dynamic resource classes: a resource's properties, secret inputs and secret outputs come from its
 * entry in the field table (derived from its definition), so a class is only its name, its typed Args and outputs.
 */
import * as pulumi from "@pulumi/pulumi";
import { FIELD_TABLE, type ResourceType } from "./fieldTable";
import { resourceProps, secretProps } from "./resourceProps";
import { ShimResource, type ShimKind } from "./shim";

/** The typed outputs of a resource, from its definition's state type (a type import: nothing is loaded). */
export type OutputsOf<State> = { readonly [K in keyof State]-?: pulumi.Output<State[K]> };

export abstract class DefinedResource extends ShimResource {
  protected constructor(type: ResourceType, name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) {
    const options = pulumi.mergeOptions(opts, { additionalSecretOutputs: secretProps(type) });
    super(FIELD_TABLE[type].kind as ShimKind, type, name, resourceProps(type, args), options);
  }
}
