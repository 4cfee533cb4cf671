/** The inputs of an HttpNotificationTemplate, as check validates them. */
import { z } from "zod";
import { EVENT_KEYS, EVENTS, type EventKey } from "../../contract/events";
import { HttpMethod, SecureHashingAlgo, WebhookUrl as ContractWebhookUrl } from "../../contract/platform";
import { ConnectionInput } from "./connection";

/** Friendly event names (the contract's catalog), matched against the system templates' eventType and eventObjectType. */
export const TEMPLATE_EVENTS = EVENTS;
export type TemplateEvent = EventKey;

/** https only, except loopback addresses (for local testing against the emulator): the contract's rule. */
export const WebhookUrl = ContractWebhookUrl;

const names = <T extends Record<string, unknown>>(table: T) => Object.keys(table) as [keyof T & string, ...(keyof T & string)[]];

export const HttpNotificationTemplateInputs = {
  /** The system template to clone, by id ... */
  systemTemplateId: z.string().min(1).optional(),
  /** ... or by its system name (e.g. HTTP_ENTRY_ADDED) ... */
  systemTemplateName: z.string().min(1).optional(),
  /** ... or by the event it reacts to. Exactly one of the three. */
  event: z.enum(EVENT_KEYS).optional(),
  name: z.string().min(3, "expected a name of at least 3 characters"),
  /** Machine name, unique among the account's templates. */
  systemName: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, "expected letters, digits, _ . or -")
    .optional(),
  description: z.string().default(""),
  url: WebhookUrl,
  method: z.enum(names(HttpMethod)).default("POST"),
  /** The signing secret of deliveries (X-SVC-SIGNATURE). A Pulumi secret; compared with state, never read back. */
  signSecret: z.string().min(16, "expected a signing secret of at least 16 characters"),
  secureHashingAlgo: z.enum(names(SecureHashingAlgo)).default("SHA256"),
  /** false keeps the template disabled. */
  active: z.boolean().default(true),
  /** Adopt an existing template of the account by id instead of cloning (verified and read, never duplicated). */
  adoptId: z.string().min(1).optional(),
  connection: ConnectionInput.optional(),
} satisfies Record<string, z.ZodType>;

const all = z.object(HttpNotificationTemplateInputs);
/** The checked inputs (defaults filled in): what create and update receive. */
export type HttpNotificationTemplateInputs = z.output<typeof all>;
/** What a program may pass (before defaults): the resource's Args are derived from it. */
export type HttpNotificationTemplateProgramInputs = z.input<typeof all>;

/** Fields updated in place (update, updateStatus); the template source replaces. */
export const TEMPLATE_IN_PLACE = ["name", "systemName", "description", "url", "method", "signSecret", "secureHashingAlgo", "active"] as const;
export const TEMPLATE_REPLACES = ["systemTemplateId", "systemTemplateName", "event", "adoptId"] as const;
