/**
 * `pulumi-svc/native`: the resources of the native plugin `pulumi-resource-svc` for TypeScript programs. Same names
 * and arguments as the dynamic resources of `pulumi-svc`; what the plugin adds: `pulumi import`, an explicit
 * `Provider` for a second account, one warm provider process per operation. Moving a stack from the dynamic
 * resources to these: `aliases: [svc.fromDynamic("AppToken")]` (docs/plugin.md).
 */
import * as pulumi from "@pulumi/pulumi";
import type { AppTokenOutputs } from "../definitions/appToken";
import type { EmailTemplateOutputs } from "../definitions/emailNotificationTemplate";
import type { TemplateOutputs } from "../definitions/httpNotificationTemplate";
import type { AppTokenArgs } from "../resources/appToken";
import type { ConnectionArgs } from "../resources/connectionArgs";
import type { ContentParameterArgs, EmailNotificationTemplateArgs, EmailRecipientArgs } from "../resources/emailNotificationTemplate";
import type { OutputsOf } from "../resources/definedResource";
import { PROVIDER_SECRET_SETTINGS, type ResourceType } from "../resources/fieldTable";
import type { HttpNotificationTemplateArgs } from "../resources/httpNotificationTemplate";
import { dynamicTypeToken } from "../resources/typeToken";
import { NativeResource, nativeTypeToken, withPluginSource } from "./nativeResource";

export * from "./functions";
export type { AppTokenArgs, HttpNotificationTemplateArgs, EmailNotificationTemplateArgs, EmailRecipientArgs, ContentParameterArgs, ConnectionArgs };

/**
 * A template taken over with `pulumi import`: its write-once signSecret is never read back, so the program may leave
 * it out (the platform keeps the secret it has) until it declares one; the next `up` then writes that one. A new
 * template still needs it: the plugin's check refuses one without it at preview.
 */
export type ImportedHttpNotificationTemplateArgs = Omit<HttpNotificationTemplateArgs, "signSecret"> & {
  signSecret?: HttpNotificationTemplateArgs["signSecret"];
};

/** The alias that moves a resource of the dynamic provider to the plugin in place (no API call, no replacement). */
export function fromDynamic(type: ResourceType): pulumi.Alias {
  return { type: dynamicTypeToken(type) };
}

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface AppToken extends OutputsOf<Omit<AppTokenOutputs, "connection">> {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class AppToken extends NativeResource {
  static readonly __pulumiType = nativeTypeToken("AppToken");
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts: pulumi.CustomResourceOptions = {}): AppToken {
    return new AppToken(name, {}, { ...opts, id });
  }
  constructor(name: string, args: AppTokenArgs = {}, opts: pulumi.CustomResourceOptions = {}) {
    super("AppToken", name, args, opts);
  }
}

/** The outputs, typed from the definition's state. */
export interface HttpNotificationTemplate extends OutputsOf<Omit<TemplateOutputs, "connection" | "adoptId">> {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class HttpNotificationTemplate extends NativeResource {
  static readonly __pulumiType = nativeTypeToken("HttpNotificationTemplate");
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts: pulumi.CustomResourceOptions = {}): HttpNotificationTemplate {
    return new HttpNotificationTemplate(name, {} as HttpNotificationTemplateArgs, { ...opts, id });
  }
  constructor(name: string, args: HttpNotificationTemplateArgs | ImportedHttpNotificationTemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    super("HttpNotificationTemplate", name, args, opts);
  }
}

/** The outputs, typed from the definition's state. */
export interface EmailNotificationTemplate extends OutputsOf<Omit<EmailTemplateOutputs, "connection" | "adoptId">> {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class EmailNotificationTemplate extends NativeResource {
  static readonly __pulumiType = nativeTypeToken("EmailNotificationTemplate");
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts: pulumi.CustomResourceOptions = {}): EmailNotificationTemplate {
    return new EmailNotificationTemplate(name, {} as EmailNotificationTemplateArgs, { ...opts, id });
  }
  constructor(name: string, args: EmailNotificationTemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    super("EmailNotificationTemplate", name, args, opts);
  }
}

/** The settings of an explicit provider: the `svc:*` stack config keys, for a second account. */
export interface ProviderArgs {
  baseUrl?: pulumi.Input<string>;
  partnerId?: pulumi.Input<number>;
  adminSecret?: pulumi.Input<string>;
  appTokenId?: pulumi.Input<string>;
  appToken?: pulumi.Input<string>;
  appTokenHashType?: pulumi.Input<string>;
  ks?: pulumi.Input<string>;
  requestTimeoutMs?: pulumi.Input<number>;
  maxConcurrency?: pulumi.Input<number>;
  /** Allow a plain http:// baseUrl (set here) to a host outside loopback: the credentials would travel unencrypted. */
  allowInsecureHttp?: pulumi.Input<boolean>;
}

/** An explicit provider of the plugin: `new svc.Provider("second", {...})`, then `{ provider }` on resources. */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts: pulumi.ResourceOptions = {}) {
    const props: Record<string, unknown> = { ...args };
    for (const key of PROVIDER_SECRET_SETTINGS) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
    super("svc", name, props, withPluginSource(opts));
  }
}
