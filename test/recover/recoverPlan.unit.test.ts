/**
 * The recover command's decisions, on their own (provider/cli/recoverMatch.ts, recoverWindow.ts): which pending
 * create's object it deletes, which pending creates it clears, which other unrecorded object it deletes, and when it
 * refuses to guess: a run it cannot bound in time, an object another stack's run may have made, a template whose
 * fields differ.
 */
import { describe, expect, it } from "vitest";
import { type Declared, type Found, matches, planRecovery, type RecoveryInput } from "../../provider/cli/recoverMatch";
import { interruptedWindows, nothingInterrupted, WINDOW_SLACK_SECONDS, type Window, windowOf } from "../../provider/cli/recoverWindow";

const A = "http://127.0.0.1:1/api_v3#101";
const tokenFields = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  hashType: "SHA256",
  sessionType: "USER",
  sessionPrivileges: "list:*",
  ...extra,
});
const pending = (urn: string, fields: Record<string, unknown>, type = "AppToken"): Declared => ({ type, account: A, fields, urn: `urn:${urn}` });
const object = (id: string, fields: Record<string, unknown>, type = "AppToken", createdAt = 1000): Found => ({
  type,
  account: A,
  id,
  createdAt,
  name: String(fields.description ?? fields.systemName ?? id),
  fields: { sessionDuration: 86400, expiry: 0, sessionUserId: "", ...fields },
});
const RUN: Window = { startSec: 900, endSec: 1100, label: "the run whose lock was taken at T" };
const input = (over: Partial<RecoveryInput>): RecoveryInput => ({
  pendingCreates: [],
  recorded: [],
  foreignPending: [],
  found: [],
  pendingWindows: [RUN],
  failedWindows: [],
  nowSec: 1200,
  ...over,
});

describe("matching a create to an object", () => {
  it("a token by every creation field the create sent; unsent fields take any value", () => {
    const declared = pending("t", tokenFields("deploy"));
    expect(matches(declared, object("0_a", tokenFields("deploy")))).toBe(true);
    expect(matches(declared, object("0_b", tokenFields("deploy", { sessionPrivileges: "list:1" })))).toBe(false);
    expect(matches(declared, object("0_c", tokenFields("deploy", { hashType: "SHA1" })))).toBe(false);
    expect(matches({ ...declared, account: "other#2" }, object("0_a", tokenFields("deploy")))).toBe(false);
    expect(matches(pending("t", tokenFields("deploy", { sessionDuration: 60 })), object("0_a", tokenFields("deploy")))).toBe(false);
  });

  it("a template by every field its clone sent: a hand-made one with the same systemName but another url or name is not it", () => {
    const http = (id: string, fields: Record<string, unknown>) => object(id, fields, "HttpNotificationTemplate");
    const declared = pending("h", { systemName: "S1", name: "x", url: "https://a.example/h", method: "POST" }, "HttpNotificationTemplate");
    expect(matches(declared, http("1", { systemName: "S1", name: "x", url: "https://a.example/h", method: "POST" }))).toBe(true);
    expect(matches(declared, http("2", { systemName: "S1", name: "x", url: "https://other.example/h", method: "POST" }))).toBe(false);
    expect(matches(declared, http("3", { systemName: "S1", name: "by hand", url: "https://a.example/h", method: "POST" }))).toBe(false);
    expect(matches(pending("h", { systemName: "S1" }, "HttpNotificationTemplate"), http("1", { systemName: "S2" }))).toBe(false);
    const email = pending("e", { systemName: "E1", name: "n", subject: "s", body: "b" }, "EmailNotificationTemplate");
    expect(matches(email, object("4", { systemName: "E1", name: "n", subject: "s", body: "b" }, "EmailNotificationTemplate"))).toBe(true);
    expect(matches(email, object("5", { systemName: "E1", name: "n", subject: "s", body: "other" }, "EmailNotificationTemplate"))).toBe(false);
    const named = pending("h", { name: "n", url: "https://a.example/h", description: "" }, "HttpNotificationTemplate");
    expect(matches(named, http("1", { name: "n", url: "https://a.example/h", description: "" }))).toBe(true);
    expect(matches(named, http("2", { name: "n", url: "https://b.example/h", description: "" }))).toBe(false);
    expect(matches(named, object("3", { name: "n", subject: "s" }, "EmailNotificationTemplate"))).toBe(false);
  });
});

describe("the plan", () => {
  it("a pending create is cleared; the one object it made is deleted (the next up creates it again)", () => {
    const plan = planRecovery(
      input({
        pendingCreates: [pending("a", tokenFields("a")), pending("b", tokenFields("b"))],
        found: [object("0_a", tokenFields("a"))],
      }),
    );
    expect(plan.deletes).toEqual([
      expect.objectContaining({
        id: "0_a",
        name: "a",
        proof: expect.stringMatching(/made inside the run whose lock was taken at T; it has every field the pending create urn:a sends/),
      }),
    ]);
    expect(plan.clears.map((c) => c.urn)).toEqual(["urn:a", "urn:b"]);
    expect(plan.ambiguous).toEqual([]);
  });

  it("identical creates are paired with as many identical objects or fewer", () => {
    const plan = planRecovery(
      input({
        pendingCreates: [pending("a1", tokenFields("same")), pending("a2", tokenFields("same")), pending("a3", tokenFields("same"))],
        found: [object("0_x", tokenFields("same")), object("0_y", tokenFields("same"))],
      }),
    );
    expect(plan.deletes.map((d) => d.id)).toEqual(["0_x", "0_y"]);
    expect(plan.deletes[0]?.proof).toMatch(/one of 3 identical creates/);
    expect(plan.clears.map((c) => c.urn)).toEqual(["urn:a1", "urn:a2", "urn:a3"]);
    expect(plan.ambiguous).toEqual([]);
  });

  it("more candidates than creates, or candidates that differ, is an ambiguity: nothing imported, cleared or deleted", () => {
    const more = planRecovery(
      input({ pendingCreates: [pending("a", tokenFields("same"))], found: [object("0_x", tokenFields("same")), object("0_y", tokenFields("same"))] }),
    );
    expect(more.ambiguous).toEqual([expect.objectContaining({ urns: ["urn:a"], candidates: ["0_x", "0_y"] })]);
    expect([more.clears, more.deletes]).toEqual([[], []]);

    // The create did not send sessionDuration: objects with different durations both match, and they differ.
    const differ = planRecovery(
      input({
        pendingCreates: [pending("a1", tokenFields("same")), pending("a2", tokenFields("same"))],
        found: [object("0_x", tokenFields("same")), object("0_y", { ...tokenFields("same"), sessionDuration: 60 })],
      }),
    );
    expect(differ.ambiguous).toEqual([expect.objectContaining({ reason: expect.stringMatching(/differ/) })]);
    expect(differ.deletes).toEqual([]);
  });

  it("an object two different pending creates could claim settles neither", () => {
    const plan = planRecovery(
      input({
        pendingCreates: [pending("a", tokenFields("same")), pending("b", { ...tokenFields("same"), sessionDuration: 86400 })],
        found: [object("0_x", tokenFields("same"))],
      }),
    );
    expect(plan.ambiguous).toHaveLength(2);
    expect(plan.deletes).toEqual([]);
  });

  it("an object outside the pending create's window is not deleted", () => {
    const plan = planRecovery(input({ pendingCreates: [pending("a", tokenFields("a"))], found: [object("0_a", tokenFields("a"), "AppToken", 100)] }));
    expect(plan.deletes).toEqual([]);
    expect(plan.clears).toHaveLength(1);
  });

  it("pending creates whose run cannot be bounded: nothing matched, nothing deleted, nothing cleared", () => {
    const plan = planRecovery(
      input({
        pendingCreates: [pending("a", tokenFields("a"))],
        found: [object("0_a", tokenFields("a"))],
        pendingWindows: [],
        pendingUnbounded: "no record tells when the run started",
      }),
    );
    expect(plan.deletes).toEqual([]);
    expect(plan.clears).toEqual([]);
    expect(plan.ambiguous).toEqual([expect.objectContaining({ urns: ["urn:a"], reason: expect.stringMatching(/cannot be bounded in time/) })]);
  });

  it("a pending adoption made nothing: it is cleared, and the object with its fields is not taken for it", () => {
    const plan = planRecovery(
      input({ pendingCreates: [pending("a", { ...tokenFields("adopted"), adoptId: "0_adopted" })], found: [object("0_same_fields", tokenFields("adopted"))] }),
    );
    expect(plan.clears).toEqual([expect.objectContaining({ urn: "urn:a", reason: expect.stringMatching(/adoption \(adoptId 0_adopted\) makes nothing/) })]);
    expect(plan.deletes).toEqual([]);
  });

  it("a pending create whose account cannot be told is kept and reported, never cleared as having made nothing", () => {
    const plan = planRecovery(input({ unresolvedPending: [{ urn: "urn:x", type: "AppToken", why: "no account recorded" }] }));
    expect(plan.clears).toEqual([]);
    expect(plan.ambiguous).toEqual([expect.objectContaining({ urns: ["urn:x"], reason: expect.stringMatching(/no account recorded/) })]);
  });

  it("an unrecorded object whose twin the state holds, or the program plans, is deleted; anything else is left alone", () => {
    const plan = planRecovery(
      input({
        failedWindows: [RUN],
        recorded: [{ type: "AppToken", account: A, fields: object("0_kept", tokenFields("twin")).fields }],
        planned: [pending("p", tokenFields("planned")), pending("h", { systemName: "HOOK" }, "HttpNotificationTemplate")],
        found: [
          object("0_twin", tokenFields("twin")),
          object("0_planned", tokenFields("planned")),
          object("7", { systemName: "HOOK", name: "x" }, "HttpNotificationTemplate"),
          object("0_stranger", tokenFields("someone else's")),
          object("0_before", tokenFields("twin"), "AppToken", 100),
        ],
      }),
    );
    expect(plan.deletes.map((d) => [d.id, d.proof])).toEqual([
      ["0_twin", expect.stringMatching(/the state already holds/)],
      ["0_planned", expect.stringMatching(/the program creates again/)],
      ["7", expect.stringMatching(/the program creates again/)],
    ]);
    expect(plan.unexplained.map((o) => o.id)).toEqual(["0_stranger"]);
  });

  it("an object matching only another stack's pending create is that stack's: never deleted", () => {
    const plan = planRecovery(
      input({
        failedWindows: [RUN],
        recorded: [{ type: "AppToken", account: A, fields: object("0_kept", tokenFields("shared")).fields }],
        foreignPending: [{ type: "AppToken", account: A, fields: tokenFields("shared"), stack: "staging" }],
        found: [object("0_theirs", tokenFields("shared"))],
      }),
    );
    expect(plan.leftAlone).toEqual([expect.objectContaining({ id: "0_theirs", reason: expect.stringMatching(/staging/) })]);
    expect(plan.deletes).toEqual([]);
  });

  it("two stacks that both left a pending create for the same fields: an ambiguity, never a false 'nothing made'", () => {
    const plan = planRecovery(
      input({
        pendingCreates: [pending("a", tokenFields("shared"))],
        foreignPending: [{ type: "AppToken", account: A, fields: tokenFields("shared"), stack: "staging" }],
        found: [object("0_x", tokenFields("shared")), object("0_y", tokenFields("shared"))],
      }),
    );
    expect(plan.clears).toEqual([]);
    expect(plan.deletes).toEqual([]);
    expect(plan.ambiguous).toEqual([expect.objectContaining({ urns: ["urn:a"], reason: expect.stringMatching(/pending create of staging/) })]);
  });
});

describe("the windows of interrupted runs", () => {
  const update = (version: number, result: string, start: number, end: number) => ({
    version,
    kind: "update",
    result,
    startTime: new Date(start * 1000).toISOString(),
    endTime: new Date(end * 1000).toISOString(),
  });

  it("nothing pending and no failure since two successes: nothing to look at", () => {
    const history = [update(3, "succeeded", 300, 310), update(2, "succeeded", 200, 210), update(1, "failed", 100, 110)];
    expect(nothingInterrupted(history, false)).toBe(true);
    expect(nothingInterrupted(history, true)).toBe(false);
  });

  it("a failed update is looked at until two later updates succeeded, from its start to its end plus the answer time", () => {
    const history = [update(3, "succeeded", 300, 310), update(2, "failed", 200, 210), update(1, "succeeded", 100, 110)];
    const windows = interruptedWindows(history, false, 400, 30);
    expect(windows.failed).toEqual([{ startSec: 200 - WINDOW_SLACK_SECONDS, endSec: 240 + WINDOW_SLACK_SECONDS, label: expect.stringMatching(/failed/) }]);
    expect(windowOf(windows.failed, 199)).toBeDefined();
    expect(windowOf(windows.failed, 110)).toBeUndefined();
  });

  it("pending creates: the windows of the interrupted runs only, never an earlier update nor the stack's beginning", () => {
    const history = [update(3, "succeeded", 300, 310), update(2, "refresh-only", 200, 210), update(1, "succeeded", 100, 110)];
    const none = interruptedWindows(history, true, 400, 30);
    expect(none.pending).toEqual([]);
    expect(none.unbounded).toMatch(/no record tells when the run that left them started/);
    expect(interruptedWindows([], true, 400, 30).unbounded).toBeDefined();

    const locked = interruptedWindows(history, true, 400, 30, { lockTimes: [new Date(350_000)] });
    expect(locked.pending).toEqual([{ startSec: 350 - WINDOW_SLACK_SECONDS, endSec: 400 + WINDOW_SLACK_SECONDS, label: expect.stringMatching(/lock/) }]);
    const cloud = interruptedWindows([update(4, "in-progress", 320, 0), ...history], true, 400, 30);
    expect(cloud.pending.map((w) => w.startSec)).toEqual([320 - WINDOW_SLACK_SECONDS]);
    const stated = interruptedWindows(history, true, 400, 30, { since: new Date(330_000) });
    expect(stated.pending.map((w) => w.label)).toEqual([expect.stringMatching(/--since/)]);
  });
});
