/**
 * Issue 23: SqliteReplayStore is safe for several processes on one host. Three Node processes open one database
 * file (the built store, dist/), wait for a common start, then claim the same job ids as fast as they can: every
 * id is claimed by exactly one of them. Needs dist/ and child processes, so it is not part of test:unit.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const STORE = join(root, "dist", "sdk", "webhooks", "sqliteReplayStore.js");
const JOBS = 800;

// Each process: open the store, say "ready", wait for "go" on stdin, claim every id (completing half of its
// claims, so both "in-progress" and "duplicate" answers occur), print the ids it claimed as one JSON line.
const WORKER = `
const { SqliteReplayStore } = require(${JSON.stringify(STORE)});
const store = new SqliteReplayStore(process.argv[1]);
process.stdout.write("ready\\n");
process.stdin.once("data", async () => {
  const claimed = [];
  for (let i = 0; i < ${JOBS}; i++) {
    const key = "job-" + i;
    const owner = "worker-" + process.pid;
    if ((await store.claim(key, 60000, owner)) !== "claimed") continue;
    claimed.push(key);
    if (i % 2 === 0) await store.complete(key, 86400000, owner);
  }
  store.close();
  process.stdout.write(JSON.stringify(claimed) + "\\n");
  process.stdin.destroy();
});
`;

function lines(child: ChildProcessWithoutNullStreams): AsyncIterator<string> {
  let buffered = "";
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => void (errors += chunk.toString("utf8")));
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const next = waiting.shift();
      if (next) next(line);
      else queue.push(line);
    }
  });
  return {
    next: () => {
      const line = queue.shift();
      if (line !== undefined) return Promise.resolve({ value: line, done: false });
      return new Promise((resolve, reject) => {
        waiting.push((value) => resolve({ value, done: false }));
        child.once("exit", (code) => reject(new Error(`worker exited (${code}) before a line: ${errors}`)));
      });
    },
  };
}

describe("SqliteReplayStore shared by three processes", () => {
  const folder = mkdtempSync(join(tmpdir(), "svc-replay-processes-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("every job id is claimed by exactly one process", async () => {
    const path = join(folder, "shared.db");
    const children = Array.from({ length: 3 }, () => spawn(process.execPath, ["--no-warnings", "-e", WORKER, path]));
    const readers = children.map(lines);
    for (const reader of readers) expect((await reader.next()).value).toBe("ready");
    for (const child of children) child.stdin.write("go\n");
    const claimed = await Promise.all(readers.map(async (reader) => JSON.parse((await reader.next()).value) as string[]));

    const all = claimed.flat();
    expect(all).toHaveLength(JOBS);
    expect(new Set(all).size).toBe(JOBS);
  });
});
