/**
 * The handlers of a resource, derived from its definition: check, diff, create, read, update and delete as the
 * dynamic provider host and the native plugin both call them. The resource's own functions do the platform work;
 * what every resource does the same way (field checks, diff by the in-place and replacing fields, gone objects on
 * read, updates with nothing to send, the account guard) is here, once.
 */
import { accountChange, type StackAccountMove } from "../core/account";
import { type CheckResult, checkConnection, checkFields } from "../core/check";
import { type DiffOutcome, diffFields, inputsFromOutputs, keptState } from "../core/diff";
import { noteManaged } from "../core/recovery";
import { fieldsOf, migrateState, type ResourceDefinition } from "./define";

type Props = Record<string, unknown>;

export interface ResourceHandlers {
  check(olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<DiffOutcome>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, state: Props): Promise<{ id: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, state: Props): Promise<void>;
}

export function handlersFor(definition: ResourceDefinition, onStackAccountMove: StackAccountMove = "refuse"): ResourceHandlers {
  const fields = fieldsOf(definition);
  const inputsOf = (outs: Props): Props => definition.inputsOf?.(outs) ?? inputsFromOutputs(fields.shape, outs);
  // What an update with nothing to send takes from the new inputs (all but the in-place fields, which are equal).
  const carried = fields.inputKeys.filter((key) => !fields.inPlace.includes(key));
  // A state from an earlier release, in this release's shape (the definition's migrations), before anything compares
  // or uses it. No state (a read by id alone: `pulumi import`) is no old state.
  const current = (state: Props | undefined): Props => (state && Object.keys(state).length > 0 ? migrateState(definition, state) : (state ?? {}));

  return {
    async check(olds, news) {
      const result = checkFields(fields.shape, news, fields.secretInputs);
      definition.validate?.(result.inputs, olds ?? {}, result.failures);
      checkConnection(result);
      return result;
    },

    async diff(id, stored, news) {
      noteManaged(id);
      const olds = current(stored);
      const { changed, replaces } = diffFields(olds, news, fields.inPlace, fields.replaces);
      // A resource never follows its connection to another account in place: that would update, with the old id,
      // an object of the new account. An explicit connection that moves replaces; stack config that moves is refused.
      const moved = accountChange(olds, news, onStackAccountMove);
      if (moved) replaces.push("connection");
      const deleteBeforeReplace = replaces.length > 0 && definition.deleteBeforeReplace?.(olds, news) === true;
      if (moved && !changed.includes("connection")) changed.push("connection");
      return { changes: changed.length > 0, changed, replaces, ...(deleteBeforeReplace ? { deleteBeforeReplace } : {}) };
    },

    create(inputs) {
      return definition.create(inputs);
    },

    async read(id, state) {
      noteManaged(id);
      const outs = await definition.read(id, current(state));
      // Deleted outside Pulumi: refresh drops it, up creates it again.
      if (!outs) return { id: "" };
      return { id, props: outs, inputs: inputsOf(outs) };
    },

    async update(id, stored, news) {
      noteManaged(id);
      const olds = current(stored);
      const { changed } = diffFields(olds, news, fields.inPlace, []);
      // Nothing for the platform (an input-only field, or the stored provider text): the state stays, with the new inputs.
      if (changed.length === 0) return { outs: keptState(olds, news, carried) };
      return { outs: await definition.update(id, olds, news, changed) };
    },

    async delete(id, state) {
      noteManaged(id);
      await definition.delete(id, current(state));
    },
  };
}
