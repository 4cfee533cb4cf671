/** The module our dynamic resources are registered under, and the type token the engine gives them. */
export const RESOURCE_MODULE = "svc";

/** `dynamic.Resource(provider, name, props, opts, module, type)` is registered as `pulumi-nodejs:dynamic/<module>:<type>`. */
export function dynamicTypeToken(type: string): string {
  return `pulumi-nodejs:dynamic/${RESOURCE_MODULE}:${type}`;
}
