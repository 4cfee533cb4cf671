/**
 * `pulumi-svc recover --stack <name> [--yes]`: after a run that died (the provider process, the engine, or the whole
 * runner), finds the objects that run made that no state records, and settles them (docs/design.md, "Recovering a
 * killed run"). It deletes only with a proof that an interrupted run of this stack made the object: made inside that
 * run's own window, with every field a create of this stack sends, recorded by no state of the backend and named by
 * no adoptId. Where the proof is missing it names the object or the pending create and deletes nothing (exit 2).
 * Without --yes it only prints the plan. With nothing pending and no failed update to look at, it reads the state and
 * the history and stops.
 *
 * The stack's lock is probed before anything is read (a run in progress: nothing is done), and again right before the
 * deletes, after which every state of the backend is read once more: an object a run recorded meanwhile is never
 * deleted, and an object listed before the probe cannot belong to a run that started after it.
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { DEFINITIONS } from "../definitions";
import { displayed } from "./asciiLiteral";
import { type RecoverAccount, RecoverAccounts } from "./recoverAccounts";
import { adoptIdOf, ageText, considered, type Declared, type Found, isEmptyPlan, matches, planRecovery, type RecoveryPlan } from "./recoverMatch";
import { type PulumiCli, pulumiCli, StackLockedError } from "./recoverPulumi";
import { readStackState, type StackState, type SvcResource, svcTypeOf } from "./recoverState";
import { answersSettleAtMs, type HistoryEntry, interruptedWindows, nothingInterrupted, type RunStarts, type Window } from "./recoverWindow";
import { listCandidates, type Managed } from "./takeoverListing";

export interface RecoverOptions {
  stack: string;
  yes?: boolean;
  cwd?: string;
  /**
   * The user's word that no run of the stack is in progress: a lock a dead run left is read (its time bounds that run)
   * and, with --yes, released (`pulumi cancel`).
   */
  releaseLock?: boolean;
  /** The user's word of when the interrupted run started (when no record of the backend tells it). */
  since?: Date;
  /** The user's word that this process's SVC_* variables are the ones the run had. */
  accountFromEnvironment?: boolean;
  /** The plan a dry run printed: with --yes, act only when the plan is still that one. */
  expectPlan?: string;
}

export interface RecoverDeps {
  cli?: PulumiCli;
  out?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** The longest wait for answers of the interrupted run that may still commit (default: the request timeout). */
  maxSettleWaitMs?: number;
}

export type RecoverOutcome = "nothing" | "clean" | "planned" | "done" | "ambiguous" | "locked" | "changed" | "failed";

export interface RecoverResult {
  outcome: RecoverOutcome;
  plan?: RecoveryPlan;
  /** The plan's digest, as printed ("plan 1a2b3c4d5e6f"). */
  digest?: string;
  /** Milliseconds spent (reading state and history; the whole run). */
  timings: { readMs: number; totalMs: number };
}

/** History entries read: enough to reach the look-back point in any pipeline that recovers after each failure. */
export const HISTORY_PAGE = 50;

/**
 * The process exit code of an outcome: 0 done or nothing to do, 1 failed, 2 an ambiguity for a person (nothing proven),
 * 3 locked or changed under recover by a run (nothing changed).
 */
export const EXIT_CODES: Record<RecoverOutcome, number> = { nothing: 0, clean: 0, planned: 0, done: 0, ambiguous: 2, locked: 3, changed: 3, failed: 1 };

export async function recover(options: RecoverOptions, deps: RecoverDeps = {}): Promise<RecoverResult> {
  const started = performance.now();
  const out = deps.out ?? console.log;
  const env = deps.env ?? process.env;
  const cli = deps.cli ?? pulumiCli({ stack: options.stack, ...(options.cwd ? { cwd: options.cwd } : {}), env });
  const elapsed = () => Math.round(performance.now() - started);

  const [exported, history] = await Promise.all([cli.exportStack(), cli.history(HISTORY_PAGE)]);
  const plain = readStackState(exported);
  const readMs = elapsed();
  const timings = () => ({ readMs, totalMs: elapsed() });
  const hasPending = plain.pendingCreates.length > 0;
  if (nothingInterrupted(history, hasPending)) {
    out(`stack ${options.stack}: nothing pending and no failed update to look at; nothing to recover (read in ${readMs} ms)`);
    return { outcome: "nothing", timings: timings() };
  }

  // A run in progress holds the lock: nothing is read further, nothing done. A dead run's lock tells when it started.
  const stackUrn = stackUrnOf(plain, options.stack);
  const lock = await probe(cli, stackUrn);
  const starts: RunStarts = options.since ? { since: options.since } : {};
  if (lock.locked) {
    if (!options.releaseLock) {
      out(lockedMessage(options.stack, lock.holders));
      return { outcome: "locked", timings: timings() };
    }
    starts.lockTimes = lock.holders.map((h) => h.takenAt);
    for (const h of lock.holders) out(`  the lock of the dead run: taken by ${displayed(h.owner)} at ${h.takenAt.toISOString()}`);
    if (options.yes) {
      await cli.cancel();
      out(`  released the stack's lock (pulumi cancel), on your word that no run of ${options.stack} is in progress`);
      const again = await probe(cli, stackUrn);
      if (again.locked) {
        out(lockedMessage(options.stack, again.holders));
        return { outcome: "locked", timings: timings() };
      }
    }
  }

  // Something was interrupted: the state with its secrets (the accounts' credentials), the stack config, other stacks.
  const state = readStackState(await cli.exportStack({ showSecrets: true }));
  const config = await cli.config();
  const accounts = new RecoverAccounts(configLookup(config), state.providers, env, options.accountFromEnvironment === true);
  try {
    const recordedPartners = new Map<string, Set<number>>();
    const declare = (resource: SvcResource, fields: Record<string, unknown>): Declared | undefined => {
      const account = accounts.of(resource);
      if (!account) return undefined;
      const partnerId = resource.outputs.partnerId;
      if (typeof partnerId === "number") recordedPartners.set(account.key, (recordedPartners.get(account.key) ?? new Set()).add(partnerId));
      return { type: resource.type, account: account.key, fields, urn: resource.urn };
    };
    const unresolvedPending: { urn: string; type: string; why: string }[] = [];
    const pendingCreates = defined(
      state.pendingCreates.map((r) => {
        const declared = declare(r, r.inputs);
        // An adoption makes nothing: its account need not be told.
        if (!declared && adoptIdOf(r.inputs) === undefined)
          unresolvedPending.push({ urn: r.urn, type: r.type, why: accounts.unresolved.get(r.urn) ?? "unknown" });
        if (!declared && adoptIdOf(r.inputs) !== undefined) return { type: r.type, account: "?", fields: r.inputs, urn: r.urn };
        return declared;
      }),
    );
    const recorded = defined(state.resources.map((r) => declare(r, r.outputs)));
    // A run killed before its first answer recorded no object, yet its requests may have made some: its accounts too.
    accounts.ofStack();
    for (const [urn, why] of accounts.unresolved) out(`  cannot tell the account of ${urn}: ${why}; its objects are left alone`);
    const mismatched = accountsAgainstState(accounts.all(), recordedPartners);
    for (const line of mismatched) out(line);
    if (mismatched.length > 0) return { outcome: "ambiguous", timings: timings() };

    const backend = await backendView(cli, state, options.stack);
    const nowSec = () => Math.floor(Date.now() / 1000);
    // A request the interrupted run sent may still commit until its timeout: list after that.
    const answerMs = Math.max(0, ...accounts.all().map((a) => a.requestTimeoutMs));
    const settleAt = answersSettleAtMs(history, plain.writtenAtMs, hasPending, answerMs);
    const waitMs = Math.min(settleAt - Date.now(), deps.maxSettleWaitMs ?? answerMs);
    if (waitMs > 0) {
      out(`  waiting ${Math.ceil(waitMs / 1000)} s: a request the interrupted run sent may still reach the platform until its timeout`);
      await sleep(waitMs);
    }
    const windows = interruptedWindows(history, hasPending, nowSec(), Math.ceil(answerMs / 1000), starts);
    for (const w of new Set([...windows.failed, ...windows.pending]))
      out(`  looking at ${w.label}: objects created from ${iso(w.startSec)} until ${iso(w.endSec)}`);
    if (windows.unbounded) out(`  the pending creates' run cannot be bounded: ${windows.unbounded}`);
    const allWindows = [...windows.failed, ...windows.pending];
    const listed = accounts.all();
    const found = await listUnrecorded(listed, backend, allWindows);
    const input = {
      pendingCreates,
      unresolvedPending,
      recorded,
      foreignPending: backend.foreignPending,
      found,
      pendingWindows: windows.pending,
      ...(windows.unbounded ? { pendingUnbounded: windows.unbounded } : {}),
      failedWindows: windows.failed,
      nowSec: nowSec(),
    };
    let plan = planRecovery(wildcardAccounts(input));
    if (plan.deletes.length > 0 || plan.unexplained.length > 0) {
      // The program: what it creates again (the twins of unexplained objects) and what it adopts (never a candidate).
      let planned: Declared[];
      try {
        const steps = await plannedCreates(cli);
        planned = defined(steps.map((r) => declare(r, r.inputs)));
        for (const r of steps) {
          const adopted = adoptIdOf(r.inputs);
          if (adopted) backend.adopted.add(adopted);
        }
      } catch (error) {
        out(`  the program's planned creates and adoptions could not be read (${(error as Error).message}): nothing is deleted`);
        return { outcome: "failed", plan, timings: timings() };
      }
      // An account only the program names (a connection no recorded resource uses yet) is listed now.
      found.push(
        ...(await listUnrecorded(
          accounts.all().filter((a) => !listed.includes(a)),
          backend,
          allWindows,
        )),
      );
      plan = planRecovery(wildcardAccounts({ ...input, found: found.filter((f) => !backend.adopted.has(f.id)), planned }));
    }
    const digest = digestOf(plan);
    printPlan(plan, accounts, out, nowSec());
    // The newest update failed (or a run died): a refresh drops what the platform no longer holds (an object deleted
    // by hand meanwhile) and the pending creates. Once later updates succeeded, they have settled the state.
    const refresh = hasPending || newestUpdateFailed(history);
    if (refresh && plan.ambiguous.length === 0) {
      out("  the newest run was interrupted: the state is refreshed (pulumi refresh), which also drops its pending creates");
    }
    if (isEmptyPlan(plan) && !refresh) {
      out(`stack ${options.stack}: the platform holds nothing the interrupted runs left; nothing to recover (${elapsed()} ms)`);
      return { outcome: "clean", plan, digest, timings: timings() };
    }
    out(`  plan ${digest}`);
    if (!options.yes) {
      out(`Dry run: nothing was changed. Run again with --yes${options.expectPlan === undefined ? ` --expect-plan ${digest}` : ""} to do exactly this.`);
      return { outcome: plan.ambiguous.length > 0 ? "ambiguous" : "planned", plan, digest, timings: timings() };
    }
    if (options.expectPlan !== undefined && options.expectPlan !== digest) {
      out(`The plan is ${digest}, not ${options.expectPlan}: the stack or the platform changed since the dry run. Nothing was changed.`);
      return { outcome: "changed", plan, digest, timings: timings() };
    }
    const outcome = await apply(plan, refresh, cli, accounts, { stack: options.stack, stackUrn, state }, out);
    return { outcome, plan, digest, timings: timings() };
  } finally {
    await accounts.close();
  }
}

/**
 * Does the plan. The lock is probed again, then every state of the backend read again: a delete whose object is now
 * recorded or adopted anywhere (a run that ended meanwhile), or that another stack now has a pending create for,
 * stops everything. Then the deletes; then, only when every delete went through and nothing is ambiguous, the pending
 * creates are cleared (before that they are what lets a later recover find the objects again).
 */
async function apply(
  plan: RecoveryPlan,
  refresh: boolean,
  cli: PulumiCli,
  accounts: RecoverAccounts,
  stack: { stack: string; stackUrn: string; state: StackState },
  out: (line: string) => void,
): Promise<RecoverOutcome> {
  if (plan.deletes.length > 0) {
    const lock = await probe(cli, stack.stackUrn);
    if (lock.locked) {
      out(lockedMessage(stack.stack, lock.holders));
      return "locked";
    }
    const now = await backendView(cli, readStackState(await cli.exportStack()), stack.stack);
    const taken = plan.deletes.filter(
      (d) => now.recorded.has(d.id) || now.adopted.has(d.id) || now.foreignPending.some((f) => matches({ ...f, account: d.account }, d.object)),
    );
    if (taken.length > 0) {
      for (const d of taken) out(`  ${d.type} ${displayed(d.id)} is now recorded, adopted or pending in a state of the backend: a run is at work`);
      out(`stack ${stack.stack}: the backend changed while recover looked; nothing was changed. Run pulumi-svc recover again when no run is in progress.`);
      return "changed";
    }
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
    return "failed";
  }
  if (plan.ambiguous.length > 0) {
    out(`stack ${stack.stack}: what could be proven is done; the rest above needs a person (nothing of it was deleted or cleared)`);
    return "ambiguous";
  }
  if (refresh || plan.clears.length > 0) {
    await cli.clearPendingCreates();
    out(`  refreshed the state${plan.clears.length > 0 ? ` and cleared ${plan.clears.length} pending create(s)` : ""}`);
  }
  out(`stack ${stack.stack}: recovered; nothing is pending. Next: pulumi up`);
  return "done";
}

/** Probes the lock: `{ locked: false }`, or the holders a DIY backend names (none on Pulumi Cloud). */
async function probe(cli: PulumiCli, stackUrn: string): Promise<{ locked: boolean; holders: StackLockedError["holders"] }> {
  try {
    await cli.probeLock(stackUrn);
    return { locked: false, holders: [] };
  } catch (error) {
    if (!(error instanceof StackLockedError)) throw error;
    return { locked: true, holders: error.holders };
  }
}

function lockedMessage(stack: string, holders: StackLockedError["holders"]): string {
  const who = holders.map((h) => ` (taken by ${displayed(h.owner)} at ${h.takenAt.toISOString()})`).join("");
  return (
    `The stack ${stack} is locked${who}: a run is in progress, or one died. Nothing was changed. If no pulumi run of it is in ` +
    `progress (its runner died), run pulumi-svc recover --stack ${stack} --yes --release-lock: it reads when the dead run started ` +
    "from the lock, then releases it (pulumi cancel). Releasing it by hand first loses that time."
  );
}

/**
 * The root resource's URN, or, when the state has none (a first run that died early), the one the engine gives it
 * (`urn:pulumi:<stack>::<project>::pulumi:pulumi:Stack::<project>-<stack>`): a refresh targeting it takes the lock all
 * the same.
 */
function stackUrnOf(state: StackState, stack: string): string {
  if (state.stackUrn) return state.stackUrn;
  const urn = state.resources[0]?.urn ?? state.pendingCreates[0]?.urn ?? "";
  const [, stackName, project] = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn) ?? [undefined, stack.split("/").pop(), "project"];
  return `urn:pulumi:${stackName}::${project}::pulumi:pulumi:Stack::${project}-${stackName}`;
}

function printPlan(plan: RecoveryPlan, accounts: RecoverAccounts, out: (line: string) => void, nowSec: number): void {
  const accountOf = (key: string) => {
    const account = accounts.all().find((a) => a.key === key);
    return account ? `account ${account.baseUrl} partner ${account.partnerId}` : `account ${key}`;
  };
  for (const c of plan.clears) out(`  clear pending create ${c.urn} (${c.type}): ${c.reason}`);
  for (const d of plan.deletes) {
    out(
      `  delete ${d.type} ${displayed(d.id)} "${displayed(d.name)}" in ${accountOf(d.account)}, created ${new Date(d.createdAt * 1000).toISOString()} ` +
        `(${ageText(nowSec - d.createdAt)}): ${d.proof}`,
    );
  }
  for (const a of plan.ambiguous) {
    out(
      `  NOT SETTLED ${a.type}: pending create(s) ${a.urns.join(", ")}${a.candidates.length > 0 ? ` and candidates ${a.candidates.map(displayed).join(", ")}` : ""}: ${a.reason}. ` +
        "Nothing was guessed: delete the ones this stack made (or adopt one with adoptId), then run recover again",
    );
  }
  for (const l of plan.leftAlone) out(`  left alone ${l.type} ${displayed(l.id)}: ${l.reason}`);
  if (plan.unexplained.length > 0) {
    out(`  ${plan.unexplained.length} other object(s) created in the window match nothing this stack declares: left alone`);
    for (const u of plan.unexplained) out(`    ${u.type} ${displayed(u.id)} "${displayed(u.name)}" in ${accountOf(u.account)}`);
  }
}

/** A short digest of what the plan does: a dry run prints it, --expect-plan holds --yes to it. */
function digestOf(plan: RecoveryPlan): string {
  const what = {
    deletes: plan.deletes.map((d) => [d.type, d.account, d.id]).sort(),
    clears: plan.clears.map((c) => c.urn).sort(),
    ambiguous: plan.ambiguous.map((a) => [a.urns, a.candidates]),
  };
  return createHash("sha256").update(JSON.stringify(what)).digest("hex").slice(0, 12);
}

/** What the backend's states say, all stacks: ids recorded, ids adopted, and other stacks' pending creates. */
interface BackendView extends Managed {
  recorded: Set<string>;
  adopted: Set<string>;
  foreignPending: Declared[];
}

async function backendView(cli: PulumiCli, own: StackState, ownName: string): Promise<BackendView> {
  const states: { name: string; state: StackState }[] = [{ name: ownName, state: own }];
  const ownPrefix = urnPrefix(own);
  for (const name of await cli.stacks()) {
    const state = readStackState(await cli.exportStack({ stack: name }));
    if (ownPrefix !== undefined && urnPrefix(state) === ownPrefix) continue;
    states.push({ name, state });
  }
  const recorded = new Set<string>();
  const adopted = new Set<string>();
  const foreignPending: Declared[] = [];
  for (const { name, state } of states) {
    for (const r of state.recordedIds) recorded.add(r.id);
    for (const r of [...state.resources, ...state.pendingCreates]) {
      const id = adoptIdOf(r.inputs);
      if (id) adopted.add(id);
    }
    if (name !== ownName) {
      for (const r of state.pendingCreates) foreignPending.push({ type: r.type, account: "*", fields: r.inputs, urn: r.urn, stack: name });
    }
  }
  const managedIds = [...states.flatMap(({ state }) => state.recordedIds)];
  return { recorded, adopted, foreignPending, ids: managedIds, names: new Map() };
}

/** The objects of every account that no state records, that no adoptId names, and that were created in a window. */
async function listUnrecorded(accounts: RecoverAccount[], backend: BackendView, windows: readonly Window[]): Promise<Found[]> {
  const listed: Found[] = [];
  for (const account of accounts) {
    const listing = await listCandidates(account.context(), account.partnerId, backend, { includeDisabled: true });
    for (const candidate of listing.candidates) {
      const createdAt = Number(candidate.inputs.createdAt);
      if (!Number.isFinite(createdAt)) continue;
      listed.push({ type: candidate.definition.type, id: candidate.id, fields: candidate.inputs, account: account.key, createdAt, name: candidate.label });
    }
  }
  return considered(listed, backend, windows);
}

/**
 * An account taken from this process's environment must be the one the state's objects belong to: every partner id
 * the state records for it equals the environment's. Lines saying where it is not (recover then stops).
 */
function accountsAgainstState(accounts: RecoverAccount[], recordedPartners: Map<string, Set<number>>): string[] {
  const lines: string[] = [];
  for (const account of accounts) {
    const partners = [...(recordedPartners.get(account.key) ?? [])].filter((p) => p !== account.partnerId);
    if (account.fromEnvironment && partners.length > 0) {
      lines.push(
        `  the environment names partner ${account.partnerId}, but the state records objects of partner ${partners.join(", ")}: ` +
          "these are not the run's SVC_* variables. Nothing was changed",
      );
    }
  }
  return lines;
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
