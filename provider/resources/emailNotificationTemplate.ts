/**
 * EmailNotificationTemplate: an email sent when an event happens, as a Pulumi resource (the definition, with every
 * field's meaning, is provider/definitions/emailNotificationTemplate.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import type {
  ContentParameterInput,
  EmailNotificationTemplateProgramInputs,
  EmailRecipientInput,
  EmailTemplateOutputs,
} from "../definitions/emailNotificationTemplate";
import type { ConnectionArgs } from "./connectionArgs";
import { DefinedResource, type OutputsOf } from "./definedResource";
import type { PulumiInputs } from "./inputs";
import { dynamicTypeToken, isResourceOfType } from "./typeToken";

/** A recipient: an address and an optional display name. */
export type EmailRecipientArgs = { [K in keyof EmailRecipientInput]: pulumi.Input<EmailRecipientInput[K]> };
/** A content parameter: what `{key}` in the subject and body becomes. */
export type ContentParameterArgs = { [K in keyof ContentParameterInput]: pulumi.Input<ContentParameterInput[K]> };

type ListFields = "to" | "cc" | "bcc" | "replyTo" | "contentParameters";

/**
 * The inputs of an EmailNotificationTemplate, derived from its definition's schema. Exactly one of systemTemplateId,
 * systemTemplateName or event chooses the system template; name, subject, body, fromEmail and to are required.
 */
export type EmailNotificationTemplateArgs = PulumiInputs<Omit<EmailNotificationTemplateProgramInputs, "connection" | ListFields>> & {
  to: pulumi.Input<pulumi.Input<EmailRecipientArgs>[]>;
  cc?: pulumi.Input<pulumi.Input<EmailRecipientArgs>[]>;
  bcc?: pulumi.Input<pulumi.Input<EmailRecipientArgs>[]>;
  replyTo?: pulumi.Input<pulumi.Input<EmailRecipientArgs>[]>;
  contentParameters?: pulumi.Input<pulumi.Input<ContentParameterArgs>[]>;
  connection?: pulumi.Input<ConnectionArgs>;
};

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface EmailNotificationTemplate extends OutputsOf<Omit<EmailTemplateOutputs, "connection" | "adoptId">> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class EmailNotificationTemplate extends DefinedResource {
  /** The engine's type token: dynamic resources are named `pulumi-nodejs:dynamic/<module>:<type>`. */
  static readonly __pulumiType = dynamicTypeToken("EmailNotificationTemplate");

  /**
   * An existing email template, read into the program by id without managing it: Pulumi never updates or deletes
   * it. (To take one over instead, use `adoptId`, or `pulumi import` with the plugin.)
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    connection?: pulumi.Input<ConnectionArgs>,
    opts: pulumi.CustomResourceOptions = {},
  ): EmailNotificationTemplate {
    return new EmailNotificationTemplate(name, { connection } as EmailNotificationTemplateArgs, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is EmailNotificationTemplate {
    return isResourceOfType(obj, EmailNotificationTemplate.__pulumiType);
  }

  constructor(name: string, args: EmailNotificationTemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    if (!args) throw new Error("Missing required argument 'args' of EmailNotificationTemplate");
    // A read of an existing template (opts.id, see get) takes its values from the server.
    for (const required of opts.id === undefined ? (["name", "subject", "body", "fromEmail", "to"] as const) : []) {
      if (args[required] === undefined) throw new Error(`Missing required property '${required}' of EmailNotificationTemplate ${name}`);
    }
    super("EmailNotificationTemplate", name, args, opts);
  }
}
