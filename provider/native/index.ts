/**
 * `pulumi-svc/native`: the resources of the native plugin `pulumi-resource-svc` for TypeScript programs. Same names
 * and arguments as the dynamic resources of `pulumi-svc`; what the plugin adds: `pulumi import`, an explicit
 * `Provider` for a second account, one warm provider process per operation. Moving a stack from the dynamic
 * resources to these: `aliases: [svc.fromDynamic("AppToken")]` (docs/plugin.md). The classes and `ProviderArgs`
 * are generated from the definitions (provider/generated/native.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { PROVIDER_SECRET_SETTINGS, type ResourceType } from "../generated/fieldTable";
import { dynamicTypeToken } from "../resources/typeToken";
import { withPluginSource } from "../resources/nativeResource";
import type { ProviderArgs } from "../generated/native";

export * from "./functions";
export * from "../generated/native";

/** The alias that moves a resource of the dynamic provider to the plugin in place (no API call, no replacement). */
export function fromDynamic(type: ResourceType): pulumi.Alias {
  return { type: dynamicTypeToken(type) };
}

/** An explicit provider of the plugin: `new svc.Provider("second", {...})`, then `{ provider }` on resources. */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts: pulumi.ResourceOptions = {}) {
    const props: Record<string, unknown> = { ...args };
    for (const key of PROVIDER_SECRET_SETTINGS) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
    super("svc", name, props, withPluginSource(opts));
  }
}
