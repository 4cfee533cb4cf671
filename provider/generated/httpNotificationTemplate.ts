// Generated from the resource definitions by `npm run generate`: do not edit.
/**
 * HttpNotificationTemplate, a dynamic resource of `pulumi-svc`: a webhook: an HTTP event notification template, cloned from a system template (chosen by id, system name or event) with your url and signing secret, then activated. Its definition says what each field means.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RESOURCES } from "../definitions";
import type { ConnectionArgs } from "../resources/connectionArgs";
import { DynamicResource, isResourceOfType } from "../resources/dynamicResource";
import type { DefinitionOutputs } from "../resources/definitionOutputs";
import { FIELD_TABLE } from "./fieldTable";
import { dynamicTypeToken } from "../resources/typeToken";

/** The inputs of an HttpNotificationTemplate, from its definition's input schemas. */
export type HttpNotificationTemplateArgs = {
  /**
   * The system template to clone, by id. Exactly one of systemTemplateId, systemTemplateName or event.
   * @deprecated A system template's id differs between accounts (dev, prod): choose it by event or systemTemplateName, the same in every account (getSystemTemplates lists them).
   */
  systemTemplateId?: pulumi.Input<string | undefined>;
  /** The system template to clone, by its system name. Exactly one of systemTemplateId, systemTemplateName or event. */
  systemTemplateName?: pulumi.Input<string | undefined>;
  /** The system template to clone, by the event it reacts to (entry.added, entry.transcoding_complete, entry.updated, entry.deleted, entry.ready, metadata.changed, category.user_added). Exactly one of systemTemplateId, systemTemplateName or event. */
  event?: pulumi.Input<"entry.added" | "entry.transcoding_complete" | "entry.updated" | "entry.deleted" | "entry.ready" | "metadata.changed" | "category.user_added" | undefined>;
  /** The template's name (at least 3 characters). */
  name: pulumi.Input<string>;
  /** Machine name, unique among the account's active templates. */
  systemName?: pulumi.Input<string | undefined>;
  /** What the template is for. */
  description?: pulumi.Input<string | undefined>;
  /** Where deliveries are sent: https, or http to a loopback address for local testing. */
  url: pulumi.Input<string>;
  /** The HTTP method of deliveries. */
  method?: pulumi.Input<"GET" | "POST" | "PUT" | "DELETE" | undefined>;
  /** The signing secret of deliveries (X-SVC-SIGNATURE), at least 16 characters; a secret. Write-once on the platform: compared with the state, never read back. */
  signSecret: pulumi.Input<string>;
  /** The hash of the delivery signature: SHA1, SHA256 or SHA512. */
  secureHashingAlgo?: pulumi.Input<"SHA1" | "SHA256" | "SHA512" | undefined>;
  /** false keeps the template disabled. */
  active?: pulumi.Input<boolean | undefined>;
  /** Adopt an existing template of the account by id instead of cloning (verified and read, never duplicated). */
  adoptId?: pulumi.Input<string | undefined>;
  /**
   * How to reach another account than the provider's (a secret); usually left out. Deprecated: use `account`.
   * @deprecated `connection` is deprecated: add the account to the provider's `accounts` (stack config `svc:accounts.<name>.*`, or `accounts` on an explicit provider) and set `account: "<name>"`; a resource moves from one to the other without replacement
   */
  connection?: pulumi.Input<ConnectionArgs>;
  /** The name of the account to act in: one of the provider's named accounts (`accounts`). Left out, the provider's own account. */
  account?: pulumi.Input<string | undefined>;
};

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface HttpNotificationTemplate extends DefinitionOutputs<(typeof RESOURCES)["HttpNotificationTemplate"]> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class HttpNotificationTemplate extends DynamicResource {
  /** The engine's type token: dynamic resources are named `pulumi-nodejs:dynamic/<module>:<type>`. */
  static readonly __pulumiType = dynamicTypeToken("HttpNotificationTemplate");

  /**
   * An existing HttpNotificationTemplate, read into the program by id without managing it: Pulumi never updates or deletes it.
   * (To take one over instead, use `adoptId`, or `pulumi import` with the plugin.)
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, connection?: pulumi.Input<ConnectionArgs>, opts: pulumi.CustomResourceOptions = {}): HttpNotificationTemplate {
    return new HttpNotificationTemplate(name, { connection } as HttpNotificationTemplateArgs, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is HttpNotificationTemplate {
    return isResourceOfType(obj, HttpNotificationTemplate.__pulumiType);
  }

  constructor(name: string, args: HttpNotificationTemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(FIELD_TABLE.HttpNotificationTemplate, "HttpNotificationTemplate", name, args, opts);
  }
}
