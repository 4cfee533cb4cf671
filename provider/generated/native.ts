// Generated from the resource definitions by `npm run generate`: do not edit.
/**
 * The resources of the native plugin `pulumi-resource-svc` (`pulumi-svc/native`, registered as `svc:index:<type>`),
 * with the same Args as the dynamic resources, and the settings of an explicit provider.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RESOURCES } from "../definitions";
import type { DefinitionOutputs } from "../resources/definitionOutputs";
import type { AppTokenArgs, HttpNotificationTemplateArgs, EmailNotificationTemplateArgs, EmailRecipientArgs, ContentParameterArgs, ConnectionArgs } from "./resources";
import { FIELD_TABLE } from "./fieldTable";
import { NativeResource } from "../resources/nativeResource";
import { typeToken } from "../resources/typeToken";

export type { AppTokenArgs, HttpNotificationTemplateArgs, EmailNotificationTemplateArgs, EmailRecipientArgs, ContentParameterArgs, ConnectionArgs };

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface AppToken extends DefinitionOutputs<(typeof RESOURCES)["AppToken"]> {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class AppToken extends NativeResource {
  static readonly __pulumiType = typeToken("AppToken");
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts: pulumi.CustomResourceOptions = {}): AppToken {
    return new AppToken(name, {}, { ...opts, id });
  }
  constructor(name: string, args: AppTokenArgs = {}, opts: pulumi.CustomResourceOptions = {}) {
    super(FIELD_TABLE.AppToken, "AppToken", name, args, opts);
  }
}

/**
 * An HttpNotificationTemplate taken over with `pulumi import`: the plugin cannot read back signSecret, so the program may leave
 * it out (the platform keeps what it has) until it declares one; the next `up` then writes that one. A new
 * HttpNotificationTemplate still needs it: the plugin's check refuses one without it at preview.
 */
export type ImportedHttpNotificationTemplateArgs = Omit<HttpNotificationTemplateArgs, "signSecret"> & Partial<Pick<HttpNotificationTemplateArgs, "signSecret">>;

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface HttpNotificationTemplate extends DefinitionOutputs<(typeof RESOURCES)["HttpNotificationTemplate"]> {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class HttpNotificationTemplate extends NativeResource {
  static readonly __pulumiType = typeToken("HttpNotificationTemplate");
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts: pulumi.CustomResourceOptions = {}): HttpNotificationTemplate {
    return new HttpNotificationTemplate(name, {} as HttpNotificationTemplateArgs, { ...opts, id });
  }
  constructor(name: string, args: HttpNotificationTemplateArgs | ImportedHttpNotificationTemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(FIELD_TABLE.HttpNotificationTemplate, "HttpNotificationTemplate", name, args, opts);
  }
}

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface EmailNotificationTemplate extends DefinitionOutputs<(typeof RESOURCES)["EmailNotificationTemplate"]> {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class EmailNotificationTemplate extends NativeResource {
  static readonly __pulumiType = typeToken("EmailNotificationTemplate");
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts: pulumi.CustomResourceOptions = {}): EmailNotificationTemplate {
    return new EmailNotificationTemplate(name, {} as EmailNotificationTemplateArgs, { ...opts, id });
  }
  constructor(name: string, args: EmailNotificationTemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(FIELD_TABLE.EmailNotificationTemplate, "EmailNotificationTemplate", name, args, opts);
  }
}

/** The settings of an explicit provider: the `svc:*` stack config keys, for a second account. */
export interface ProviderArgs {
  /** The platform's api_v3 root, e.g. https://api.example.com/api_v3 (or the emulator's). */
  baseUrl?: pulumi.Input<string>;
  /** The account's numeric partner id. */
  partnerId?: pulumi.Input<number>;
  /** The account's admin secret (pipelines should prefer an app token). */
  adminSecret?: pulumi.Input<string>;
  /** The id of an app token to authenticate with, instead of the admin secret. */
  appTokenId?: pulumi.Input<string>;
  /** The value of that app token. */
  appToken?: pulumi.Input<string>;
  /** The hash type of that app token: SHA1, SHA256, SHA512, MD5. */
  appTokenHashType?: pulumi.Input<string>;
  /** A ready session string, instead of other credentials. */
  ks?: pulumi.Input<string>;
  /** Timeout of each HTTP attempt, in milliseconds (default 30000). */
  requestTimeoutMs?: pulumi.Input<number>;
  /** Requests in flight at once to the platform (default 8). */
  maxConcurrency?: pulumi.Input<number>;
  /** Allow a plain http:// baseUrl to a host outside loopback (default false): the credentials would travel unencrypted. Counts only where the baseUrl is set. */
  allowInsecureHttp?: pulumi.Input<boolean>;
  /** Named accounts this provider serves (a secret): a map from a name (letters, digits, `-`, `_`) to the account's connection (baseUrl, partnerId and credentials, as `connection` takes them). A resource or function picks one with its `account` input. Stack config: `pulumi config set --path svc:accounts.<name>.partnerId 102` and `pulumi config set --path --secret svc:accounts.<name>.adminSecret <secret>`. */
  accounts?: pulumi.Input<Record<string, pulumi.Input<ConnectionArgs>>>;
}
