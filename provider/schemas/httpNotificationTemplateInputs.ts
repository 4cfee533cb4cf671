/** The inputs of an HttpNotificationTemplate, as check validates them. */
import { z } from "zod";
import { HttpMethod, SecureHashingAlgo } from "../../sdk/contract/platform";
import { ConnectionInput } from "./connection";
import { TEMPLATE_EVENTS, type TemplateEvent } from "./templateEvents";

export { TEMPLATE_EVENTS, type TemplateEvent };
const eventNames = Object.keys(TEMPLATE_EVENTS) as [TemplateEvent, ...TemplateEvent[]];

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** https only, except loopback addresses (for local testing against the emulator). */
export const WebhookUrl = z.url().refine(
  (value) => {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && (LOOPBACK.has(url.hostname) || url.hostname.startsWith("127.")));
  },
  { message: "expected an https:// URL (plain http is allowed only for loopback addresses such as http://127.0.0.1)" },
);

export const HttpNotificationTemplateInputs = {
  /** The system template to clone, by id ... */
  systemTemplateId: z.string().min(1).optional(),
  /** ... or by its system name (e.g. HTTP_ENTRY_ADDED) ... */
  systemTemplateName: z.string().min(1).optional(),
  /** ... or by the event it reacts to. Exactly one of the three. */
  event: z.enum(eventNames).optional(),
  name: z.string().min(3, "expected a name of at least 3 characters"),
  /** Machine name, unique among the account's templates. */
  systemName: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "expected letters, digits, _ . or -").optional(),
  description: z.string().default(""),
  url: WebhookUrl,
  method: z.enum(Object.keys(HttpMethod) as [keyof typeof HttpMethod, ...(keyof typeof HttpMethod)[]]).default("POST"),
  /** The signing secret of deliveries (X-SVC-SIGNATURE). A Pulumi secret; compared with state, never read back. */
  signSecret: z.string().min(16, "expected a signing secret of at least 16 characters"),
  secureHashingAlgo: z
    .enum(Object.keys(SecureHashingAlgo) as [keyof typeof SecureHashingAlgo, ...(keyof typeof SecureHashingAlgo)[]])
    .default("SHA256"),
  /** false keeps the template disabled. */
  active: z.boolean().default(true),
  /** Adopt an existing template of the account by id instead of cloning (verified and read, never duplicated). */
  adoptId: z.string().min(1).optional(),
  connection: ConnectionInput.optional(),
} satisfies Record<string, z.ZodType>;

const all = z.object(HttpNotificationTemplateInputs);
export type HttpNotificationTemplateInputs = z.output<typeof all>;

/** Fields updated in place (update, updateStatus); the template source replaces. */
export const TEMPLATE_IN_PLACE = ["name", "systemName", "description", "url", "method", "signSecret", "secureHashingAlgo", "active"] as const;
export const TEMPLATE_REPLACES = ["systemTemplateId", "systemTemplateName", "event", "adoptId"] as const;
