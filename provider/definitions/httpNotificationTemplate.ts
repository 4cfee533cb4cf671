/**
 * HttpNotificationTemplate: a webhook. Clone a system template (chosen by id, system name or event), then activate
 * it. In-place fields update in place (update, updateStatus); a different source template replaces, deleting first
 * when the systemName must stay unique. A failed activation removes the clone, or, if even that fails, records it as
 * a partial failure.
 */
import { z } from "zod";
import type { SvcClient } from "../../sdk";
import { EVENT_KEYS, EVENTS, type EventKey } from "../../contract/events";
import { type EventNotificationTemplate, HttpMethod, SecureHashingAlgo, TemplateStatus, TemplateType, WebhookUrl } from "../../contract/platform";
import { plain } from "../core/diff";
import { PartialCreateError, ProviderError, unlessGone } from "../core/errors";
import { accountScope } from "../core/accountScope";
import { createWithRecovery } from "../core/recovery";
import { CONNECTION_FIELD, defineResource, inputsSchema } from "./define";
import { HttpMethodName, SecureHashingAlgoName } from "./schemaTypes";
import {
  SYSTEM_TEMPLATE_ID_DEPRECATION,
  carriedForRead,
  checkSelectors,
  chooseSource,
  eventOf,
  interruptedClone,
  keepsSystemName,
  messageOf,
  nameOf,
} from "./templateSelection";

/** Friendly event names (the contract's catalog), matched against the system templates' eventType and eventObjectType. */
export const TEMPLATE_EVENTS = EVENTS;
export type TemplateEvent = EventKey;

const inputs = {
  systemTemplateId: {
    schema: z.string().min(1).optional(),
    change: "replace",
    description: "The system template to clone, by id. Exactly one of systemTemplateId, systemTemplateName or event.",
    example: "1001",
    deprecationMessage: SYSTEM_TEMPLATE_ID_DEPRECATION,
  },
  systemTemplateName: {
    schema: z.string().min(1).optional(),
    change: "replace",
    description: "The system template to clone, by its system name. Exactly one of systemTemplateId, systemTemplateName or event.",
    example: "HTTP_ENTRY_READY",
  },
  event: {
    schema: z.enum(EVENT_KEYS).optional(),
    change: "replace",
    description: `The system template to clone, by the event it reacts to (${EVENT_KEYS.join(", ")}). Exactly one of systemTemplateId, systemTemplateName or event.`,
    example: "entry.ready",
  },
  name: {
    schema: z.string().min(3, "expected a name of at least 3 characters"),
    change: "inPlace",
    description: "The template's name (at least 3 characters).",
    example: "Entry ready -> publishing",
  },
  systemName: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, "expected letters, digits, _ . or -")
      .optional(),
    change: "inPlace",
    description: "Machine name, unique among the account's active templates.",
    example: "PUBLISHING_ENTRY_READY",
  },
  description: { schema: z.string().default(""), change: "inPlace", description: "What the template is for.", example: "Tells publishing an entry is ready" },
  url: {
    schema: WebhookUrl,
    change: "inPlace",
    description: "Where deliveries are sent: https, or http to a loopback address for local testing.",
    example: "https://publishing.example.com/hooks/entry-ready",
  },
  method: { schema: HttpMethodName.default("POST"), typeName: "HttpMethod", change: "inPlace", description: "The HTTP method of deliveries.", example: "POST" },
  signSecret: {
    // Required on create (validate, below); absent only after `pulumi import`, which cannot read it back.
    schema: z.string().min(16, "expected a signing secret of at least 16 characters").optional(),
    requiredOnCreate: true,
    change: "inPlace",
    secret: true,
    description:
      "The signing secret of deliveries (X-SVC-SIGNATURE), at least 16 characters; a secret. Write-once on the platform: compared with the state, never read back.",
    example: "a-long-random-signing-secret",
  },
  secureHashingAlgo: {
    schema: SecureHashingAlgoName.default("SHA256"),
    typeName: "SecureHashingAlgo",
    change: "inPlace",
    description: "The hash of the delivery signature: SHA1, SHA256 or SHA512.",
    example: "SHA256",
  },
  active: { schema: z.boolean().default(true), change: "inPlace", description: "false keeps the template disabled.", example: true },
  adoptId: {
    schema: z.string().min(1).optional(),
    change: "replace",
    description: "Adopt an existing template of the account by id instead of cloning (verified and read, never duplicated).",
    example: "2001",
  },
  connection: CONNECTION_FIELD,
} as const;

const all = inputsSchema(inputs);
/** The checked inputs (defaults filled in): what create and update receive. */
export type HttpNotificationTemplateInputs = z.output<typeof all>;
/** What a program may pass (before defaults): the resource's Args are derived from it. */
export type HttpNotificationTemplateProgramInputs = z.input<typeof all>;

/** The input-only fields the outputs carry through from the inputs. */
type CarriedInputs = Pick<HttpNotificationTemplateInputs, "systemTemplateId" | "systemTemplateName" | "event" | "signSecret" | "adoptId" | "connection">;

/** Outputs: the server's record, with the write-once signSecret kept from the inputs (never read back). */
export function templateOutputs(template: EventNotificationTemplate, carried: CarriedInputs, sourceTemplateId: string | undefined) {
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
    url: template.url,
    method: nameOf(HttpMethod, template.method),
    signSecret: carried.signSecret,
    secureHashingAlgo: nameOf(SecureHashingAlgo, template.secureHashingAlgo),
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
export type TemplateOutputs = ReturnType<typeof templateOutputs>;

export const httpNotificationTemplate = defineResource<HttpNotificationTemplateInputs, TemplateOutputs>({
  type: "HttpNotificationTemplate",
  kind: "httpNotificationTemplate",
  description:
    "A webhook: an HTTP event notification template, cloned from a system template (chosen by id, system name or event) " +
    "with your url and signing secret, then activated. Updatable fields update in place; a different source template " +
    "replaces (deleting first when the systemName stays the same, as it must be unique). `signSecret` is a secret.",
  example: `const webhook = new svc.HttpNotificationTemplate("entry-ready", {
  event: "entry.ready",
  name: "Entry ready -> publishing",
  systemName: "PUBLISHING_ENTRY_READY",
  url: "https://publishing.example.com/hooks/entry-ready",
  signSecret: config.requireSecret("webhookSigningSecret"),
});`,
  idDescription: "the template's id",
  inputs,
  outputs: {
    templateId: { type: "string", description: "The platform's id of the template (also the resource id).", example: "2001" },
    partnerId: { type: "integer", description: "The account (partner) the template belongs to.", example: 101 },
    sourceTemplateId: {
      type: "string",
      optional: true,
      description: "The id of the system template it was cloned from (unknown after an import).",
      example: "1001",
    },
    status: { type: "integer", description: "1 disabled, 2 active, 3 deleted.", example: 2 },
    eventType: { type: "string", description: "The platform's event type the template reacts to.", example: "3" },
    eventObjectType: { type: "string", description: "The platform's object type the template reacts to.", example: "1" },
    createdAt: { type: "integer", description: "Creation time, unix seconds.", example: 1795000000 },
    updatedAt: { type: "integer", description: "Time of the last change, unix seconds.", example: 1795000000 },
  },

  validate(checked, olds, failures) {
    checkSelectors(checked, failures, "HTTP");
    // A new template needs its signing secret. Only an imported one (whose previous inputs, read from the server,
    // have none: the platform never returns it) may go without, until the program declares one.
    const creating = Object.keys(olds).length === 0;
    if (checked.signSecret === undefined && (creating || olds.signSecret !== undefined) && !failures.some((f) => f.reason.startsWith("signSecret"))) {
      failures.push({ property: "", reason: "signSecret: expected a signing secret of at least 16 characters (required)" });
    }
  },

  deleteBeforeReplace: keepsSystemName,

  async create(ctx, inputs) {
    const { client, signal } = ctx;
    const source = await resolveSource(client, inputs, signal);
    if (typeof inputs.adoptId === "string") return adopt(client, inputs.adoptId, inputs, source.id, signal);

    const fields = cloneFields(inputs);
    const clone = await createWithRecovery<EventNotificationTemplate>(ctx, {
      what: "template",
      fingerprint: `${accountScope(client)} template ${fields.systemName ?? JSON.stringify([fields.name, fields.url, fields.description])}`,
      create: () => client.templates.clone(source.id, fields, { signal }),
      find: (since, lookupSignal) => findCloned(client, fields, since, lookupSignal),
      idOf: (t) => t.id,
      propertiesOf: (t) => templateOutputs(t, inputs, source.id),
    });
    if (inputs.active === false) return { id: clone.id, outs: templateOutputs(clone, inputs, source.id) };
    return activateClone(client, clone, inputs, source.id, signal);
  },

  async read({ client, signal }, id, state) {
    const template = await unlessGone(() => client.templates.get(id, { signal }));
    if (!template || template.status === TemplateStatus.DELETED) return undefined;
    // An import reads with no state: the event the template reacts to stands for the system template it came from.
    const carried = carriedForRead(state, template);
    return templateOutputs(template, carried, state.sourceTemplateId);
  },

  async update({ client, signal }, id, olds, news, changed) {
    let template = changed.some((key) => key !== "active")
      ? await client.templates.update(id, cloneFields(news), { signal })
      : await client.templates.get(id, { signal });
    if (changed.includes("active")) {
      template = await client.templates.updateStatus(id, news.active === false ? TemplateStatus.DISABLED : TemplateStatus.ACTIVE, { signal });
    }
    return templateOutputs(template, news, olds.sourceTemplateId);
  },

  async delete({ client, signal }, id, state) {
    await unlessGone(() => client.templates.delete(id, { signal }));
  },

  async list({ client, signal }) {
    const templates = await client.templates.iterate({ typeEqual: TemplateType.HTTP }, { signal, pageSize: 500 }).toArray();
    return templates
      .filter((t) => t.status !== TemplateStatus.DELETED && t.partnerId !== 0)
      .map((t) => {
        const outs = templateOutputs(t, { event: eventOf(t) }, undefined);
        return { id: t.id, name: t.systemName || t.name, inputs: outs };
      });
  },
});

function cloneFields(inputs: HttpNotificationTemplateInputs) {
  const { name, systemName, description, url, method, signSecret, secureHashingAlgo } = inputs;
  return plain({ name, systemName, description, url, method: HttpMethod[method], signSecret, secureHashingAlgo: SecureHashingAlgo[secureHashingAlgo] });
}

/** Activate a fresh clone; on failure remove it, or record it as a partial failure when even that fails. */
async function activateClone(
  client: SvcClient,
  clone: EventNotificationTemplate,
  inputs: HttpNotificationTemplateInputs,
  sourceId: string,
  signal: AbortSignal,
): Promise<{ id: string; outs: TemplateOutputs }> {
  try {
    const active = await client.templates.updateStatus(clone.id, TemplateStatus.ACTIVE, { signal });
    return { id: clone.id, outs: templateOutputs(active, inputs, sourceId) };
  } catch (activationError) {
    const why = messageOf(activationError);
    // Interrupted (Cancel or the deadline): the engine still takes the answer, so the clone is reported, not deleted.
    if (signal.aborted) throw interruptedClone("Template", clone.id, why, templateOutputs(clone, inputs, sourceId));
    try {
      await client.templates.delete(clone.id, { signal });
    } catch (cleanupError) {
      // Could not remove it: hand the engine the id so the clone is recorded (and deleted by the next destroy).
      throw new PartialCreateError(
        `Template ${clone.id} was cloned but activating it failed (${why}), and deleting the clone failed too (${messageOf(cleanupError)}); it is recorded in the stack as inactive`,
        clone.id,
        templateOutputs(clone, inputs, sourceId),
      );
    }
    throw new ProviderError(`Activating template ${clone.id} failed (${why}); the clone was deleted, so nothing is left behind`);
  }
}

/**
 * Templates a lost clone may have made, created since `sinceSec` (platform clock): by systemName when given (unique in
 * the account, filtered on the server), else by name, url and description. Deleted templates are never listed.
 */
async function findCloned(
  client: SvcClient,
  fields: ReturnType<typeof cloneFields>,
  sinceSec: number,
  signal: AbortSignal,
): Promise<EventNotificationTemplate[]> {
  const filter = fields.systemName ? { typeEqual: TemplateType.HTTP, systemNameEqual: fields.systemName } : { typeEqual: TemplateType.HTTP };
  const candidates = await client.templates.iterate(filter, { signal, pageSize: 500 }).toArray();
  return candidates.filter(
    (t) =>
      t.status !== TemplateStatus.DELETED &&
      t.createdAt >= sinceSec &&
      (fields.systemName
        ? t.systemName === fields.systemName
        : t.name === fields.name && t.url === fields.url && (t.description ?? "") === (fields.description ?? "")),
  );
}

/** The system template to clone, from whichever selector the program gave. */
async function resolveSource(client: SvcClient, inputs: HttpNotificationTemplateInputs, signal: AbortSignal): Promise<EventNotificationTemplate> {
  const { objects } = await client.templates.listTemplates({ typeEqual: TemplateType.HTTP }, { pageSize: 500 }, { signal });
  return chooseSource(objects, inputs, "HTTP");
}

/** Adopt an existing template: verified and read, never duplicated; in-place fields converge to the inputs. */
async function adopt(
  client: SvcClient,
  id: string,
  inputs: HttpNotificationTemplateInputs,
  sourceId: string,
  signal: AbortSignal,
): Promise<{ id: string; outs: TemplateOutputs }> {
  let template = await unlessGone(() => client.templates.get(id, { signal }));
  if (!template) throw new ProviderError(`adoptId: template ${id} was not found; nothing was created`);
  if (template.type !== TemplateType.HTTP) throw new ProviderError(`adoptId: template ${id} is of type ${template.type}, expected ${TemplateType.HTTP}`);
  // The write-once secret cannot be read back, so an adopted template is always brought to the declared values.
  template = await client.templates.update(id, cloneFields(inputs), { signal });
  const status = inputs.active === false ? TemplateStatus.DISABLED : TemplateStatus.ACTIVE;
  if (template.status !== status) template = await client.templates.updateStatus(id, status, { signal });
  return { id, outs: templateOutputs(template, inputs, sourceId) };
}
