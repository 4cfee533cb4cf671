/**
 * The base of the dynamic resource classes of `pulumi-svc`: a resource registered under its dynamic type token
 * (`pulumi-nodejs:dynamic/svc:<type>`, the token `pulumi.dynamic.Resource` gives, so the engine routes it to the same
 * dynamic provider host), whose provider is the shim text of its runtime export (shim.ts). Its properties, secret
 * inputs and secret outputs come from its row of the field table (derived from its definition), and so do the
 * required inputs it checks, so a generated class is only its name, its typed Args and outputs, `get` and
 * `isInstance`. One class, not a chain: everything it does is what registering a dynamic resource needs.
 */
import * as pulumi from "@pulumi/pulumi";
import { QuietResource } from "./quietResource";
import type { ResourceFields } from "./resourceFields";
import { checkRequiredInputs } from "./requiredInputs";
import { resourceProps } from "./resourceProps";
import { shimText } from "./shim";
import { dynamicTypeToken } from "./typeToken";

/** isInstance for our resources: a Pulumi resource registered under `token` (works across copies of this package). */
export function isResourceOfType(obj: unknown, token: string): boolean {
  return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === token;
}

export abstract class DynamicResource extends QuietResource {
  protected constructor(fields: ResourceFields, type: string, name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) {
    checkRequiredInputs(fields, type, name, args, opts);
    const options = pulumi.mergeOptions(opts, { additionalSecretOutputs: [...fields.secrets] });
    super(dynamicTypeToken(type), name, { ...resourceProps(fields, args), __provider: shimText(fields.runtimeExport) }, options);
  }
}
