/**
 * HttpNotificationTemplate: a webhook, as a Pulumi resource (the definition, with every field's meaning, is
 * provider/definitions/httpNotificationTemplate.ts). `signSecret` is a Pulumi secret.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { HttpNotificationTemplateProgramInputs, TemplateOutputs } from "../definitions/httpNotificationTemplate";
import type { ConnectionArgs } from "./connectionArgs";
import { DefinedResource, type OutputsOf } from "./definedResource";
import type { PulumiInputs } from "./inputs";
import { dynamicTypeToken, isResourceOfType } from "./typeToken";

/**
 * The inputs of an HttpNotificationTemplate, derived from its definition's schema. Exactly one of systemTemplateId,
 * systemTemplateName or event chooses the system template; name, url and signSecret are required.
 */
export type HttpNotificationTemplateArgs = PulumiInputs<Omit<HttpNotificationTemplateProgramInputs, "connection" | "signSecret">> & {
  signSecret: pulumi.Input<string>;
  connection?: pulumi.Input<ConnectionArgs>;
};

/** The outputs, typed from the definition's state (declaration merging: the class's instances carry them). */
export interface HttpNotificationTemplate extends OutputsOf<Omit<TemplateOutputs, "connection" | "adoptId">> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only declares the outputs the engine sets
export class HttpNotificationTemplate extends DefinedResource {
  /** The engine's type token: dynamic resources are named `pulumi-nodejs:dynamic/<module>:<type>`. */
  static readonly __pulumiType = dynamicTypeToken("HttpNotificationTemplate");

  /**
   * An existing template, read into the program by id without managing it: Pulumi never updates or deletes it.
   * (To take over an existing template instead, use `adoptId`, or `pulumi import` with the plugin.)
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    connection?: pulumi.Input<ConnectionArgs>,
    opts: pulumi.CustomResourceOptions = {},
  ): HttpNotificationTemplate {
    return new HttpNotificationTemplate(name, { connection } as HttpNotificationTemplateArgs, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is HttpNotificationTemplate {
    return isResourceOfType(obj, HttpNotificationTemplate.__pulumiType);
  }

  constructor(name: string, args: HttpNotificationTemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    if (!args) throw new Error("Missing required argument 'args' of HttpNotificationTemplate");
    // A read of an existing template (opts.id, see get) takes its values from the server.
    for (const required of opts.id === undefined ? (["name", "url", "signSecret"] as const) : []) {
      if (args[required] === undefined) throw new Error(`Missing required property '${required}' of HttpNotificationTemplate ${name}`);
    }
    super("HttpNotificationTemplate", name, args, opts);
  }
}
