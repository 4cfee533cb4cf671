/**
 * What the two kinds of event notification template (HTTP, email) share in their definitions' fields: the inputs and
 * outputs every template has, the state around each kind's own fields, and the parts each kind brings to the shared
 * operations (`TemplateKindParts`). The operations are in templateOperations.ts, the steps of a create that can go
 * wrong (finishing a clone, finding a lost one, adoption) in templateCreation.ts.
 */
import { z } from "zod";
import { EVENT_KEYS, type EventKey } from "../../contract/events";
import { type EventNotificationTemplate, TemplateStatus } from "../../contract/platform";
import type { SvcClient } from "../../sdk";
import type { EventNotificationTemplates } from "../../sdk/platform/eventNotificationTemplates";
import type { TemplateTypes } from "../../sdk/platform/templateKinds";
import type { ConnectionInput } from "../core/connectionInput";
import { plain } from "../core/diff";
import { ACCOUNT_FIELD, CONNECTION_FIELD, type Grammar, type InputField, type OutputField, type ResourceDefinition } from "./define";
import { SYSTEM_TEMPLATE_ID_DEPRECATION } from "./templateSelection";

/** The words and examples in which the two kinds' shared fields differ. */
export interface TemplateTexts {
  /** What a template of the kind is called: "template", "email template". */
  what: string;
  /** How messages about the source name the kind: "HTTP", "email". */
  kindName: string;
  /** What a disabled template does not do, after "false keeps the template disabled". */
  disabledMeans: string;
  examples: { systemTemplateId: string; systemTemplateName: string; name: string; systemName: string; description: string; eventType: string };
}

/** A template's id: the platform numbers templates (system ones 1001, 201; an account's 2001 and up). */
/** A listed template is disabled when its status is (its state also says `active: false`). */
export const templateDisabled = (listed: Record<string, unknown>): boolean => listed.status === TemplateStatus.DISABLED || listed.active === false;

export const TEMPLATE_ID: Grammar = { pattern: /^[1-9][0-9]*$/, max: 19, expected: "a template id (a decimal number like 2001)" };

const EXACTLY_ONE = "Exactly one of systemTemplateId, systemTemplateName or event.";

/** The inputs every template has (the source, its names, active, adoptId, connection) around the kind's own. */
export function templateInputFields<Own extends Record<string, InputField>>(texts: TemplateTexts, own: Own) {
  const source = `system ${texts.what}`;
  return {
    systemTemplateId: {
      schema: z.string().min(1).optional(),
      change: "replace",
      description: `The ${source} to clone, by id. ${EXACTLY_ONE}`,
      example: texts.examples.systemTemplateId,
      deprecationMessage: SYSTEM_TEMPLATE_ID_DEPRECATION,
    },
    systemTemplateName: {
      schema: z.string().min(1).optional(),
      change: "replace",
      description: `The ${source} to clone, by its system name. ${EXACTLY_ONE}`,
      example: texts.examples.systemTemplateName,
    },
    event: {
      schema: z.enum(EVENT_KEYS).optional(),
      change: "replace",
      description: `The ${source} to clone, by the event it reacts to (${EVENT_KEYS.join(", ")}). ${EXACTLY_ONE}`,
      example: "entry.ready",
    },
    name: {
      schema: z.string().min(3, "expected a name of at least 3 characters"),
      change: "inPlace",
      description: "The template's name (at least 3 characters).",
      example: texts.examples.name,
    },
    systemName: {
      schema: z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,100}$/, "expected letters, digits, _ . or -")
        .optional(),
      change: "inPlace",
      description: "Machine name, unique among the account's active templates.",
      example: texts.examples.systemName,
    },
    description: { schema: z.string().default(""), change: "inPlace", description: "What the template is for.", example: texts.examples.description },
    ...own,
    active: { schema: z.boolean().default(true), change: "inPlace", description: `false keeps the template disabled${texts.disabledMeans}.`, example: true },
    adoptId: {
      schema: z.string().min(1).optional(),
      change: "replace",
      description: `Adopt an existing ${texts.what} of the account by id instead of cloning (verified and read, never duplicated).`,
      example: "2001",
    },
    connection: CONNECTION_FIELD,
    account: ACCOUNT_FIELD,
  } as const;
}

/** The outputs every template has: the server's own fields. */
export function templateOutputFields(texts: TemplateTexts) {
  return {
    templateId: { type: "string", description: "The platform's id of the template (also the resource id).", example: "2001" },
    partnerId: { type: "integer", description: "The account (partner) the template belongs to.", example: 101 },
    sourceTemplateId: {
      type: "string",
      optional: true,
      description: "The id of the system template it was cloned from (unknown after an import).",
      example: texts.examples.systemTemplateId,
    },
    status: { type: "integer", description: "1 disabled, 2 active, 3 deleted.", example: 2 },
    eventType: { type: "string", description: "The platform's event type the template reacts to.", example: texts.examples.eventType },
    eventObjectType: { type: "string", description: "The platform's object type the template reacts to.", example: "1" },
    createdAt: { type: "integer", description: "Creation time, unix seconds.", example: 1795000000 },
    updatedAt: { type: "integer", description: "Time of the last change, unix seconds.", example: 1795000000 },
  } as const satisfies Record<string, OutputField>;
}

/** The fields of a template record both kinds have. */
export type TemplateRecord = Pick<
  EventNotificationTemplate,
  "id" | "partnerId" | "type" | "name" | "systemName" | "description" | "status" | "eventType" | "eventObjectType" | "createdAt" | "updatedAt"
>;

/** The inputs a template's state carries from the program (the server does not have them). */
export interface CarriedSelection {
  systemTemplateId?: string | undefined;
  systemTemplateName?: string | undefined;
  event?: EventKey | undefined;
  adoptId?: string | undefined;
  connection?: ConnectionInput | undefined;
  account?: string | undefined;
}

/** A template's state: the server's record, the carried inputs, and the kind's own fields (`own`) in between. */
export function templateState<Own extends Record<string, unknown>>(
  template: TemplateRecord,
  carried: CarriedSelection,
  sourceTemplateId: string | undefined,
  own: Own,
) {
  return plain({
    templateId: template.id,
    partnerId: template.partnerId,
    sourceTemplateId,
    systemTemplateId: carried.systemTemplateId,
    systemTemplateName: carried.systemTemplateName,
    event: carried.event,
    name: template.name,
    systemName: template.systemName,
    description: template.description ?? "",
    ...own,
    active: template.status === TemplateStatus.ACTIVE,
    status: template.status,
    eventType: template.eventType,
    eventObjectType: template.eventObjectType,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
    adoptId: carried.adoptId,
    connection: carried.connection,
    account: carried.account,
  });
}

/** The checked inputs every template has. */
export interface TemplateInputsBase extends CarriedSelection {
  name: string;
  systemName?: string | undefined;
  description: string;
  active: boolean;
}

/** What every kind's clone sends: its names (how a lost clone is found) and the kind's fields. */
export interface CloneBasics {
  name: string;
  systemName?: string | undefined;
  description?: string | undefined;
}

export type Template<W extends TemplateTypes> = W["template"] & TemplateRecord;
export type Api<W extends TemplateTypes> = EventNotificationTemplates<W>;

/** What is a kind's own in the operations of its definition. */
export interface TemplateKindParts<W extends TemplateTypes, Inputs extends TemplateInputsBase, State extends Record<string, unknown>> {
  texts: TemplateTexts;
  /** The kind's client of the template service (`client.templates`, `client.emailTemplates`). */
  api(client: SvcClient): Api<W>;
  /** The filter every list of the kind starts from. */
  listFilter: W["filter"];
  /** Besides name and description, the field that tells a lost clone apart when it has no systemName. */
  contentField: "url" | "subject";
  /** The steps after the clone, as messages name them: "activating", "finishing". */
  finishing: string;
  cloneFields(inputs: Inputs): W["clone"] & CloneBasics;
  updateFields(inputs: Inputs): W["update"];
  /** The state of a template (the kind's output mapper). */
  state(template: Template<W>, carried: Partial<Inputs>, sourceTemplateId: string | undefined): State;
  /** The template of this id; undefined when gone (read, adopt). */
  get(api: Api<W>, id: string, signal: AbortSignal): Promise<Template<W> | undefined>;
  /** Why a found template cannot be adopted as one of this kind; undefined when it can. */
  refuseAdoption(found: Template<W>, id: string): string | undefined;
  /** What a fresh clone needs before its activation (the email kind clears what it inherited). */
  prepareClone?(api: Api<W>, clone: Template<W>, inputs: Inputs, signal: AbortSignal): Promise<Template<W>>;
  /** The kind's rules across fields, after the source selectors are checked. */
  validate?: ResourceDefinition["validate"];
}
