/**
 * What the two kinds of event notification template (HTTP, email) share in their definitions: the inputs and outputs
 * every template has, the state around each kind's own fields, and the operations. Create clones the chosen system
 * template (with recovery), finishes the clone (the kind's steps, then activation) and, when finishing fails, removes
 * the clone or records it as a partial failure; read, update, delete, list and adoption are alike. Each definition
 * brings its own fields and the few steps that differ (`TemplateKindParts`); templateSelection.ts chooses the source.
 */
import { z } from "zod";
import { EVENT_KEYS, type EventKey } from "../../contract/events";
import { type EventNotificationTemplate, TemplateStatus } from "../../contract/platform";
import type { SvcClient } from "../../sdk";
import type { EventNotificationTemplates } from "../../sdk/platform/eventNotificationTemplates";
import type { TemplateTypes } from "../../sdk/platform/templateKinds";
import { accountScope } from "../core/accountScope";
import type { ConnectionInput } from "../core/connectionInput";
import { plain } from "../core/diff";
import { PartialCreateError, ProviderError, unlessGone } from "../core/errors";
import { createWithRecovery } from "../core/recovery";
import { CONNECTION_FIELD, type Created, type InputField, type OutputField, type ResourceDefinition } from "./define";
import {
  SYSTEM_TEMPLATE_ID_DEPRECATION,
  carriedForRead,
  checkSelectors,
  chooseSource,
  eventOf,
  interruptedClone,
  keepsSystemName,
  messageOf,
} from "./templateSelection";

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
  });
}

/** The checked inputs every template has. */
interface TemplateInputsBase extends CarriedSelection {
  name: string;
  systemName?: string | undefined;
  description: string;
  active: boolean;
}

/** What every kind's clone sends: its names (how a lost clone is found) and the kind's fields. */
interface CloneBasics {
  name: string;
  systemName?: string | undefined;
  description?: string | undefined;
}

type Template<W extends TemplateTypes> = W["template"] & TemplateRecord;
type Api<W extends TemplateTypes> = EventNotificationTemplates<W>;

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

type TemplateDefinitionParts<Inputs extends Record<string, unknown>, State extends Record<string, unknown>> = Required<
  Pick<ResourceDefinition<Inputs, State>, "idDescription" | "validate" | "deleteBeforeReplace" | "create" | "read" | "update" | "delete" | "list">
>;

/** What every template definition has (its id, its rules, its operations), from its kind's parts. */
export function templateDefinition<W extends TemplateTypes, Inputs extends TemplateInputsBase & Record<string, unknown>, State extends Record<string, unknown>>(
  parts: TemplateKindParts<W, Inputs, State>,
): TemplateDefinitionParts<Inputs, State> {
  const { what, kindName } = parts.texts;
  return {
    idDescription: "the template's id",

    validate(checked, olds, failures) {
      checkSelectors(checked, failures, kindName);
      parts.validate?.(checked, olds, failures);
    },

    deleteBeforeReplace: keepsSystemName,

    async create(ctx, inputs) {
      const { client, signal } = ctx;
      const api = parts.api(client);
      const { objects } = await api.listTemplates(parts.listFilter, { pageSize: 500 }, { signal });
      const source = chooseSource(objects as Template<W>[], inputs, kindName);
      const creating: TemplateCreate<W, Inputs, State> = { parts, api, inputs, sourceId: source.id, signal };
      if (typeof inputs.adoptId === "string") return adopt(creating, inputs.adoptId);

      const fields = parts.cloneFields(inputs);
      const clone = await createWithRecovery<Template<W>>(ctx, {
        what,
        fingerprint: `${accountScope(client)} ${what} ${fields.systemName ?? JSON.stringify([fields.name, contentOf(parts.contentField, fields), fields.description])}`,
        create: () => api.clone(source.id, fields, { signal }) as Promise<Template<W>>,
        find: (since, lookupSignal) => findCloned(parts, api, fields, since, lookupSignal),
        idOf: (t) => t.id,
        propertiesOf: (t) => parts.state(t, inputs, source.id),
      });
      return finishClone(creating, clone);
    },

    async read({ client, signal }, id, state) {
      const template = await parts.get(parts.api(client), id, signal);
      if (!template || template.status === TemplateStatus.DELETED) return undefined;
      // An import reads with no state: the event the template reacts to stands for the system template it came from.
      return parts.state(template, carriedForRead(state, template) as Partial<Inputs>, state.sourceTemplateId as string | undefined);
    },

    async update({ client, signal }, id, olds, news, changed) {
      const api = parts.api(client);
      let template = changed.some((key) => key !== "active") ? await api.update(id, parts.updateFields(news), { signal }) : await api.get(id, { signal });
      if (changed.includes("active")) {
        template = await api.updateStatus(id, news.active === false ? TemplateStatus.DISABLED : TemplateStatus.ACTIVE, { signal });
      }
      return parts.state(template as Template<W>, news, olds.sourceTemplateId as string | undefined);
    },

    async delete({ client, signal }, id) {
      const api = parts.api(client);
      await unlessGone(() => api.delete(id, { signal }));
    },

    async list({ client, signal }) {
      const templates = (await parts.api(client).iterate(parts.listFilter, { signal, pageSize: 500 }).toArray()) as Template<W>[];
      return templates
        .filter((t) => t.status !== TemplateStatus.DELETED && t.partnerId !== 0)
        .map((t) => {
          const outs = parts.state(t, { event: eventOf(t) } as Partial<Inputs>, undefined);
          return { id: t.id, name: t.systemName || t.name, inputs: outs };
        });
    },
  };
}

const contentOf = (field: string, object: object): unknown => (object as Record<string, unknown>)[field];

/** One create of a template: the kind's parts and client, the checked inputs, the source template, the signal. */
interface TemplateCreate<W extends TemplateTypes, Inputs extends TemplateInputsBase, State extends Record<string, unknown>> {
  parts: TemplateKindParts<W, Inputs, State>;
  api: Api<W>;
  inputs: Inputs;
  sourceId: string;
  signal: AbortSignal;
}

/**
 * Brings a fresh clone to the declared state: the kind's steps, then activation (unless declared inactive). On
 * failure the clone is removed, or recorded as a partial failure when even that fails.
 */
async function finishClone<W extends TemplateTypes, I extends TemplateInputsBase, S extends Record<string, unknown>>(
  { parts, api, inputs, sourceId, signal }: TemplateCreate<W, I, S>,
  clone: Template<W>,
): Promise<Created<S>> {
  const { what } = parts.texts;
  const What = capitalized(what);
  let template = clone;
  try {
    if (parts.prepareClone) template = await parts.prepareClone(api, clone, inputs, signal);
    if (inputs.active !== false) template = (await api.updateStatus(clone.id, TemplateStatus.ACTIVE, { signal })) as Template<W>;
    return { id: clone.id, outs: parts.state(template, inputs, sourceId) };
  } catch (finishError) {
    const why = messageOf(finishError);
    // Interrupted (Cancel or the deadline): the engine still takes the answer, so the clone is reported, not deleted.
    if (signal.aborted) throw interruptedClone(What, clone.id, why, parts.state(template, inputs, sourceId));
    try {
      await api.delete(clone.id, { signal });
    } catch (cleanupError) {
      // Could not remove it: hand the engine the id so the clone is recorded (and deleted by the next destroy).
      throw new PartialCreateError(
        `${What} ${clone.id} was cloned but ${parts.finishing} it failed (${why}), and deleting the clone failed too (${messageOf(cleanupError)}); it is recorded in the stack as inactive`,
        clone.id,
        parts.state(template, inputs, sourceId),
      );
    }
    throw new ProviderError(`${capitalized(parts.finishing)} ${what} ${clone.id} failed (${why}); the clone was deleted, so nothing is left behind`);
  }
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Templates a lost clone may have made, created since `sinceSec` (platform clock): by systemName when given (unique in
 * the account, filtered on the server), else by name, the kind's content field and description. Deleted templates
 * and system templates (partner 0) are never candidates.
 */
async function findCloned<W extends TemplateTypes>(
  { listFilter, contentField }: { listFilter: W["filter"]; contentField: string },
  api: Api<W>,
  fields: CloneBasics,
  sinceSec: number,
  signal: AbortSignal,
): Promise<Template<W>[]> {
  const filter = fields.systemName ? { ...listFilter, systemNameEqual: fields.systemName } : listFilter;
  const candidates = (await api.iterate(filter, { signal, pageSize: 500 }).toArray()) as Template<W>[];
  return candidates.filter(
    (t) =>
      t.status !== TemplateStatus.DELETED &&
      t.partnerId !== 0 &&
      t.createdAt >= sinceSec &&
      (fields.systemName
        ? t.systemName === fields.systemName
        : t.name === fields.name && contentOf(contentField, t) === contentOf(contentField, fields) && (t.description ?? "") === (fields.description ?? "")),
  );
}

/** Adopt an existing template: verified and read, never duplicated; its fields converge to the inputs. */
async function adopt<W extends TemplateTypes, I extends TemplateInputsBase, S extends Record<string, unknown>>(
  { parts, api, inputs, sourceId, signal }: TemplateCreate<W, I, S>,
  id: string,
): Promise<Created<S>> {
  const found = await parts.get(api, id, signal);
  if (!found || found.status === TemplateStatus.DELETED) throw new ProviderError(`adoptId: ${parts.texts.what} ${id} was not found; nothing was created`);
  const refusal = parts.refuseAdoption(found, id);
  if (refusal !== undefined) throw new ProviderError(refusal);
  // What cannot be read back (a webhook's write-once secret) is sent too: an adopted template takes the declared values.
  let template = (await api.update(id, parts.updateFields(inputs), { signal })) as Template<W>;
  const status = inputs.active === false ? TemplateStatus.DISABLED : TemplateStatus.ACTIVE;
  if (template.status !== status) template = (await api.updateStatus(id, status, { signal })) as Template<W>;
  return { id, outs: parts.state(template, inputs, sourceId) };
}
