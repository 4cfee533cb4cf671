/**
 * When the interrupted runs of a stack may have made objects: each run's own span, never more (docs/design.md,
 * "Recovering a killed run"). What each backend records of a run:
 * - an update whose provider process died (the engine lived on) is in the history as failed, with its start and end,
 *   on every backend; so is a run stopped by a second Ctrl-C;
 * - a run that died with its engine (the whole runner, or the CLI alone) is in no history on DIY backends (file,
 *   PostgreSQL, object stores: they write an update's history at its end), but its lock stays, and the lock records
 *   when the run took it (the lock's error names each lock's time); on Pulumi Cloud its update is in the history from
 *   its start, "in-progress" until `pulumi cancel` ends it;
 * - the user may state a run's start (`--since`), taken as given.
 * A failed or unfinished update spans from its start to its end plus the request timeout (a request sent just before
 * the end may still commit); a dead run with no end recorded spans to now. The pending creates a run left belong to
 * one of these spans; when there is none (a DIY lock released by hand before recover read it, a history that no
 * longer reaches the run) the run cannot be bounded and nothing is matched to its pending creates.
 * Failed updates are looked at until two later updates have succeeded, so that a recover run after the `up` that
 * followed a failure still sees it.
 */

/** One entry of `pulumi stack history --json` (the fields used here). */
export interface HistoryEntry {
  version?: number;
  kind?: string;
  result?: string;
  startTime?: string;
  endTime?: string;
}

/** A span of platform time (unix seconds) in which an interrupted run of the stack may have made objects. */
export interface Window {
  startSec: number;
  endSec: number;
  /** For messages and proofs: "the update started 2026-11-28T15:00:00Z (failed)". */
  label: string;
}

export interface InterruptedWindows {
  /** Failed or unfinished updates since the look-back point: each its own window. */
  failed: Window[];
  /** The windows of the runs that may have left the state's pending creates (empty when it has none, or unbounded). */
  pending: Window[];
  /** The state has pending creates but no run that left them could be bounded: why, for the user. */
  unbounded?: string;
}

/** What else tells a run's start: a stale lock's time (DIY backends), or the user's `--since`. */
export interface RunStarts {
  /** The times of the locks a dead run left (DIY backends name them in the lock error). */
  lockTimes?: readonly Date[];
  /** The user's statement of when the interrupted run started. */
  since?: Date;
}

/** Clock difference tolerated between the runner that wrote the history or the lock and the platform, both ways. */
export const WINDOW_SLACK_SECONDS = 60;

const seconds = (time: string | undefined): number | undefined => {
  const ms = Date.parse(time ?? "");
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
};

/**
 * The windows of interrupted runs. `history`: in any order (sorted here by version, then start); `answerSec`: how long
 * a request sent at the end of a run may still commit (the request timeout, in seconds).
 */
export function interruptedWindows(
  history: readonly HistoryEntry[],
  hasPendingCreates: boolean,
  nowSec: number,
  answerSec: number,
  starts: RunStarts = {},
): InterruptedWindows {
  const newestFirst = [...history].sort((a, b) => (b.version ?? 0) - (a.version ?? 0) || (seconds(b.startTime) ?? 0) - (seconds(a.startTime) ?? 0));
  const windows: InterruptedWindows = { failed: [], pending: [] };
  let successes = 0;
  for (const entry of newestFirst) {
    if (entry.kind !== "update") continue;
    if (entry.result === "succeeded") {
      if (++successes === 2) break;
      continue;
    }
    if (entry.result !== "failed" && entry.result !== "in-progress") continue;
    const start = seconds(entry.startTime);
    if (start === undefined) continue;
    const end = entry.result === "in-progress" ? nowSec : (seconds(entry.endTime) ?? nowSec);
    windows.failed.push({
      startSec: start - WINDOW_SLACK_SECONDS,
      endSec: Math.min(nowSec, end + answerSec) + WINDOW_SLACK_SECONDS,
      label: `the update started ${entry.startTime} (${entry.result})`,
    });
  }
  if (!hasPendingCreates) return windows;
  windows.pending.push(...windows.failed);
  for (const time of starts.lockTimes ?? []) {
    const start = Math.floor(time.getTime() / 1000);
    if (Number.isFinite(start)) windows.pending.push(untilNow(start, nowSec, `the run whose lock was taken at ${time.toISOString()}`));
  }
  if (starts.since)
    windows.pending.push(untilNow(Math.floor(starts.since.getTime() / 1000), nowSec, `the run started at ${starts.since.toISOString()} (--since)`));
  if (windows.pending.length === 0) {
    windows.unbounded =
      "no record tells when the run that left them started: no failed or unfinished update in the stack's history, and no lock " +
      "(a DIY backend's lock records the run's start until `pulumi cancel` removes it)";
  }
  return windows;
}

const untilNow = (startSec: number, nowSec: number, label: string): Window => ({
  startSec: startSec - WINDOW_SLACK_SECONDS,
  endSec: nowSec + WINDOW_SLACK_SECONDS,
  label,
});

/** Whether there is anything to look at: otherwise recover ends after reading the state and the history. */
export function nothingInterrupted(history: readonly HistoryEntry[], hasPendingCreates: boolean): boolean {
  return !hasPendingCreates && interruptedWindows(history, false, Math.floor(Date.now() / 1000), 0).failed.length === 0;
}

/** The window among `windows` that holds `createdAtSec` (platform clock), if any. */
export function windowOf(windows: readonly Window[], createdAtSec: number): Window | undefined {
  return windows.find((w) => createdAtSec >= w.startSec && createdAtSec <= w.endSec);
}

/**
 * The end of the newest window in local time (ms): a request the interrupted run sent may commit on the platform until
 * then, so the listing waits for it (bounded by the caller).
 */
export function answersSettleAtMs(history: readonly HistoryEntry[], writtenAtMs: number | undefined, hasPendingCreates: boolean, answerMs: number): number {
  const ends = history.filter((e) => e.kind === "update" && e.result !== "succeeded").map((e) => Date.parse(e.endTime ?? ""));
  if (hasPendingCreates && writtenAtMs !== undefined) ends.push(writtenAtMs);
  const newest = Math.max(0, ...ends.filter(Number.isFinite));
  return newest === 0 ? 0 : newest + answerMs;
}
