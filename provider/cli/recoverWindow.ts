/**
 * When the interrupted runs of a stack may have made objects, from its history (`pulumi stack history --json`) and
 * its pending creates (docs/design.md, "Recovering a killed run"):
 * - an update whose result is failed or in progress (the provider process died: the engine recorded its creates in
 *   flight as failed) made objects between its start and its end, plus the time a request sent just before the end
 *   may still take to commit (the request timeout);
 * - pending creates are left by a run that died with its engine (the whole runner): such a run is in no history
 *   (file and object-store backends write an update's history at its end), so its window runs from the history's
 *   look-back point to now.
 * The look-back point is the end of the second newest update that succeeded: a failed update is looked at until two
 * later updates have succeeded, so that a recover run after the `up` that followed a failure still sees it (the
 * state then holds the twins of what the failure left). Older history costs nothing.
 */

/** One entry of `pulumi stack history --json` (the fields used here). */
export interface HistoryEntry {
  version?: number;
  kind?: string;
  result?: string;
  startTime?: string;
  endTime?: string;
}

/** A span of platform time (unix seconds) in which an interrupted run may have made objects. */
export interface Window {
  startSec: number;
  endSec: number;
  /** For messages: "update 12 (failed)", "the run that left pending creates". */
  label: string;
}

export interface InterruptedWindows {
  /** Failed or unfinished updates since the look-back point. */
  failed: Window[];
  /** The window of the run that left pending creates (present when the state has some). */
  pending?: Window;
}

/** Clock difference tolerated between the runner that wrote the history and the platform, both ways. */
export const WINDOW_SLACK_SECONDS = 60;

const seconds = (time: string | undefined): number | undefined => {
  const ms = Date.parse(time ?? "");
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
};

/**
 * The windows of interrupted runs. `history`: newest first or in any order (sorted here by version, then start);
 * `answerSec`: how long a request sent at the end of a run may still commit (the request timeout, in seconds).
 */
export function interruptedWindows(history: readonly HistoryEntry[], hasPendingCreates: boolean, nowSec: number, answerSec: number): InterruptedWindows {
  const newestFirst = [...history].sort((a, b) => (b.version ?? 0) - (a.version ?? 0) || (seconds(b.startTime) ?? 0) - (seconds(a.startTime) ?? 0));
  const windows: InterruptedWindows = { failed: [] };
  let successes = 0;
  let lookBackSec = 0;
  for (const entry of newestFirst) {
    if (entry.kind !== "update") continue;
    if (entry.result === "succeeded") {
      successes++;
      if (successes === 2) {
        lookBackSec = seconds(entry.endTime) ?? seconds(entry.startTime) ?? 0;
        break;
      }
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
  if (hasPendingCreates) {
    windows.pending = {
      startSec: lookBackSec - WINDOW_SLACK_SECONDS,
      endSec: nowSec + WINDOW_SLACK_SECONDS,
      label: lookBackSec === 0 ? "the run that left pending creates (since the stack began)" : "the run that left pending creates",
    };
  }
  return windows;
}

/** Whether there is anything to look at: otherwise recover ends after reading the state and the history. */
export function nothingInterrupted(windows: InterruptedWindows): boolean {
  return windows.failed.length === 0 && windows.pending === undefined;
}

/** Whether `createdAtSec` (platform clock) falls in one of the windows. */
export function inWindows(windows: InterruptedWindows, createdAtSec: number): boolean {
  return [...windows.failed, ...(windows.pending ? [windows.pending] : [])].some((w) => createdAtSec >= w.startSec && createdAtSec <= w.endSec);
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
