/**
 * Which svc resource a resource of the engine is, whichever provider made it: the native plugin registers
 * `svc:index:<Type>`; the dynamic provider of `pulumi-svc` registers `pulumi-nodejs:dynamic/svc:<Type>`; and a
 * dynamic resource under the generic token `pulumi-nodejs:dynamic:Resource` (made without a module and type) is known
 * by its `__provider` input, the fixed shim text that names the provider runtime's export it calls.
 */
import { FIELD_TABLE, isResourceType, type ResourceType } from "../provider/generated/fieldTable";
import { parseTypeToken } from "../provider/resources/typeToken";

/** The svc types: the generated field table's rows, one per resource definition. */
export const SVC_TYPES = Object.keys(FIELD_TABLE) as ResourceType[];
export type SvcType = ResourceType;

/** The type of each runtime export a shim calls (each definition's `runtimeExport`, a column of the field table). */
const BY_RUNTIME_EXPORT: ReadonlyMap<string, SvcType> = new Map(SVC_TYPES.map((type) => [FIELD_TABLE[type].runtimeExport, type]));

/** The svc type of a resource, or undefined for any other resource. */
export function svcTypeOf(type: string, props: Record<string, unknown>): SvcType | undefined {
  const token = parseTypeToken(type);
  if (token) return isResourceType(token.type) ? token.type : undefined;
  if (type === "pulumi-nodejs:dynamic:Resource" && typeof props.__provider === "string" && props.__provider.includes("pulumi-svc/provider-runtime")) {
    const runtimeExport = /const \{ configure, (\w+): provider \}/.exec(props.__provider)?.[1];
    return runtimeExport ? BY_RUNTIME_EXPORT.get(runtimeExport) : undefined;
  }
  return undefined;
}

/** The stack a resource belongs to, from its URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export function stackOf(urn: string): string {
  return /^urn:pulumi:([^:]+)::/.exec(urn)?.[1] ?? "";
}
