import * as pulumi from "@pulumi/pulumi";

/** The module our dynamic resources are registered under, and the type token the engine gives them. */
export const RESOURCE_MODULE = "svc";

/** `dynamic.Resource(provider, name, props, opts, module, type)` is registered as `pulumi-nodejs:dynamic/<module>:<type>`. */
export function dynamicTypeToken(type: string): string {
  return `pulumi-nodejs:dynamic/${RESOURCE_MODULE}:${type}`;
}

/** isInstance for our resources: a Pulumi resource registered under `token` (works across copies of this package). */
export function isResourceOfType(obj: unknown, token: string): boolean {
  return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === token;
}
