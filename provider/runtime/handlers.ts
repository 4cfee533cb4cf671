/**
 * The handlers of a resource, derived from its definition: check, diff, create, read, update and delete as the
 * dynamic provider host and the native plugin both call them. The resource's own functions do the platform work;
 * what every resource does the same way (field checks, diff by the in-place and replacing fields, gone objects on
 * read, updates with nothing to send, the account guard) is here, once.
 */
import { accountChange, type StackAccountMove } from "../core/account";
import { type CheckResult, checkConnection, checkFields, checkRequiredOnCreate } from "../core/check";
import { type DiffOutcome, diffFields, inputsFromOutputs, keptState, sameValue } from "../core/diff";
import { isUnknown } from "../core/unknowns";
import { choiceOf } from "../core/namedAccounts";
import { PartialCreateError, ProviderError } from "../core/errors";
import { graceSignal } from "../core/operationLifetime";
import type { ProviderProcessCore } from "../core/providerProcessCore";
import { recordEvent } from "../core/telemetry";
import { fieldsOf, migrateState, type ResourceDefinition } from "../definitions/define";
import { registerSecret } from "../../sdk/core/redact";

type Props = Record<string, unknown>;

/** The connection's secret (the admin secret) is registered by the sdk's session source; its other fields are not secret. */
const CONNECTION_KEY = "connection";

/** Every text inside a secret input's value, at any depth (a list or map of secrets included). */
function registerSecretTexts(value: unknown): void {
  if (typeof value === "string") registerSecret(value);
  else if (Array.isArray(value)) for (const item of value) registerSecretTexts(item);
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) registerSecretTexts(item);
}

/** The context of an operation on the account of a resource's (stored or new) `account` or `connection` input. */
const contextOf = (session: ProviderProcessCore, props: Props | undefined) => session.contextOfChoice(choiceOf(props));

/** The handlers as their callers see them: the engine's and the wire's plain records in, plain records out. */
export interface ResourceHandlers {
  check(olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<DiffOutcome>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, state: Props): Promise<{ id: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, state: Props): Promise<void>;
}

/**
 * The handlers of one definition, typed by it: what the engine hands them is typed once, at each method's entry
 * (`checked`: the inputs check returned; `stored`: the state a create, read or update of this provider returned,
 * in this release's shape after the definition's migrations), and the definition gets its own types from there.
 */
export class DefinitionHandlers<I extends Props, S extends Props> implements ResourceHandlers {
  private readonly fields: ReturnType<typeof fieldsOf>;
  /** What an update with nothing to send takes from the new inputs (all but the in-place fields, which are equal). */
  private readonly carried: string[];

  constructor(
    readonly definition: ResourceDefinition<I, S>,
    private readonly session: ProviderProcessCore,
    private readonly onStackAccountMove: StackAccountMove = "refuse",
  ) {
    this.fields = fieldsOf(definition);
    this.carried = this.fields.inputKeys.filter((key) => !this.fields.inPlace.includes(key));
  }

  async check(olds: Props, news: Props): Promise<CheckResult> {
    const result = checkFields(this.fields.shape, news, this.fields.secretInputs);
    checkRequiredOnCreate(result, this.definition.inputs, olds ?? {}, this.fields.secretInputs);
    this.definition.validate?.(result.inputs, olds ?? {}, result.failures);
    checkConnection(result, this.session.clients);
    return result;
  }

  async diff(id: string, stored: Props, news: Props): Promise<DiffOutcome> {
    this.session.ledger.noteManaged(id);
    const olds = this.stored(stored);
    const { changed, replaces } = diffFields(olds, news, this.fields.inPlace, this.fields.replaces);
    // A resource never follows its connection to another account in place: that would update, with the old id,
    // an object of the new account. An explicit connection that moves replaces; stack config that moves is refused.
    const moved = accountChange(this.session.clients, olds, news, this.onStackAccountMove);
    const choiceField = news.account !== undefined || olds.account !== undefined ? "account" : "connection";
    if (moved) replaces.push(choiceField);
    const deleteBeforeReplace = replaces.length > 0 && this.definition.deleteBeforeReplace?.(olds, news) === true;
    if (moved && !changed.includes(choiceField)) changed.push(choiceField);
    // The same account under another name (a named account instead of a connection, or of an explicit provider of
    // its own): an update that calls nothing, so the state records the choice its reads and deletes will use.
    if (!moved && !sameValue(olds.account, news.account) && !isUnknown(news.account)) changed.push("account");
    if (!moved && olds.connection !== undefined && news.connection === undefined && news.account !== undefined) changed.push("connection");
    return { changes: changed.length > 0, changed, replaces, ...(deleteBeforeReplace ? { deleteBeforeReplace } : {}) };
  }

  create(inputs: Props): Promise<{ id: string; outs: Props }> {
    return this.session.termination.trackCreate(createRecordable(this.definition, this.session, this.checked(inputs)));
  }

  async read(id: string, state: Props): Promise<{ id: string; props?: Props; inputs?: Props }> {
    this.session.ledger.noteManaged(id);
    const olds = this.stored(state);
    const outs = await this.definition.read(contextOf(this.session, olds), id, olds);
    // Deleted outside Pulumi: refresh drops it, up creates it again.
    if (!outs) return { id: "" };
    return { id, props: outs, inputs: this.definition.inputsOf?.(outs) ?? inputsFromOutputs(this.fields.shape, outs) };
  }

  async update(id: string, stored: Props, news: Props): Promise<{ outs: Props }> {
    this.session.ledger.noteManaged(id);
    const olds = this.stored(stored);
    const { changed } = diffFields(olds, news, this.fields.inPlace, []);
    // Nothing for the platform (an input-only field, or the stored provider text): the state stays, with the new inputs.
    if (changed.length === 0) return { outs: keptState(olds, news, this.carried) };
    return { outs: await this.definition.update(contextOf(this.session, news), id, olds, this.checked(news), changed) };
  }

  async delete(id: string, state: Props): Promise<void> {
    this.session.ledger.noteManaged(id);
    const olds = this.stored(state);
    await this.definition.delete(contextOf(this.session, olds), id, olds);
  }

  /**
   * The inputs of a create or update: the engine (or the plugin, which checks them again) hands back check's output.
   * Their secret fields' values are registered with the sdk's redaction first, so a platform error that quotes one
   * ("invalid signing secret <value>") is cleaned like one quoting a ks.
   */
  private checked(inputs: Props): I {
    for (const key of this.fields.secretInputs) if (key !== CONNECTION_KEY) registerSecretTexts(inputs[key]);
    return inputs as I;
  }

  /**
   * A state the engine stored from this provider's answers, in this release's shape (the definition's migrations).
   * No state (a read by id alone: `pulumi import`) is no old state.
   */
  private stored(state: Props | undefined): S {
    return (state && Object.keys(state).length > 0 ? migrateState(this.definition, state) : (state ?? {})) as S;
  }
}

/** The handlers of `definition`, its operations run in `session` (their clients, Cancel, ledger and diagnostics). */
export function handlersFor<I extends Props, S extends Props>(
  definition: ResourceDefinition<I, S>,
  session: ProviderProcessCore,
  onStackAccountMove: StackAccountMove = "refuse",
): DefinitionHandlers<I, S> {
  return new DefinitionHandlers(definition, session, onStackAccountMove);
}

/**
 * What a create answers once the run is ending. After a deadline the engine keeps running and records what it is
 * told, partial creates included. After Cancel (the first Ctrl-C) the engine waits for the answer, but a second
 * Ctrl-C (termination) can come at any moment and drop answers it has not written yet; once it stops this process
 * (core/termination.ts) it takes no answer at all. So after Cancel what the create made is deleted (within the
 * grace) and the answer records nothing: an answer that is safe to lose. Only when that delete fails is the object
 * reported as a partial create, for the engine to record if it still can (once the process is stopped, it is named
 * in the exit's warning instead). A create answered before the interruption is never deleted: the engine may have
 * recorded it. Adoptions (adoptId) are left alone.
 */
async function createRecordable<I extends Props, S extends Props>(
  definition: ResourceDefinition<I, S>,
  session: ProviderProcessCore,
  inputs: I,
): Promise<{ id: string; outs: Props }> {
  const { lifetime, termination } = session;
  // An adoption makes nothing: the object existed before the run and is never deleted for it.
  const ctx = contextOf(session, inputs);
  if (typeof inputs.adoptId === "string") return definition.create(ctx, inputs);
  let made: { id: string; outs: S };
  try {
    made = await definition.create(ctx, inputs);
  } catch (error) {
    if (!(error instanceof PartialCreateError) || !lifetime.isCancelled()) throw error;
    // A partial create carries the state the definition's own create made (core/recovery.ts, templateCreation.ts).
    made = { id: error.id, outs: error.properties as S };
  }
  if (!lifetime.isCancelled()) return made;
  const cause = lifetime.isTerminating() ? "the engine stopped this process" : "the run was cancelled";
  try {
    const signal = ctx.interruption?.grace() ?? graceSignal();
    await termination.deleteUnanswered({ type: definition.type, id: made.id }, () => definition.delete({ ...ctx, signal }, made.id, made.outs));
  } catch (deleteError) {
    const why = deleteError instanceof Error ? deleteError.message : String(deleteError);
    if (lifetime.isTerminating()) {
      // Named in the exit's leftBehind warning (core/termination.ts).
      throw new ProviderError(
        `${definition.type} ${made.id} was created as ${cause}, which cannot record it, and deleting it failed (${why}); delete it by hand`,
      );
    }
    recordEvent(ctx.log, { type: "interrupted", resource: definition.type, outcome: "reported", id: made.id, cause });
    throw new PartialCreateError(
      `${definition.type} ${made.id} was created but ${cause} before it finished, and deleting it failed (${why}); it is recorded in the stack as it is, and the next pulumi up completes it`,
      made.id,
      made.outs,
    );
  }
  recordEvent(ctx.log, { type: "interrupted", resource: definition.type, outcome: "deleted", id: made.id, cause });
  throw new ProviderError(`${definition.type} ${made.id} was created but ${cause} before it finished; it was deleted, so nothing is left behind`);
}
