/**
 * The steps of a template's create that can go wrong, and what each leaves behind: finishing a fresh clone (removed,
 * or recorded as a partial failure, when finishing fails), finding a clone whose answer was lost (recovery), and
 * adopting an existing template instead of cloning.
 */
import { TemplateStatus } from "../../contract/platform";
import { PartialCreateError, ProviderError } from "../core/errors";
import type { Created } from "./define";
import type { Api, CloneBasics, Template, TemplateInputsBase, TemplateKindParts } from "./templateFields";
import type { TemplateTypes } from "../../sdk/platform/templateKinds";
import { interruptedClone, messageOf } from "./templateSelection";

export const contentOf = (field: string, object: object): unknown => (object as Record<string, unknown>)[field];

/** One create of a template: the kind's parts and client, the checked inputs, the source template, the signal. */
export interface TemplateCreate<W extends TemplateTypes, Inputs extends TemplateInputsBase, State extends Record<string, unknown>> {
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
export async function finishClone<W extends TemplateTypes, I extends TemplateInputsBase, S extends Record<string, unknown>>(
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
export async function findCloned<W extends TemplateTypes>(
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
export async function adopt<W extends TemplateTypes, I extends TemplateInputsBase, S extends Record<string, unknown>>(
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
