/**
 * Recover's promise, as a property over generated histories, locks, states and listings (provider/cli/recoverWindow.ts,
 * recoverMatch.ts): whatever the stack's past, the objects it plans to delete were all created inside the span of an
 * interrupted run of this stack (its start to its end plus the request timeout, with the clock slack), none is named
 * by an adoptId, none is recorded by any state, and each has every creation field of something this stack declares.
 * The generator makes the hard cases on purpose: objects with the very fields of a pending create made by hand long
 * before the run, during another stack's run, or adopted; histories crowded by refreshes; a young stack; locks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { considered, type Declared, type Found, matches, planRecovery } from "../../provider/cli/recoverMatch";
import { type HistoryEntry, interruptedWindows, WINDOW_SLACK_SECONDS } from "../../provider/cli/recoverWindow";

const A = "http://127.0.0.1:1/api_v3#101";
const NOW = 1_000_000;
const ANSWER_SEC = 30;
const descriptions = ["deploy", "ingest", "player"];

/** A span of a real run of this stack, as the generator made it (the truth the property checks against). */
interface Run {
  start: number;
  end: number;
  result: "succeeded" | "failed" | "in-progress" | "dead";
}

const token = (description: string) => ({ description, hashType: "SHA256", sessionType: "USER", sessionPrivileges: "list:*", sessionDuration: 86400 });

const scenario = fc
  .record({
    runs: fc.array(
      fc.record({
        gap: fc.integer({ min: 1, max: 50_000 }),
        length: fc.integer({ min: 1, max: 3_000 }),
        result: fc.constantFrom<Run["result"]>("succeeded", "succeeded", "failed", "in-progress"),
      }),
      { maxLength: 8 },
    ),
    refreshes: fc.integer({ min: 0, max: 30 }),
    deadRunLocked: fc.boolean(),
    deadRun: fc.boolean(),
    pending: fc.array(fc.constantFrom(...descriptions), { maxLength: 4 }),
    adoptPending: fc.boolean(),
    objects: fc.array(
      fc.record({
        at: fc.integer({ min: 0, max: NOW }),
        description: fc.constantFrom(...descriptions, "by hand"),
        recorded: fc.boolean(),
        adopted: fc.boolean(),
      }),
      { maxLength: 20 },
    ),
    recordedTwins: fc.array(fc.constantFrom(...descriptions), { maxLength: 3 }),
    foreign: fc.array(fc.constantFrom(...descriptions), { maxLength: 2 }),
  })
  .map((s) => {
    // The stack's runs, oldest first, never overlapping (the lock serializes them); the last may have died.
    let t = 100_000;
    const runs: Run[] = s.runs.map((r) => {
      t += r.gap;
      // An update the history shows in progress (Pulumi Cloud: its runner died) has no end: it spans to now.
      const run = { start: t, end: r.result === "in-progress" ? NOW : t + r.length, result: r.result };
      t += r.length;
      return run;
    });
    if (s.deadRun) runs.push({ start: t + 10, end: NOW, result: "dead" });
    return { ...s, runs };
  });

describe("recover never deletes what an interrupted run of this stack did not provably make", () => {
  it("holds over generated histories, locks, states and listings", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const history: HistoryEntry[] = [];
        s.runs.forEach((run, i) => {
          if (run.result === "dead") return; // a dead run of a DIY backend is in no history
          history.push({
            version: i + 1,
            kind: "update",
            result: run.result,
            startTime: new Date(run.start * 1000).toISOString(),
            ...(run.result === "in-progress" ? {} : { endTime: new Date(run.end * 1000).toISOString() }),
          });
        });
        for (let i = 0; i < s.refreshes; i++)
          history.push({ version: 1_000 + i, kind: "refresh", result: "succeeded", startTime: new Date((NOW - i) * 1000).toISOString() });
        const dead = s.runs.find((r) => r.result === "dead");
        const lockTimes = dead && s.deadRunLocked ? [new Date(dead.start * 1000)] : [];
        const windows = interruptedWindows(history, s.pending.length > 0, NOW, ANSWER_SEC, { lockTimes });

        const listed: Found[] = s.objects.map((o, i) => ({
          type: "AppToken",
          account: A,
          id: `0_${i}`,
          createdAt: o.at,
          name: o.description,
          fields: token(o.description),
        }));
        const recorded = new Set(listed.filter((_, i) => s.objects[i]!.recorded).map((o) => o.id));
        const adopted = new Set(listed.filter((_, i) => s.objects[i]!.adopted).map((o) => o.id));
        const found = considered(listed, { recorded, adopted }, [...windows.failed, ...windows.pending]);
        const pendingCreates: Declared[] = s.pending.map((d, i) => ({
          type: "AppToken",
          account: A,
          urn: `urn:p${i}`,
          fields: { ...token(d), ...(s.adoptPending && i === 0 ? { adoptId: "0_0" } : {}) },
        }));
        const declaredTwins: Declared[] = s.recordedTwins.map((d) => ({ type: "AppToken", account: A, fields: token(d) }));
        const plan = planRecovery({
          pendingCreates,
          recorded: declaredTwins,
          foreignPending: s.foreign.map((d) => ({ type: "AppToken", account: A, fields: token(d), stack: "other" })),
          found,
          pendingWindows: windows.pending,
          ...(windows.unbounded ? { pendingUnbounded: windows.unbounded } : {}),
          failedWindows: windows.failed,
          nowSec: NOW,
        });

        // The spans of the interrupted runs, from the generator's truth (not from the code under test).
        const interrupted = s.runs.filter((r) => r.result !== "succeeded" && (r.result !== "dead" || s.deadRunLocked));
        for (const d of plan.deletes) {
          expect(recorded.has(d.id)).toBe(false);
          expect(adopted.has(d.id)).toBe(false);
          expect(
            interrupted.some((r) => d.createdAt >= r.start - WINDOW_SLACK_SECONDS && d.createdAt <= Math.min(NOW, r.end + ANSWER_SEC) + WINDOW_SLACK_SECONDS),
          ).toBe(true);
          const object = listed.find((o) => o.id === d.id)!;
          expect([...pendingCreates, ...declaredTwins].some((decl) => matches(decl, object))).toBe(true);
        }
        // A dead run with no record of its start: nothing is matched to its pending creates, none is cleared as "nothing made".
        if (windows.unbounded) {
          expect(plan.clears.filter((c) => !/adoption/.test(c.reason))).toEqual([]);
        }
        // The objects no generated run could have made (made by hand) are never deleted.
        for (const d of plan.deletes) expect(d.name).not.toBe("by hand");
      }),
      { numRuns: 2_000 },
    );
  });
});
