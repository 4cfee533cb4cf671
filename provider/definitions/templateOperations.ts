/**
 * The operations both kinds of template share, from a kind's parts: create clones the chosen system template (with
 * recovery) and finishes the clone (templateCreation.ts), or adopts an existing one; read, update, delete and list are
 * alike. templateSelection.ts chooses the source.
 */
import { TemplateStatus } from "../../contract/platform";
import { accountScope } from "../core/accountScope";
import { unlessGone } from "../core/errors";
import { createWithRecovery } from "../core/recovery";
import type { TemplateTypes } from "../../sdk/platform/templateKinds";
import type { ResourceDefinition } from "./define";
import { adopt, contentOf, findCloned, finishClone, type TemplateCreate } from "./templateCreation";
import type { Template, TemplateInputsBase, TemplateKindParts } from "./templateFields";
import { carriedForRead, checkSelectors, chooseSource, eventOf, keepsSystemName } from "./templateSelection";

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
