/**
 * The HttpNotificationTemplate dynamic provider: clone a system template, then activate it. In-place fields update
 * in place (update, updateStatus); a different source template replaces, deleting first when the systemName must
 * stay unique. A failed activation removes the clone, or, if even that fails, records it as a partial failure.
 */
import type { EventNotificationTemplate } from "../../contract/platform";
import { HttpMethod, SecureHashingAlgo, TemplateStatus, TemplateType } from "../../contract/platform";
import type { SvcClient } from "../../sdk";
import { templateMatchesEvent } from "../../contract/events";
import { HttpNotificationTemplateInputs, TEMPLATE_IN_PLACE, TEMPLATE_REPLACES } from "../schemas/httpNotificationTemplateInputs";
import { checkConnection, checkFields, type CheckResult } from "./check";
import { clientFor, operationSignal, serverNowMs } from "./clients";
import { diffFields, inputsFromOutputs, keptState, plain, sameValue, type DiffOutcome } from "./diff";
import { PartialCreateError, ProviderError, unlessGone } from "./errors";
import { createWithRecovery, noteManaged } from "./recovery";
import { isUnknown } from "./unknowns";

type Props = Record<string, unknown>;
/**
 * The engine hands create/update what check returned (the schema's output) and read/update/delete the outputs in
 * state: typed once, at the entry of each method, and typed from there on.
 */
type Inputs = HttpNotificationTemplateInputs;
type State = TemplateOutputs;
/** The input-only fields the outputs carry through from the inputs. */
type CarriedInputs = Pick<Inputs, "systemTemplateId" | "systemTemplateName" | "event" | "signSecret" | "adoptId" | "connection">;

const nameOf = <T extends Record<string, number>>(table: T, value: number | undefined): keyof T | undefined =>
  (Object.keys(table) as (keyof T)[]).find((key) => table[key] === value);

/** Outputs: the server's record, with the write-once signSecret kept from the inputs (never read back). */
export function templateOutputs(template: EventNotificationTemplate, inputs: CarriedInputs, sourceTemplateId: string | undefined) {
  return plain({
    templateId: template.id,
    partnerId: template.partnerId,
    sourceTemplateId,
    systemTemplateId: inputs.systemTemplateId,
    systemTemplateName: inputs.systemTemplateName,
    event: inputs.event,
    name: template.name,
    systemName: template.systemName,
    description: template.description ?? "",
    url: template.url,
    method: nameOf(HttpMethod, template.method),
    signSecret: inputs.signSecret,
    secureHashingAlgo: nameOf(SecureHashingAlgo, template.secureHashingAlgo),
    active: template.status === TemplateStatus.ACTIVE,
    status: template.status,
    eventType: template.eventType,
    eventObjectType: template.eventObjectType,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
    adoptId: inputs.adoptId,
    connection: inputs.connection,
  });
}
export type TemplateOutputs = ReturnType<typeof templateOutputs>;

function cloneFields(inputs: Inputs) {
  const { name, systemName, description, url, method, signSecret, secureHashingAlgo } = inputs;
  return plain({ name, systemName, description, url, method: HttpMethod[method], signSecret, secureHashingAlgo: SecureHashingAlgo[secureHashingAlgo] });
}

const SELECTORS = ["systemTemplateId", "systemTemplateName", "event"] as const;

export const templateProvider = {
  async check(_olds: Props, news: Props): Promise<CheckResult> {
    const result = checkFields(HttpNotificationTemplateInputs, news, ["signSecret", "connection"]);
    const given = SELECTORS.filter((key) => news[key] !== undefined && news[key] !== null);
    if (given.length !== 1 && !given.some((key) => isUnknown(news[key]))) {
      result.failures.push({
        property: given[1] ?? "systemTemplateId",
        reason: `expected exactly one of systemTemplateId, systemTemplateName or event (to choose the system template to clone); got ${given.length === 0 ? "none" : given.join(", ")}`,
      });
    }
    checkConnection(result);
    return result;
  },

  async diff(id: string, olds: Props, news: Props): Promise<DiffOutcome> {
    noteManaged(id);
    const { changed, replaces } = diffFields(olds, news, TEMPLATE_IN_PLACE, TEMPLATE_REPLACES);
    // The account's systemNames are unique: a replacement keeping its systemName must delete the old one first.
    const deleteBeforeReplace = replaces.length > 0 && news.systemName !== undefined && sameValue(olds.systemName, news.systemName);
    return { changes: changed.length > 0, replaces, ...(deleteBeforeReplace ? { deleteBeforeReplace } : {}) };
  },

  async create(raw: Props): Promise<{ id: string; outs: State }> {
    const inputs = raw as Inputs;
    const client = clientFor(inputs.connection);
    const signal = operationSignal();
    const source = await resolveSource(client, inputs, signal);
    if (typeof inputs.adoptId === "string") return adopt(client, inputs.adoptId, inputs, source.id, signal);

    const fields = cloneFields(inputs);
    const clone = await createWithRecovery<EventNotificationTemplate>({
      what: "template",
      fingerprint: `template ${fields.systemName ?? JSON.stringify([fields.name, fields.url, fields.description])}`,
      create: () => client.templates.clone(source.id, fields, { signal }),
      find: (since) => findCloned(client, fields, since, signal),
      idOf: (t) => t.id,
      serverNowMs: () => serverNowMs(client),
      signal,
    });
    if (inputs.active === false) return { id: clone.id, outs: templateOutputs(clone, inputs, source.id) };
    try {
      const active = await client.templates.updateStatus(clone.id, TemplateStatus.ACTIVE, { signal });
      return { id: clone.id, outs: templateOutputs(active, inputs, source.id) };
    } catch (activationError) {
      const why = messageOf(activationError);
      try {
        await client.templates.delete(clone.id, { signal: operationSignal() });
      } catch (cleanupError) {
        // Could not remove it: hand the engine the id so the clone is recorded (and deleted by the next destroy).
        throw new PartialCreateError(
          `Template ${clone.id} was cloned but activating it failed (${why}), and deleting the clone failed too (${messageOf(cleanupError)}); it is recorded in the stack as inactive`,
          clone.id,
          templateOutputs(clone, inputs, source.id),
        );
      }
      throw new ProviderError(`Activating template ${clone.id} failed (${why}); the clone was deleted, so nothing is left behind`);
    }
  },

  async read(id: string, state: Props): Promise<{ id: string; props?: State; inputs?: Props }> {
    noteManaged(id);
    const props = state as State;
    const client = clientFor(props.connection);
    const template = await unlessGone(() => client.templates.get(id, { signal: operationSignal() }));
    if (!template || template.status === TemplateStatus.DELETED) return { id: "" };
    const outs = templateOutputs(template, props, props.sourceTemplateId);
    return { id, props: outs, inputs: inputsFromOutputs(HttpNotificationTemplateInputs, outs) };
  },

  async update(id: string, oldState: Props, newInputs: Props): Promise<{ outs: Props }> {
    noteManaged(id);
    const [olds, news] = [oldState as State, newInputs as Inputs];
    const { changed } = diffFields(olds, news, TEMPLATE_IN_PLACE, []);
    if (changed.length === 0) return { outs: keptState(olds, news, ["adoptId", "connection"]) };
    const client = clientFor(news.connection);
    const signal = operationSignal();
    let template = changed.some((key) => key !== "active")
      ? await client.templates.update(id, cloneFields(news), { signal })
      : await client.templates.get(id, { signal });
    if (changed.includes("active")) {
      template = await client.templates.updateStatus(id, news.active === false ? TemplateStatus.DISABLED : TemplateStatus.ACTIVE, { signal });
    }
    return { outs: templateOutputs(template, news, olds.sourceTemplateId) };
  },

  async delete(id: string, state: Props): Promise<void> {
    noteManaged(id);
    const client = clientFor((state as State).connection);
    await unlessGone(() => client.templates.delete(id, { signal: operationSignal() }));
  },
};

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
async function resolveSource(client: SvcClient, inputs: Inputs, signal: AbortSignal): Promise<EventNotificationTemplate> {
  const { objects } = await client.templates.listTemplates({ typeEqual: TemplateType.HTTP }, { pageSize: 500 }, { signal });
  const wanted = inputs.event;
  const match = objects.find((t) =>
    inputs.systemTemplateId !== undefined
      ? t.id === inputs.systemTemplateId
      : inputs.systemTemplateName !== undefined
        ? t.systemName === inputs.systemTemplateName
        : wanted !== undefined && templateMatchesEvent(t, wanted),
  );
  if (match) return match;
  const field = SELECTORS.find((key) => inputs[key] !== undefined) ?? "systemTemplateId";
  const available = objects.map((t) => `${t.id} (${t.systemName ?? t.name})`).join(", ");
  throw new ProviderError(`${field}: no HTTP system template matches ${String(inputs[field])}; available: ${available || "none"}`);
}

/** Adopt an existing template: verified and read, never duplicated; in-place fields converge to the inputs. */
async function adopt(client: SvcClient, id: string, inputs: Inputs, sourceId: string, signal: AbortSignal): Promise<{ id: string; outs: State }> {
  let template = await unlessGone(() => client.templates.get(id, { signal }));
  if (!template) throw new ProviderError(`adoptId: template ${id} was not found; nothing was created`);
  if (template.type !== TemplateType.HTTP) throw new ProviderError(`adoptId: template ${id} is of type ${template.type}, expected ${TemplateType.HTTP}`);
  // The write-once secret cannot be read back, so an adopted template is always brought to the declared values.
  template = await client.templates.update(id, cloneFields(inputs), { signal });
  const status = inputs.active === false ? TemplateStatus.DISABLED : TemplateStatus.ACTIVE;
  if (template.status !== status) template = await client.templates.updateStatus(id, status, { signal });
  return { id, outs: templateOutputs(template, inputs, sourceId) };
}

function messageOf(error: unknown): string {
  if (error && typeof error === "object" && "code" in error) return `${String(error.code)}: ${(error as unknown as Error).message}`;
  return error instanceof Error ? error.message : String(error);
}
