/**
 * The type tokens of the package's resources, one function per kind of token. A resource type (`AppToken`) has two:
 * the package's own (`svc:index:AppToken`: the schema, the plugin, the native classes, import files) and the one the
 * engine gives a dynamic resource (`pulumi-nodejs:dynamic/svc:AppToken`). Loads nothing: the plugin, the policy pack
 * and the generated classes all read it.
 */

/** The package's name: the first part of its tokens, and the module of its dynamic resources. */
export const PACKAGE = "svc";

const PACKAGE_PREFIX = `${PACKAGE}:index:`;
const DYNAMIC_PREFIX = `pulumi-nodejs:dynamic/${PACKAGE}:`;

/** The package's token of a resource, function or object type: `svc:index:<name>`, as the schema names it. */
export function typeToken(name: string): string {
  return `${PACKAGE_PREFIX}${name}`;
}

/** A dynamic resource's token: `dynamic.Resource(provider, name, props, opts, module, type)` registers `pulumi-nodejs:dynamic/<module>:<type>`. */
export function dynamicTypeToken(type: string): string {
  return `${DYNAMIC_PREFIX}${type}`;
}

/** The name a package token names (`AppToken` of `svc:index:AppToken`); undefined for any other token. */
export function typeNameOf(token: string): string | undefined {
  return token.startsWith(PACKAGE_PREFIX) ? token.slice(PACKAGE_PREFIX.length) : undefined;
}

/** The type either token of a resource names, and whether it is the dynamic one; undefined for any other token. */
export function parseTypeToken(token: string): { type: string; dynamic: boolean } | undefined {
  const type = typeNameOf(token);
  if (type) return { type, dynamic: false };
  return token.startsWith(DYNAMIC_PREFIX) ? { type: token.slice(DYNAMIC_PREFIX.length), dynamic: true } : undefined;
}
