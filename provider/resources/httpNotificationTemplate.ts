/**
 * HttpNotificationTemplate: a webhook. Clones a system template (chosen by id, system name or event) with your
 * url and signing secret, then activates it. Updatable fields update in place; a different source template
 * replaces (deleting first when the systemName stays the same, as it must be unique). `signSecret` is a secret.
 */
import * as pulumi from "@pulumi/pulumi";
import type { HttpMethodName, SecureHashingAlgoName } from "../../contract/platform";
import type { HttpNotificationTemplateProgramInputs } from "../schemas/httpNotificationTemplateInputs";
import type { ConnectionArgs } from "./connectionArgs";
import type { PulumiInputs } from "./inputs";
import { ShimResource } from "./shim";
import { dynamicTypeToken, isResourceOfType } from "./typeToken";

/**
 * The inputs of an HttpNotificationTemplate: derived from the schema check validates
 * (provider/schemas/httpNotificationTemplateInputs.ts), where each field is documented. Exactly one of
 * systemTemplateId, systemTemplateName or event chooses the system template; name, url and signSecret are required.
 */
export type HttpNotificationTemplateArgs = PulumiInputs<Omit<HttpNotificationTemplateProgramInputs, "connection">> & {
  connection?: pulumi.Input<ConnectionArgs>;
};

export class HttpNotificationTemplate extends ShimResource {
  /** The engine's type token: dynamic resources are named `pulumi-nodejs:dynamic/<module>:<type>`. */
  static readonly __pulumiType = dynamicTypeToken("HttpNotificationTemplate");

  declare readonly templateId: pulumi.Output<string>;
  declare readonly partnerId: pulumi.Output<number>;
  /** The id of the system template it was cloned from. */
  declare readonly sourceTemplateId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly systemName: pulumi.Output<string | undefined>;
  declare readonly description: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly method: pulumi.Output<HttpMethodName>;
  declare readonly signSecret: pulumi.Output<string>;
  declare readonly secureHashingAlgo: pulumi.Output<SecureHashingAlgoName>;
  declare readonly active: pulumi.Output<boolean>;
  declare readonly status: pulumi.Output<number>;
  declare readonly eventType: pulumi.Output<string>;
  declare readonly eventObjectType: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<number>;
  declare readonly updatedAt: pulumi.Output<number>;

  /**
   * An existing template, read into the program by id without managing it: Pulumi never updates or deletes it.
   * (To take over an existing template instead, use `adoptId`.)
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
    // Every output is named here (undefined until the provider fills it), so each is a property of the resource.
    const props = {
      systemTemplateId: args.systemTemplateId,
      systemTemplateName: args.systemTemplateName,
      event: args.event,
      name: args.name,
      systemName: args.systemName,
      description: args.description,
      url: args.url,
      method: args.method,
      secureHashingAlgo: args.secureHashingAlgo,
      active: args.active,
      adoptId: args.adoptId,
      signSecret: args.signSecret === undefined ? undefined : pulumi.secret(args.signSecret),
      templateId: undefined,
      partnerId: undefined,
      sourceTemplateId: undefined,
      status: undefined,
      eventType: undefined,
      eventObjectType: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      // An input only (not an output of the resource): left out when not given.
      ...(args.connection === undefined ? {} : { connection: pulumi.secret(args.connection) }),
    };
    super(
      "httpNotificationTemplate",
      "HttpNotificationTemplate",
      name,
      props,
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["signSecret", "connection"] }),
    );
  }
}
