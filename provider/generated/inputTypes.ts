// Generated from the resource definitions by `npm run generate`: do not edit.
/** The named object types of the resources' inputs, as a program writes them: each field a pulumi.Input. */
import type * as pulumi from "@pulumi/pulumi";

/** A EmailRecipient of the package schema (provider/definitions/schemaTypes.ts). */
export type EmailRecipientArgs = {
  /** The address. */
  email: pulumi.Input<string>;
  /** The display name (one line). */
  name?: pulumi.Input<string | undefined>;
};

/** A ContentParameter of the package schema (provider/definitions/schemaTypes.ts). */
export type ContentParameterArgs = {
  /** The key `{key}` stands for: letters, digits and _, starting with a letter. */
  key: pulumi.Input<string>;
  /** What the parameter is for. */
  description?: pulumi.Input<string | undefined>;
  /** The text, with `{entry.<field>}`, `{object.<field>}` or `{template.<id|name|systemName>}` placeholders filled from the event. */
  value: pulumi.Input<string>;
};
