/**
 * What `pulumi-svc recover` does with what it found (pure: no I/O, tested on its own). An object is the platform's
 * (listed, recorded by no state of the backend, named by no adoptId); a declaration is what the stack says it wants
 * (a pending create's inputs, a resource the state holds, a create the program plans). An object is deleted only
 * with a proof that an interrupted run of this stack made it: it was created inside that run's own window and it has
 * every field a create of this stack sends (the definition's `recovery.creationFields`).
 * - A pending create is cleared, and the object it made (exactly one match) is deleted: the next `up` creates it again.
 *   The engine cannot adopt it (its `refresh --import-pending-creates` marks the operation "importing", which no
 *   later step reads), and a lost create's token value was never handed to anyone. Several identical pending creates
 *   with as many identical objects or fewer take them all (the objects are interchangeable); candidates that differ,
 *   more candidates than creates, or a candidate another stack's pending create could also have made, are an
 *   ambiguity: reported, nothing guessed, nothing deleted or cleared.
 * - A pending create whose run cannot be bounded in time, or whose account cannot be told, is reported and kept: a
 *   later recover (or a person) settles it. It is never cleared as "nothing made".
 * - A pending adoption (adoptId) made nothing: it is cleared, and what it names is never a candidate.
 * - An object no pending create took is deleted when it was made inside an interrupted run's window and the state
 *   already holds its twin (the next `up` already made it) or the program plans to create it.
 * - An object that matches another stack's pending create and nothing of this stack is that stack's: left alone.
 * Everything else (objects of other people, other programs) is never touched.
 */
import { DEFINITIONS } from "../definitions";
import type { RecoveryTraits } from "../definitions/define";
import { type Window, windowOf } from "./recoverWindow";

/** What the stack wants of one object: its type, account, and inputs (or outputs, for a resource the state holds). */
export interface Declared {
  type: string;
  /** Account key (base URL and partner id). */
  account: string;
  fields: Record<string, unknown>;
  /** For a pending create: its URN. */
  urn?: string;
  /** For another stack's declaration: that stack's name. */
  stack?: string;
}

/** An object of the platform that no state records. */
export interface Found {
  type: string;
  account: string;
  id: string;
  /** Unix seconds, platform clock. */
  createdAt: number;
  /** Its state as the definitions' list() gives it (the outputs' field names). */
  fields: Record<string, unknown>;
  /** How a person recognises it: a token's description, a template's system name or name. */
  name: string;
}

export interface RecoveryInput {
  pendingCreates: Declared[];
  /** Pending creates whose account could not be told: kept, and reported (URN and why). */
  unresolvedPending?: { urn: string; type: string; why: string }[];
  /** Resources the stack's state holds (their outputs). */
  recorded: Declared[];
  /** Creates the program plans (a preview's), when looked for. */
  planned?: Declared[];
  /** Other stacks' pending creates: objects matching them may be theirs. */
  foreignPending: Declared[];
  /** Unrecorded, unadopted objects of the stack's accounts. */
  found: Found[];
  /** The windows of the runs that may have left the pending creates (empty: unbounded). */
  pendingWindows: readonly Window[];
  /** Why the pending creates' run cannot be bounded, when it cannot. */
  pendingUnbounded?: string;
  /** The windows of failed or unfinished updates (their objects' twins). */
  failedWindows: readonly Window[];
  /** Now, unix seconds (for ages in the plan). */
  nowSec: number;
}

/** An object recover deletes, with what a person needs to judge it. */
export interface PlannedDelete {
  type: string;
  account: string;
  id: string;
  /** Its description or name. */
  name: string;
  createdAt: number;
  /** Why it is this stack's: the run's window and what it matches. */
  proof: string;
  /** The object as listed (checked again right before the delete). */
  object: Found;
}

export interface RecoveryPlan {
  clears: { urn: string; type: string; reason: string }[];
  deletes: PlannedDelete[];
  /** Pending creates left as they are, with the reason (an ambiguity a person must settle). */
  ambiguous: { urns: string[]; type: string; candidates: string[]; reason: string }[];
  /** Objects that match something of this stack but are not ours to touch. */
  leftAlone: { type: string; id: string; reason: string }[];
  /** Objects no pending create took and no twin explains: a preview's planned creates may (see `planned`). */
  unexplained: Found[];
}

const traitsOf = (type: string): RecoveryTraits | undefined => DEFINITIONS.find((d) => d.type === type)?.recovery;

const normalized = (traits: RecoveryTraits, key: string, value: unknown): unknown =>
  traits.emptyAsUnset.includes(key) && (value === undefined || value === null) ? "" : value;

/** Whether `object` is what a create of `declared` would have made: every creation field it sent is the object's. */
export function matches(declared: Declared, object: Found): boolean {
  if (declared.type !== object.type || declared.account !== object.account) return false;
  const traits = traitsOf(declared.type);
  if (!traits) return false; // a type recover does not know is never matched, hence never deleted
  return traits.creationFields.every((key) => {
    const wanted = declared.fields[key];
    if (wanted === undefined || wanted === null) return true; // not sent: the platform's default, whatever it is
    return JSON.stringify(normalized(traits, key, wanted)) === JSON.stringify(normalized(traits, key, object.fields[key]));
  });
}

/** The creation fields of an object as one string: two objects with equal keys are interchangeable. */
function creationKey(object: Found): string {
  const traits = traitsOf(object.type);
  return JSON.stringify([object.type, object.account, ...(traits?.creationFields ?? []).map((key) => normalized(traits!, key, object.fields[key]))]);
}

const declaredKey = (d: Declared): string => JSON.stringify([d.type, d.account, ...(traitsOf(d.type)?.creationFields ?? []).map((k) => d.fields[k] ?? null)]);

/** The adoptId a declaration carries (an adoption makes nothing), if any. */
export const adoptIdOf = (fields: Record<string, unknown>): string | undefined =>
  typeof fields.adoptId === "string" && fields.adoptId !== "" ? fields.adoptId : undefined;

/**
 * The listed objects recover may consider: recorded by no state of the backend, named by no adoptId anywhere, and
 * created inside a window of an interrupted run of this stack. Everything else is never a candidate.
 */
export function considered(
  listed: readonly Found[],
  backend: { recorded: ReadonlySet<string>; adopted: ReadonlySet<string> },
  windows: readonly Window[],
): Found[] {
  return listed.filter((o) => !backend.recorded.has(o.id) && !backend.adopted.has(o.id) && windowOf(windows, o.createdAt) !== undefined);
}

export function planRecovery(input: RecoveryInput): RecoveryPlan {
  const plan: RecoveryPlan = { clears: [], deletes: [], ambiguous: [], leftAlone: [], unexplained: [] };
  const claimed = new Set<string>();
  const foreignOf = (object: Found) => input.foreignPending.filter((d) => matches(d, object));

  for (const unresolved of input.unresolvedPending ?? []) {
    plan.ambiguous.push({
      urns: [unresolved.urn],
      type: unresolved.type,
      candidates: [],
      reason: `its account cannot be told (${unresolved.why}); it is kept`,
    });
  }

  // Pending adoptions made nothing: cleared (the next up adopts again).
  const creates: Declared[] = [];
  for (const pending of input.pendingCreates) {
    const adopted = adoptIdOf(pending.fields);
    if (adopted !== undefined) plan.clears.push({ urn: pending.urn ?? "?", type: pending.type, reason: `an adoption (adoptId ${adopted}) makes nothing` });
    else creates.push(pending);
  }

  // Pending creates: grouped by what they would create (identical creates are interchangeable).
  const groups = new Map<string, Declared[]>();
  for (const pending of creates) groups.set(declaredKey(pending), [...(groups.get(declaredKey(pending)) ?? []), pending]);
  if (input.pendingWindows.length === 0 && groups.size > 0) {
    for (const group of groups.values()) {
      plan.ambiguous.push({
        urns: group.map((c) => c.urn ?? "?"),
        type: group[0]!.type,
        candidates: [],
        reason: `the run that left ${group.length === 1 ? "it" : "them"} cannot be bounded in time (${input.pendingUnbounded ?? "no record of its start"}); nothing is matched to ${group.length === 1 ? "it" : "them"} and ${group.length === 1 ? "it is" : "they are"} kept`,
      });
    }
    groups.clear();
  }
  const candidatesOf = new Map<string, Found[]>();
  for (const [key, group] of groups) {
    candidatesOf.set(
      key,
      input.found.filter((object) => windowOf(input.pendingWindows, object.createdAt) !== undefined && matches(group[0]!, object)),
    );
  }
  // An object two groups could claim settles neither.
  const claimers = new Map<string, number>();
  for (const found of candidatesOf.values()) for (const object of found) claimers.set(object.id, (claimers.get(object.id) ?? 0) + 1);
  for (const [key, group] of groups) {
    const candidates = candidatesOf.get(key) ?? [];
    const urns = group.map((c) => c.urn ?? "?");
    const type = group[0]!.type;
    const ids = candidates.map((c) => c.id);
    const shared = candidates.some((c) => (claimers.get(c.id) ?? 0) > 1);
    const foreign = candidates.flatMap((c) => foreignOf(c).map((d) => d.stack ?? "another stack"));
    const differ = new Set(candidates.map(creationKey)).size > 1;
    if (shared || foreign.length > 0 || differ || candidates.length > group.length) {
      const why = shared
        ? "a candidate also matches another pending create of this stack"
        : foreign.length > 0
          ? `a candidate also matches a pending create of ${[...new Set(foreign)].join(", ")}: either run may have made it`
          : differ
            ? "the candidates differ from one another"
            : `${candidates.length} candidates for ${group.length} create${group.length === 1 ? "" : "s"}`;
      plan.ambiguous.push({ urns, type, candidates: ids, reason: why });
      for (const id of ids) claimed.add(id);
      continue;
    }
    group.forEach((create, i) => {
      const object = candidates[i];
      const urn = create.urn ?? "?";
      if (object) {
        claimed.add(object.id);
        const twins = group.length > 1 ? ` (one of ${group.length} identical creates, paired with one of ${candidates.length} identical objects)` : "";
        const window = windowOf(input.pendingWindows, object.createdAt)!;
        plan.deletes.push({
          ...deleted(object),
          proof: `made inside ${window.label}; it has every field the pending create ${urn} sends${twins}; the next up creates it again`,
        });
        plan.clears.push({ urn, type, reason: `its object ${object.id} is deleted` });
      } else {
        plan.clears.push({ urn, type, reason: "no object with its fields was created inside the window of the run that left it" });
      }
    });
  }

  // Objects no pending create took: ours to delete when an interrupted run made them and the stack holds or plans their twin.
  for (const object of input.found) {
    if (claimed.has(object.id)) continue;
    const window = windowOf([...input.failedWindows, ...input.pendingWindows], object.createdAt);
    if (!window) continue; // made outside every interrupted run of this stack: never ours
    const foreign = foreignOf(object);
    if (foreign.length > 0) {
      plan.leftAlone.push({
        type: object.type,
        id: object.id,
        reason: `it matches a pending create of ${foreign[0]!.stack ?? "another stack"} of this backend`,
      });
      continue;
    }
    const twin = input.recorded.find((d) => matches(d, object));
    const planned = twin ? undefined : input.planned?.find((d) => matches(d, object));
    if (twin || planned) {
      plan.deletes.push({
        ...deleted(object),
        proof: `made inside ${window.label}; it has every creation field of ${(twin ?? planned)!.urn ?? "a resource of this stack"}, which ${twin ? "the state already holds" : "the program creates again"}`,
      });
    } else {
      plan.unexplained.push(object);
    }
  }
  return plan;
}

const deleted = (object: Found): Omit<PlannedDelete, "proof"> => ({
  type: object.type,
  account: object.account,
  id: object.id,
  name: object.name,
  createdAt: object.createdAt,
  object,
});

/** "12 min ago", "3 h ago", "5 d ago". */
export function ageText(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, Math.round(seconds))} s ago`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 172_800) return `${Math.round(seconds / 3_600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

/** Whether the plan changes nothing and needs nobody. */
export function isEmptyPlan(plan: RecoveryPlan): boolean {
  return plan.clears.length + plan.deletes.length + plan.ambiguous.length === 0;
}
