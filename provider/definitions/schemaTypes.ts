/**
 * The named types of the package schema (`svc:index:<name>`): the enums and the objects that the definitions' fields
 * name with `typeName`. A generated SDK types a field with its named type: `svc.HashType.SHA256` in Python and Go, a
 * union of the values in TypeScript, a class per object, so a typo in an enum value fails where the language checks
 * it (compiling, or `pulumi preview`).
 */
import { z } from "zod";
import { ContentParameter, EMAIL_LIMITS, EmailFormat, EmailPriority, EmailRecipient } from "../../contract/emailTemplates";
import { HashType, HttpMethod, SecureHashingAlgo } from "../../contract/platform";

const names = <T extends Record<string, unknown>>(table: T) => Object.keys(table) as [keyof T & string, ...(keyof T & string)[]];

export const SessionTypeName = z.enum(["USER", "ADMIN"]);
export type SessionTypeName = z.infer<typeof SessionTypeName>;
export const HttpMethodName = z.enum(names(HttpMethod));
export const SecureHashingAlgoName = z.enum(names(SecureHashingAlgo));
export const EmailFormatName = z.enum(names(EmailFormat));
export const EmailPriorityName = z.enum(names(EmailPriority));
/** The two kinds of notification template, as the functions name them. */
export const TemplateKind = z.enum(["HTTP", "EMAIL"]);
export type TemplateKind = z.infer<typeof TemplateKind>;

/** A recipient as a program writes it (the wire's recipient objects without their objectType). */
export const Recipient = EmailRecipient.omit({ objectType: true });
export const Parameter = ContentParameter.omit({ objectType: true });
export { EMAIL_LIMITS };

/** A property of an object type the definitions write out (results of functions, which have no zod input schema). */
export interface ObjectProperty {
  type: "string" | "integer" | "boolean";
  typeName?: SchemaTypeName;
  description: string;
  optional?: boolean;
  secret?: boolean;
}

export type SchemaType =
  | { kind: "enum"; description: string; schema: z.ZodEnum }
  | { kind: "object"; description: string; schema: z.ZodObject; fields: Record<string, string> }
  | { kind: "object"; description: string; properties: Record<string, ObjectProperty> };

export type SchemaTypeName =
  | "HashType"
  | "SessionType"
  | "HttpMethod"
  | "SecureHashingAlgo"
  | "EmailFormat"
  | "EmailPriority"
  | "TemplateKind"
  | "EmailRecipient"
  | "ContentParameter"
  | "AppTokenSummary"
  | "SystemTemplate";

export const SCHEMA_TYPES: Record<SchemaTypeName, SchemaType> = {
  HashType: { kind: "enum", schema: HashType, description: "The hash an app token's sessions are signed with." },
  SessionType: { kind: "enum", schema: SessionTypeName, description: "The type of the sessions an app token starts: USER or ADMIN." },
  HttpMethod: { kind: "enum", schema: HttpMethodName, description: "The HTTP method of a webhook's deliveries." },
  SecureHashingAlgo: { kind: "enum", schema: SecureHashingAlgoName, description: "The hash of a webhook delivery's signature (X-SVC-SIGNATURE)." },
  EmailFormat: { kind: "enum", schema: EmailFormatName, description: "The format of an email's body: TEXT or HTML." },
  EmailPriority: { kind: "enum", schema: EmailPriorityName, description: "An email's priority (the X-Priority header)." },
  TemplateKind: { kind: "enum", schema: TemplateKind, description: "The kind of a notification template: HTTP (a webhook) or EMAIL." },
  EmailRecipient: {
    kind: "object",
    schema: Recipient,
    description: "A recipient of an email: its address and, optionally, a display name.",
    fields: { email: "The address.", name: "The display name (one line)." },
  },
  ContentParameter: {
    kind: "object",
    schema: Parameter,
    description: "What `{key}` in an email's subject and body becomes: a text with placeholders filled from the event.",
    fields: {
      key: "The key `{key}` stands for: letters, digits and _, starting with a letter.",
      value: "The text, with `{entry.<field>}`, `{object.<field>}` or `{template.<id|name|systemName>}` placeholders filled from the event.",
      description: "What the parameter is for.",
    },
  },
  AppTokenSummary: {
    kind: "object",
    description: "An app token as a list shows it: its fields, never its value.",
    properties: {
      tokenId: { type: "string", description: "The token's id." },
      description: { type: "string", description: "What the token is for." },
      hashType: { type: "string", typeName: "HashType", description: "The hash its sessions are signed with." },
      sessionType: { type: "string", typeName: "SessionType", description: "USER or ADMIN." },
      sessionDuration: { type: "integer", description: "Lifetime of its sessions, in seconds; 0 is the account default." },
      sessionPrivileges: { type: "string", description: "Privileges of its sessions." },
      status: { type: "integer", description: "1 disabled, 2 active." },
      expiry: { type: "integer", description: "Unix time it expires; 0 is never." },
      createdAt: { type: "integer", description: "Creation time, unix seconds." },
    },
  },
  SystemTemplate: {
    kind: "object",
    description: "A system template of the platform's catalog: what a template is cloned from.",
    properties: {
      templateId: { type: "string", description: "The system template's id (differs between accounts)." },
      kind: { type: "string", typeName: "TemplateKind", description: "HTTP or EMAIL." },
      name: { type: "string", description: "Its name." },
      systemName: { type: "string", optional: true, description: "Its system name (the same in every account)." },
      event: { type: "string", optional: true, description: "The catalog event it reacts to, such as entry.ready, when it is one." },
      eventType: { type: "string", description: "The platform's event type." },
      eventObjectType: { type: "string", description: "The platform's object type." },
    },
  },
};

/** The values of an enum type. */
export function enumValues(name: SchemaTypeName): string[] {
  const type = SCHEMA_TYPES[name];
  if (type.kind !== "enum") throw new Error(`${name} is not an enum type`);
  return type.schema.options as string[];
}
