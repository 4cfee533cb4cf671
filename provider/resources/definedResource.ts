/**
 * The base of the dynamic resource classes: a resource's properties, secret inputs and secret outputs come from its
 * row of the field table (derived from its definition), and so do the required inputs it checks, so a generated
 * class is only its name, its typed Args and outputs, `get` and `isInstance`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceDefinition } from "../definitions/define";
import type { ResourceFields } from "./resourceFields";
import { checkRequiredInputs } from "./requiredInputs";
import { resourceProps } from "./resourceProps";
import { ShimResource } from "./shim";

/** The typed outputs of a resource, from its definition's state type (a type import: nothing is loaded). */
export type OutputsOf<State> = { readonly [K in keyof State]-?: pulumi.Output<State[K]> };

/** The state a definition's create and read return (its second type argument). */
export type StateOf<Definition> = Definition extends ResourceDefinition<infer _Inputs, infer State> ? State : never;

/** A resource's outputs as its class declares them: its definition's state, less the connection (credentials). */
export type DefinitionOutputs<Definition> = OutputsOf<Omit<StateOf<Definition>, "connection">>;

/** isInstance for our resources: a Pulumi resource registered under `token` (works across copies of this package). */
export function isResourceOfType(obj: unknown, token: string): boolean {
  return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === token;
}

export abstract class DefinedResource extends ShimResource {
  protected constructor(fields: ResourceFields, type: string, name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) {
    checkRequiredInputs(fields, type, name, args, opts);
    const options = pulumi.mergeOptions(opts, { additionalSecretOutputs: [...fields.secrets] });
    super(fields.runtimeExport, type, name, resourceProps(fields, args), options);
  }
}
