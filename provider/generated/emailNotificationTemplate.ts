// Generated from the resource definitions by `npm run generate`: do not edit.
/**
 * EmailNotificationTemplate, a dynamic resource of `pulumi-svc`: an email the platform sends when an event happens: an email notification template, cloned from a system email template (chosen by id, system name or event) with your subject, body, sender and recipients, then activated. Its definition says what each field means.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RESOURCES } from "../definitions";
import type { ConnectionArgs } from "../resources/connectionArgs";
import { DynamicResource, isResourceOfType } from "../resources/dynamicResource";
import type { DefinitionOutputs } from "../resources/definitionOutputs";
import { FIELD_TABLE } from "./fieldTable";
import type { EmailRecipientArgs, ContentParameterArgs } from "./inputTypes";
import { dynamicTypeToken } from "../resources/typeToken";

/** The inputs of an EmailNotificationTemplate, from its definition's input schemas. */
export type EmailNotificationTemplateArgs = {
  /**
   * The system email template to clone, by id. Exactly one of systemTemplateId, systemTemplateName or event.
   * @deprecated A system template's id differs between accounts (dev, prod): choose it by event or systemTemplateName, the same in every account (getSystemTemplates lists them).
   */
  systemTemplateId?: pulumi.Input<string | undefined>;
  /** The system email template to clone, by its system name. Exactly one of systemTemplateId, systemTemplateName or event. */
  systemTemplateName?: pulumi.Input<string | undefined>;
  /** The system email template to clone, by the event it reacts to (entry.added, entry.transcoding_complete, entry.updated, entry.deleted, entry.ready, metadata.changed, category.user_added). Exactly one of systemTemplateId, systemTemplateName or event. */
  event?: pulumi.Input<"entry.added" | "entry.transcoding_complete" | "entry.updated" | "entry.deleted" | "entry.ready" | "metadata.changed" | "category.user_added" | undefined>;
  /** The template's name (at least 3 characters). */
  name: pulumi.Input<string>;
  /** Machine name, unique among the account's active templates. */
  systemName?: pulumi.Input<string | undefined>;
  /** What the template is for. */
  description?: pulumi.Input<string | undefined>;
  /** The subject: one line, at most 998 characters; `{key}` is replaced by the content parameter of that key. */
  subject: pulumi.Input<string>;
  /** The body (text or HTML, see format), at most 100,000 characters; `{key}` is replaced by the content parameter of that key. */
  body: pulumi.Input<string>;
  /** TEXT or HTML (values filled into an HTML body are HTML-escaped). */
  format?: pulumi.Input<"HTML" | "TEXT" | undefined>;
  /** The sender's address. */
  fromEmail: pulumi.Input<string>;
  /** The sender's display name (one line); left out: none. */
  fromName?: pulumi.Input<string | undefined>;
  /** Who the email is sent to: a list of {email, name?}, 1 to 50. */
  to: pulumi.Input<pulumi.Input<EmailRecipientArgs>[]>;
  /** Copied: a list of {email, name?}, at most 50. */
  cc?: pulumi.Input<pulumi.Input<EmailRecipientArgs>[]>;
  /** Blind-copied (in the SMTP envelope only): a list of {email, name?}, at most 50. */
  bcc?: pulumi.Input<pulumi.Input<EmailRecipientArgs>[]>;
  /** Where replies go: a list of {email, name?}, at most 50. */
  replyTo?: pulumi.Input<pulumi.Input<EmailRecipientArgs>[]>;
  /** HIGH, NORMAL or LOW (the X-Priority header). */
  priority?: pulumi.Input<"HIGH" | "NORMAL" | "LOW" | undefined>;
  /** What `{key}` in subject and body becomes: a list of {key, value, description?}; value is text with `{entry.<field>}`, `{object.<field>}` or `{template.<id|name|systemName>}` placeholders filled from the event. */
  contentParameters?: pulumi.Input<pulumi.Input<ContentParameterArgs>[]>;
  /** false keeps the template disabled (no email is sent). */
  active?: pulumi.Input<boolean | undefined>;
  /** Adopt an existing email template of the account by id instead of cloning (verified and read, never duplicated). */
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
export interface EmailNotificationTemplate extends DefinitionOutputs<(typeof RESOURCES)["EmailNotificationTemplate"]> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class EmailNotificationTemplate extends DynamicResource {
  /** The engine's type token: dynamic resources are named `pulumi-nodejs:dynamic/<module>:<type>`. */
  static readonly __pulumiType = dynamicTypeToken("EmailNotificationTemplate");

  /**
   * An existing EmailNotificationTemplate, read into the program by id without managing it: Pulumi never updates or deletes it.
   * (To take one over instead, use `adoptId`, or `pulumi import` with the plugin.)
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, connection?: pulumi.Input<ConnectionArgs>, opts: pulumi.CustomResourceOptions = {}): EmailNotificationTemplate {
    return new EmailNotificationTemplate(name, { connection } as EmailNotificationTemplateArgs, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is EmailNotificationTemplate {
    return isResourceOfType(obj, EmailNotificationTemplate.__pulumiType);
  }

  constructor(name: string, args: EmailNotificationTemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(FIELD_TABLE.EmailNotificationTemplate, "EmailNotificationTemplate", name, args, opts);
  }
}
