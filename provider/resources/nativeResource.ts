/**
 * The base of the native plugin's resource classes for TypeScript programs (`pulumi-svc/native`): the same field
 * table as the dynamic classes, registered as `svc:index:<type>` and served by the plugin `pulumi-resource-svc`.
 */
import * as pulumi from "@pulumi/pulumi";
import { QuietResource } from "./quietResource";
import type { ResourceFields } from "./resourceFields";
import { resourceProps } from "./resourceProps";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "../core/pluginRelease";
import { typeToken } from "./typeToken";

/**
 * The plugin these resources need, as a generated SDK asks for it: its version and where the engine downloads it
 * when it is not installed (a program's own options win).
 */
export function withPluginSource<T extends pulumi.ResourceOptions>(opts: T): T {
  return { version: PLUGIN_VERSION, ...(PLUGIN_DOWNLOAD_URL ? { pluginDownloadURL: PLUGIN_DOWNLOAD_URL } : {}), ...opts };
}

export abstract class NativeResource extends QuietResource {
  protected constructor(fields: ResourceFields, type: string, name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) {
    // Secret inputs are secrets in the program too (the plugin marks them secret in what it returns as well).
    super(typeToken(type), name, resourceProps(fields, args), withPluginSource(opts));
    // The schema's deprecationMessage, as the generated SDKs show it: a warning in preview and up, on this resource.
    for (const [key, message] of Object.entries(fields.deprecated)) if (args[key] !== undefined) void pulumi.log.warn(`${key} is deprecated: ${message}`, this);
  }
}
