/**
 * The base of the native plugin's resource classes for TypeScript programs (`pulumi-svc/native`): the same field
 * table as the dynamic classes, registered as `svc:index:<type>` and served by the plugin `pulumi-resource-svc`.
 */
import * as pulumi from "@pulumi/pulumi";
import { FIELD_TABLE, type ResourceType } from "../resources/fieldTable";

export const nativeTypeToken = (type: ResourceType): string => `svc:index:${type}`;

export abstract class NativeResource extends pulumi.CustomResource {
  protected constructor(type: ResourceType, name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) {
    const fields = FIELD_TABLE[type];
    const props: Record<string, unknown> = {};
    for (const key of fields.inputs) {
      const value = args[key];
      if (value === undefined && key === "connection") continue;
      // Secret inputs are secrets in the program too (the plugin marks them secret in what it returns as well).
      props[key] = value !== undefined && (fields.secrets as readonly string[]).includes(key) ? pulumi.secret(value) : value;
    }
    for (const key of fields.outputs) props[key] = undefined;
    super(nativeTypeToken(type), name, props, opts);
  }
}
