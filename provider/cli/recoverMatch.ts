/**
 * What `pulumi-svc recover` does with what it found (pure: no I/O, tested on its own). An object is the platform's
 * (listed, never recorded by any state of the backend, created inside an interrupted run's window); a declaration is
 * what the stack says it wants (a pending create's inputs, a resource the state holds, a create the program plans).
 * - A pending create is cleared, and the object it made (exactly one match) is deleted: the next `up` creates it again.
 *   The engine cannot adopt it (its `refresh --import-pending-creates` marks the operation "importing", which no
 *   later step reads: the operation is dropped, the object stays unrecorded), and a lost create's token value was
 *   never handed to anyone. Several identical pending creates with as many identical objects or fewer take them all
 *   (the objects are interchangeable); candidates that differ, or more candidates than creates, are an ambiguity:
 *   reported, nothing guessed, nothing deleted or cleared.
 * - An object no pending create took is deleted when the state already holds its twin (the next `up` already made
 *   it) or the program plans to create it (a lost create's token value was never handed to anyone; a template's
 *   unrecorded clone would block the next create of its systemName).
 * - An object that matches another stack's pending create is that stack's, whatever this stack declares: left alone.
 * Everything else (objects of other people, other programs) is never touched.
 */

/** The fields by which a create's object is recognised, per type (what the create sends). */
const CREATION_FIELDS: Record<string, readonly string[]> = {
  AppToken: ["description", "hashType", "sessionType", "sessionDuration", "sessionPrivileges", "sessionUserId", "expiry"],
  HttpNotificationTemplate: ["name", "url", "description"],
  EmailNotificationTemplate: ["name", "subject", "description"],
};
/** Fields the platform reports as "" when they were not sent. */
const EMPTY_AS_UNSET: readonly string[] = ["description", "sessionPrivileges", "sessionUserId"];

/** What the stack wants of one object: its type, account, and inputs (or outputs, for a resource the state holds). */
export interface Declared {
  type: string;
  /** Account key (base URL and partner id). */
  account: string;
  fields: Record<string, unknown>;
  /** For a pending create: its URN. */
  urn?: string;
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
}

export interface RecoveryInput {
  pendingCreates: Declared[];
  /** Resources the stack's state holds (their outputs). */
  recorded: Declared[];
  /** Creates the program plans (a preview's), when looked for. */
  planned?: Declared[];
  /** Other stacks' pending creates: objects matching them are theirs. */
  foreignPending: Declared[];
  /** Objects created in a window of an interrupted run of this stack (pending-create window first). */
  found: Found[];
  /** Objects created in the window of the run that left pending creates (a subset of `found`, by id). */
  inPendingWindow: (object: Found) => boolean;
}

export interface RecoveryPlan {
  clears: { urn: string; type: string; reason: string }[];
  deletes: { type: string; account: string; id: string; reason: string }[];
  /** Pending creates left as they are, with the reason (an ambiguity a person must settle). */
  ambiguous: { urns: string[]; type: string; candidates: string[]; reason: string }[];
  /** Objects that match something of this stack but are not ours to touch. */
  leftAlone: { type: string; id: string; reason: string }[];
  /** Objects no pending create took and no twin explains: a preview's planned creates may (see `planned`). */
  unexplained: Found[];
}

/** Whether `object` is what a create of `declared` would have made. */
export function matches(declared: Declared, object: Found): boolean {
  if (declared.type !== object.type || declared.account !== object.account) return false;
  const systemName = declared.fields.systemName;
  if (declared.type !== "AppToken" && typeof systemName === "string" && systemName !== "") return object.fields.systemName === systemName;
  return (CREATION_FIELDS[declared.type] ?? []).every((key) => {
    const wanted = declared.fields[key];
    if (wanted === undefined || wanted === null) return true; // not sent: the platform's default, whatever it is
    return same(key, wanted, object.fields[key]);
  });
}

const normalized = (key: string, value: unknown): unknown => (EMPTY_AS_UNSET.includes(key) && (value === undefined || value === null) ? "" : value);
const same = (key: string, a: unknown, b: unknown): boolean => JSON.stringify(normalized(key, a)) === JSON.stringify(normalized(key, b));

/** The creation fields of an object as one string: two objects with equal keys are interchangeable. */
function creationKey(object: Found): string {
  const keys = object.type === "AppToken" ? (CREATION_FIELDS.AppToken ?? []) : ["systemName", ...(CREATION_FIELDS[object.type] ?? [])];
  return JSON.stringify([object.type, object.account, ...keys.map((key) => normalized(key, object.fields[key]))]);
}

const declaredKey = (d: Declared): string =>
  JSON.stringify([
    d.type,
    d.account,
    ...(d.type === "AppToken" ? [] : [d.fields.systemName ?? null]),
    ...(CREATION_FIELDS[d.type] ?? []).map((k) => d.fields[k] ?? null),
  ]);

export function planRecovery(input: RecoveryInput): RecoveryPlan {
  const plan: RecoveryPlan = { clears: [], deletes: [], ambiguous: [], leftAlone: [], unexplained: [] };
  // Another stack's run in progress (or dead) made these: never ours.
  const ours: Found[] = [];
  for (const object of input.found) {
    if (input.foreignPending.some((d) => matches(d, object))) {
      plan.leftAlone.push({ type: object.type, id: object.id, reason: "it matches a pending create of another stack of this backend" });
    } else ours.push(object);
  }
  const claimed = new Set<string>();

  // Pending creates: grouped by what they would create (identical creates are interchangeable).
  const groups = new Map<string, Declared[]>();
  for (const pending of input.pendingCreates) groups.set(declaredKey(pending), [...(groups.get(declaredKey(pending)) ?? []), pending]);
  const candidatesOf = new Map<string, Found[]>();
  for (const [key, creates] of groups) {
    candidatesOf.set(
      key,
      ours.filter((object) => input.inPendingWindow(object) && matches(creates[0]!, object)),
    );
  }
  // An object two groups could claim settles neither.
  const claimers = new Map<string, number>();
  for (const found of candidatesOf.values()) for (const object of found) claimers.set(object.id, (claimers.get(object.id) ?? 0) + 1);
  for (const [key, creates] of groups) {
    const candidates = candidatesOf.get(key) ?? [];
    const urns = creates.map((c) => c.urn ?? "?");
    const type = creates[0]!.type;
    const ids = candidates.map((c) => c.id);
    const shared = candidates.some((c) => (claimers.get(c.id) ?? 0) > 1);
    const differ = new Set(candidates.map(creationKey)).size > 1;
    if (shared || differ || candidates.length > creates.length) {
      const why = shared
        ? "a candidate also matches another pending create"
        : differ
          ? "the candidates differ from one another"
          : `${candidates.length} candidates for ${creates.length} create${creates.length === 1 ? "" : "s"}`;
      plan.ambiguous.push({ urns, type, candidates: ids, reason: why });
      for (const id of ids) claimed.add(id);
      continue;
    }
    creates.forEach((create, i) => {
      const object = candidates[i];
      const urn = create.urn ?? "?";
      if (object) {
        claimed.add(object.id);
        const twins = creates.length > 1 ? ` (one of ${creates.length} identical creates, paired with one of ${candidates.length} identical objects)` : "";
        plan.deletes.push({
          type,
          account: object.account,
          id: object.id,
          reason: `the interrupted create of ${urn} made it${twins}; the next up creates it again`,
        });
        plan.clears.push({ urn, type, reason: `its object ${object.id} is deleted` });
      } else {
        plan.clears.push({ urn, type, reason: "the platform holds no object this create made" });
      }
    });
  }

  // Objects no pending create took: ours to delete when the stack already holds or plans their twin.
  for (const object of ours) {
    if (claimed.has(object.id)) continue;
    if (input.recorded.some((d) => matches(d, object))) {
      plan.deletes.push({ type: object.type, account: object.account, id: object.id, reason: "an interrupted run made it and the state holds its twin" });
    } else if (input.planned?.some((d) => matches(d, object))) {
      plan.deletes.push({ type: object.type, account: object.account, id: object.id, reason: "an interrupted run made it and the program creates it again" });
    } else {
      plan.unexplained.push(object);
    }
  }
  return plan;
}

/** Whether the plan changes nothing and needs nobody. */
export function isEmptyPlan(plan: RecoveryPlan): boolean {
  return plan.clears.length + plan.deletes.length + plan.ambiguous.length === 0;
}
