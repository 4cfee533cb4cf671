/**
 * The base of the dynamic resource classes: a resource's properties, secret inputs and secret outputs come from its
 * entry in the field table (derived from its definition), so a class is only its name, its typed Args and outputs.
 */
import * as pulumi from "@pulumi/pulumi";
import { FIELD_TABLE, type ResourceType } from "./fieldTable";
import { ShimResource, type ShimKind } from "./shim";

/** The typed outputs of a resource, from its definition's state type (a type import: nothing is loaded). */
export type OutputsOf<State> = { readonly [K in keyof State]-?: pulumi.Output<State[K]> };

export abstract class DefinedResource extends ShimResource {
  protected constructor(type: ResourceType, name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) {
    const fields = FIELD_TABLE[type];
    // Every output is named (undefined until the provider fills it), so each is a property of the resource; an input
    // that is not an output (connection) is left out when not given: each property costs the SDK four promises.
    const props: Record<string, unknown> = {};
    for (const key of fields.inputs) {
      const value = args[key];
      if (value === undefined && key === "connection") continue;
      props[key] = value !== undefined && (fields.secrets as readonly string[]).includes(key) ? pulumi.secret(value) : value;
    }
    for (const key of fields.outputs) props[key] = undefined;
    super(fields.kind as ShimKind, type, name, props, pulumi.mergeOptions(opts, { additionalSecretOutputs: [...fields.secrets] }));
  }
}
