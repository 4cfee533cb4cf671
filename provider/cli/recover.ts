/**
 * `pulumi-svc recover --stack <name> [--yes]`: after a run that died (the provider process, or the whole runner),
 * finds the objects the platform made that no state records, and settles them (docs/design.md, "Recovering a killed
 * run"): pending creates are cleared and the object each made (exactly one match) is deleted; unrecorded objects
 * whose twin the stack holds or plans are deleted; an ambiguity is reported and nothing is guessed. Without --yes it only prints what it
 * would do. With nothing pending and no failed update to look at, it reads the state and the history and stops.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { DEFINITIONS } from "../definitions";
import { displayed } from "./asciiLiteral";
import { type RecoverAccount, RecoverAccounts } from "./recoverAccounts";
import { type Declared, type Found, isEmptyPlan, planRecovery, type RecoveryPlan } from "./recoverMatch";
import { type PulumiCli, pulumiCli, StackLockedError } from "./recoverPulumi";
import { readStackState, type StackState, type SvcResource, svcTypeOf } from "./recoverState";
import { answersSettleAtMs, type HistoryEntry, inWindows, interruptedWindows, nothingInterrupted } from "./recoverWindow";
import { listCandidates, type Managed } from "./takeoverListing";

export interface RecoverOptions {
  stack: string;
  yes?: boolean;
  cwd?: string;
}

export interface RecoverDeps {
  cli?: PulumiCli;
  out?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** The longest wait for answers of the interrupted run that may still commit (default: the request timeout). */
  maxSettleWaitMs?: number;
}

export type RecoverOutcome = "nothing" | "clean" | "planned" | "done" | "ambiguous" | "locked" | "failed";

export interface RecoverResult {
  outcome: RecoverOutcome;
  plan?: RecoveryPlan;
  /** Milliseconds spent (reading state and history; the whole run). */
  timings: { readMs: number; totalMs: number };
}

/** History entries read: enough to reach the look-back point in any pipeline that recovers after each failure. */
export const HISTORY_PAGE = 20;

/** The process exit code of an outcome: 0 done or nothing to do, 1 failed, 2 an ambiguity for a person, 3 locked. */
export const EXIT_CODES: Record<RecoverOutcome, number> = { nothing: 0, clean: 0, planned: 0, done: 0, ambiguous: 2, locked: 3, failed: 1 };

export async function recover(options: RecoverOptions, deps: RecoverDeps = {}): Promise<RecoverResult> {
  const started = performance.now();
  const out = deps.out ?? console.log;
  const env = deps.env ?? process.env;
  const cli = deps.cli ?? pulumiCli({ stack: options.stack, ...(options.cwd ? { cwd: options.cwd } : {}), env });
  const elapsed = () => Math.round(performance.now() - started);

  const [exported, history] = await Promise.all([cli.exportStack(), cli.history(HISTORY_PAGE)]);
  const plain = readStackState(exported);
  const readMs = elapsed();
  const hasPending = plain.pendingCreates.length > 0;
  if (nothingInterrupted(interruptedWindows(history, hasPending, Math.floor(Date.now() / 1000), 0))) {
    out(`stack ${options.stack}: nothing pending and no failed update to look at; nothing to recover (read in ${readMs} ms)`);
    return { outcome: "nothing", timings: { readMs, totalMs: elapsed() } };
  }

  // Something was interrupted: the state with its secrets (the accounts' credentials), the stack config, other stacks.
  const state = readStackState(await cli.exportStack({ showSecrets: true }));
  const config = await cli.config();
  const accounts = new RecoverAccounts(configLookup(config), state.providers, env);
  try {
    const declare = (resource: SvcResource, fields: Record<string, unknown>): Declared | undefined => {
      const account = accounts.of(resource);
      return account ? { type: resource.type, account: account.key, fields, urn: resource.urn } : undefined;
    };
    const pendingCreates = defined(state.pendingCreates.map((r) => declare(r, r.inputs)));
    const recorded = defined(state.resources.map((r) => declare(r, r.outputs)));
    // A run killed before its first answer recorded no object, yet its requests may have made some: its accounts too.
    accounts.ofStack();
    for (const [urn, why] of accounts.unresolved) out(`  cannot tell the account of ${urn}: ${why}; its objects are left alone`);
    const others = await otherStates(cli, state);
    const managed: Managed = { ids: [...state.recordedIds, ...others.flatMap((s) => s.recordedIds)], names: new Map() };
    const foreignPending = others.flatMap((s) => s.pendingCreates.map((r) => ({ type: r.type, account: "*", fields: r.inputs, urn: r.urn })));

    // A request the interrupted run sent may still commit until its timeout: list after that.
    const answerMs = Math.max(0, ...accounts.all().map((a) => a.requestTimeoutMs));
    const settleAt = answersSettleAtMs(history, plain.writtenAtMs, hasPending, answerMs);
    const waitMs = Math.min(settleAt - Date.now(), deps.maxSettleWaitMs ?? answerMs);
    if (waitMs > 0) {
      out(`  waiting ${Math.ceil(waitMs / 1000)} s: a request the interrupted run sent may still reach the platform until its timeout`);
      await sleep(waitMs);
    }
    const windows = interruptedWindows(history, hasPending, Math.floor(Date.now() / 1000), Math.ceil(answerMs / 1000));
    for (const w of [...windows.failed, ...(windows.pending ? [windows.pending] : [])]) {
      out(`  looking at ${w.label}: objects created ${w.startSec > 0 ? `from ${iso(w.startSec)} ` : ""}until ${iso(w.endSec)}`);
    }
    const inWindow = (createdAt: number) => inWindows(windows, createdAt);
    const listed = accounts.all();
    const found = await listUnrecorded(listed, managed, inWindow);
    const pendingWindow = windows.pending;
    const input = {
      pendingCreates,
      recorded,
      foreignPending: foreignPending.map((d) => ({ ...d })),
      found,
      inPendingWindow: (o: Found) => pendingWindow !== undefined && o.createdAt >= pendingWindow.startSec && o.createdAt <= pendingWindow.endSec,
    };
    let plan = planRecovery(wildcardAccounts(input));
    if (plan.unexplained.length > 0) {
      // Objects no pending create took and no twin explains: the program's planned creates may (the plugin died and
      // the engine recorded its creates as failed).
      const planned = defined((await plannedCreates(cli)).map((r) => declare(r, r.inputs)));
      // An account only the program names (a connection no recorded resource uses yet) is listed now.
      found.push(
        ...(await listUnrecorded(
          accounts.all().filter((a) => !listed.includes(a)),
          managed,
          inWindow,
        )),
      );
      plan = planRecovery(wildcardAccounts({ ...input, planned }));
    }
    printPlan(plan, out);
    // The newest update failed (or a run died): the state may hold objects its provider deleted as it was stopped
    // (termination.ts): a refresh drops them. Once later updates succeeded, they have settled the state.
    const refresh = hasPending || newestUpdateFailed(history);
    if (refresh) out("  the newest run was interrupted: the state is refreshed (pulumi refresh), which also drops its pending creates");
    if (isEmptyPlan(plan) && !refresh) {
      out(`stack ${options.stack}: the platform holds nothing the interrupted runs left; nothing to recover (${elapsed()} ms)`);
      return { outcome: "clean", plan, timings: { readMs, totalMs: elapsed() } };
    }
    if (!options.yes) {
      out("Dry run: nothing was changed. Run again with --yes to do it.");
      return { outcome: plan.ambiguous.length > 0 ? "ambiguous" : "planned", plan, timings: { readMs, totalMs: elapsed() } };
    }
    return { ...(await apply(plan, refresh, cli, accounts, state, options, out)), plan, timings: { readMs, totalMs: elapsed() } };
  } finally {
    await accounts.close();
  }
}

/**
 * Does the plan. The stack's lock first (a run in progress, or a dead one's: nothing is touched); then the deletes;
 * then, only when every delete went through and nothing is ambiguous, the pending creates are cleared (before that
 * they are what lets a later recover find the objects again).
 */
async function apply(
  plan: RecoveryPlan,
  refresh: boolean,
  cli: PulumiCli,
  accounts: RecoverAccounts,
  state: StackState,
  options: RecoverOptions,
  out: (line: string) => void,
) {
  try {
    if (state.stackUrn) await cli.probeLock(state.stackUrn);
  } catch (error) {
    if (!(error instanceof StackLockedError)) throw error;
    out(
      `The stack ${options.stack} is locked. If no pulumi run of it is in progress (its runner died), release the lock with ` +
        `\`pulumi cancel --stack ${options.stack} --yes\`, then run pulumi-svc recover again. Nothing was changed.`,
    );
    return { outcome: "locked" as const };
  }
  let failed = 0;
  for (const doomed of plan.deletes) {
    const account = accounts.all().find((a) => a.key === doomed.account);
    const definition = DEFINITIONS.find((d) => d.type === doomed.type);
    try {
      if (!account || !definition) throw new Error("its account is not known");
      await definition.delete(account.context(), doomed.id, {});
      out(`  deleted ${doomed.type} ${displayed(doomed.id)}`);
    } catch (error) {
      failed++;
      out(`  could not delete ${doomed.type} ${displayed(doomed.id)}: ${(error as Error).message}`);
    }
  }
  if (failed > 0) {
    out(`${failed} delete(s) failed: the pending creates stay, so that running pulumi-svc recover again finds what is left`);
    return { outcome: "failed" as const };
  }
  if (plan.ambiguous.length > 0) return { outcome: "ambiguous" as const };
  if (refresh || plan.clears.length > 0) {
    await cli.clearPendingCreates();
    out(`  refreshed the state${plan.clears.length > 0 ? ` and cleared ${plan.clears.length} pending create(s)` : ""}`);
  }
  out(`stack ${options.stack}: recovered; nothing is pending. Next: pulumi up`);
  return { outcome: "done" as const };
}

function printPlan(plan: RecoveryPlan, out: (line: string) => void): void {
  for (const c of plan.clears) out(`  clear pending create ${c.urn} (${c.type}): ${c.reason}`);
  for (const d of plan.deletes) out(`  delete ${d.type} ${displayed(d.id)}: ${d.reason}`);
  for (const a of plan.ambiguous) {
    out(
      `  AMBIGUOUS ${a.type}: pending create(s) ${a.urns.join(", ")} and candidates ${a.candidates.map(displayed).join(", ")}: ${a.reason}. ` +
        "Nothing was guessed: delete the ones this stack made (or adopt one with adoptId), then run recover again",
    );
  }
  for (const l of plan.leftAlone) out(`  left alone ${l.type} ${displayed(l.id)}: ${l.reason}`);
  if (plan.unexplained.length > 0) out(`  ${plan.unexplained.length} other object(s) created in the window match nothing this stack declares: left alone`);
}

/** The objects of every account that no state records and that were created in a window. */
async function listUnrecorded(accounts: RecoverAccount[], managed: Managed, inWindow: (createdAtSec: number) => boolean): Promise<Found[]> {
  const found: Found[] = [];
  for (const account of accounts) {
    const listing = await listCandidates(account.context(), account.partnerId, managed, { includeDisabled: true });
    const unrecorded = [...listing.candidates.map((c) => ({ type: c.definition.type, id: c.id, fields: c.inputs }))];
    for (const object of unrecorded) {
      const createdAt = Number(object.fields.createdAt);
      if (Number.isFinite(createdAt) && inWindow(createdAt)) found.push({ ...object, account: account.key, createdAt });
    }
  }
  return found;
}

/** The other stacks of the backend: what they record is never touched, and what they have pending is theirs. */
async function otherStates(cli: PulumiCli, own: StackState): Promise<StackState[]> {
  const ownPrefix = urnPrefix(own);
  const states: StackState[] = [];
  for (const name of await cli.stacks()) {
    const state = readStackState(await cli.exportStack({ stack: name }));
    if (ownPrefix !== undefined && urnPrefix(state) === ownPrefix) continue;
    states.push(state);
  }
  return states;
}

/** `urn:pulumi:<stack>::<project>::` of a state's resources. */
function urnPrefix(state: StackState): string | undefined {
  const urn = state.resources[0]?.urn ?? state.pendingCreates[0]?.urn;
  return urn?.split("::").slice(0, 2).join("::");
}

/** Whether the newest update of the history failed (or never finished). */
function newestUpdateFailed(history: readonly HistoryEntry[]): boolean {
  const updates = history.filter((entry) => entry.kind === "update");
  const newest = updates.reduce<HistoryEntry | undefined>(
    (best, entry) => (best === undefined || Date.parse(entry.startTime ?? "") > Date.parse(best.startTime ?? "") ? entry : best),
    undefined,
  );
  return newest !== undefined && newest.result !== "succeeded";
}

/** The svc creates `pulumi preview` plans. */
async function plannedCreates(cli: PulumiCli): Promise<SvcResource[]> {
  const steps = await cli.previewSteps();
  const planned: SvcResource[] = [];
  for (const step of steps) {
    const kind = svcTypeOf(step.newState?.type ?? "");
    if (step.op !== "create" || !kind || !step.urn) continue;
    planned.push({
      urn: step.urn,
      ...kind,
      inputs: step.newState?.inputs ?? {},
      outputs: {},
      ...(step.newState?.provider ? { provider: step.newState.provider } : {}),
    });
  }
  return planned;
}

/** Another stack's account is not resolved here: its pending creates match an object of any account. */
function wildcardAccounts<T extends { foreignPending: Declared[]; found: Found[] }>(input: T): T {
  return {
    ...input,
    foreignPending: input.foreignPending.flatMap((d) =>
      d.account === "*" ? [...new Set(input.found.map((f) => f.account))].map((account) => ({ ...d, account })) : [d],
    ),
  };
}

/** `pulumi config --json --show-secrets` as a lookup ({ "svc:baseUrl": { value, secret } } or plain values). */
function configLookup(config: Record<string, unknown>): (key: string) => string | undefined {
  return (key) => {
    const entry = config[key];
    const value = entry !== null && typeof entry === "object" ? (entry as { value?: unknown }).value : entry;
    return value === undefined || value === null ? undefined : String(value);
  };
}

const defined = <T>(items: (T | undefined)[]): T[] => items.filter((item): item is T => item !== undefined);
const iso = (sec: number): string => new Date(sec * 1000).toISOString();
