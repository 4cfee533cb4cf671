/**
 * The user's `pulumi` CLI (the one on PATH, or PULUMI_SVC_PULUMI), run as a child process in the program's folder on
 * the stack's own backend, non-interactive. Its output is parsed, never echoed: `--show-secrets` output stays in
 * memory. An error names the command and carries the CLI's own message (which holds no secret values).
 */
import { execFile } from "node:child_process";
import { stripUserinfo } from "../../contract/urlUserinfo";
import type { HistoryEntry } from "./recoverWindow";

export interface PulumiCli {
  /** `pulumi stack export` of `stack` (this one by default), secrets revealed when asked. */
  exportStack(options?: { stack?: string; showSecrets?: boolean }): Promise<unknown>;
  /** The newest `count` entries of the stack's history. */
  history(count: number): Promise<HistoryEntry[]>;
  /** Every stack of the backend, fully qualified where the backend says so. */
  stacks(): Promise<string[]>;
  /** `pulumi config --json --show-secrets`: { "svc:baseUrl": { value, secret }, ... }. */
  config(): Promise<Record<string, unknown>>;
  /** The steps of `pulumi preview --json`. */
  previewSteps(): Promise<PreviewStep[]>;
  /**
   * Takes and releases the stack's lock, changing nothing (a refresh of the stack's root resource alone): throws
   * StackLockedError when a run holds it (or a dead run left it).
   */
  probeLock(stackUrn: string): Promise<void>;
  /** `pulumi refresh --clear-pending-creates`: refreshes the state and drops every pending create. */
  clearPendingCreates(): Promise<void>;
  /** `pulumi cancel`: removes the stack's lock (only on the user's word that no run is in progress). */
  cancel(): Promise<void>;
}

export interface PreviewStep {
  op?: string;
  urn?: string;
  newState?: { type?: string; inputs?: Record<string, unknown>; provider?: string };
}

/** One lock of a DIY backend, as its error names it: who took it and when (the run's start). */
export interface LockHolder {
  owner: string;
  takenAt: Date;
}

/**
 * The stack is locked (a run in progress, or one that died): recover changes nothing; only the user's word (`pulumi
 * cancel`, or recover's --release-lock) ends a lock. `holders`: what a DIY backend's error names (none on Pulumi Cloud,
 * whose history has the run instead).
 */
export class StackLockedError extends Error {
  constructor(
    message: string,
    readonly holders: readonly LockHolder[] = [],
  ) {
    super(message);
  }
}

/**
 * The lock errors of the backends the docs name: every DIY backend (file, PostgreSQL, S3-compatible, GCS, Azure Blob:
 * "the stack is currently locked by 1 lock(s) ... <url>: created by <user>@<host> (pid <n>) at <RFC 3339 time>",
 * pkg/backend/diy/lock.go) and Pulumi Cloud ("[409] Conflict: Another update is currently in progress").
 */
const LOCKED = /currently locked by|stack is locked|another update is currently in progress|update is currently in progress|\[409\] conflict/i;
const HOLDER = /: created by (\S+) \(pid \d+\) at (\S+)/g;

/** The lock error of `text` as a StackLockedError, or undefined when `text` is another failure. */
export function lockedError(stack: string, text: string): StackLockedError | undefined {
  if (!LOCKED.test(text)) return undefined;
  const holders: LockHolder[] = [];
  for (const [, owner, time] of text.matchAll(HOLDER)) {
    const takenAt = new Date(time ?? "");
    if (owner && Number.isFinite(takenAt.getTime())) holders.push({ owner, takenAt });
  }
  return new StackLockedError(`the stack ${stack} is locked`, holders);
}

export interface PulumiCliOptions {
  stack: string;
  cwd?: string;
  binary?: string;
  env?: NodeJS.ProcessEnv;
}

export function pulumiCli(options: PulumiCliOptions): PulumiCli {
  const binary = options.binary ?? process.env.PULUMI_SVC_PULUMI ?? "pulumi";
  const run = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile(
        binary,
        [...args, "--non-interactive"],
        { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 1 << 30, encoding: "utf8" },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const text = `${stderr}\n${stdout}`;
          const locked = lockedError(options.stack, text);
          if (locked) return reject(locked);
          const detail = stripUserinfo(stderr.trim().split("\n").slice(-5).join(" ").slice(0, 2000));
          if (/failed to load checkpoint/i.test(text)) {
            // A runner killed while a file backend wrote the state: the checkpoint itself is renamed into place whole,
            // but its metadata file (`<stack>.json.attrs`, content type and checksum) is written before the rename
            // and truncated first, so a kill between the two leaves it empty; the backend then fails with EOF.
            return reject(
              new Error(
                `the state of stack ${options.stack} cannot be read (${detail}): the run probably died while writing it. ` +
                  "On a file backend, remove an empty or cut .pulumi/stacks/<project>/<stack>.json.attrs (metadata only: the state " +
                  "reads without it); if the state is still unreadable, copy <stack>.json.bak and its .bak.attrs over <stack>.json " +
                  "and <stack>.json.attrs (one step older). Then run pulumi-svc recover again",
              ),
            );
          }
          reject(new Error(`\`pulumi ${args.slice(0, 2).join(" ")}\` of stack ${options.stack} failed: ${detail || (error as Error).message}`));
        },
      );
    });
  const json = async (args: string[]): Promise<unknown> => {
    const text = await run(args);
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`\`pulumi ${args.slice(0, 2).join(" ")}\` did not print JSON`);
    }
  };
  const stackArgs = ["--stack", options.stack];
  return {
    exportStack: ({ stack, showSecrets } = {}) => json(["stack", "export", "--stack", stack ?? options.stack, ...(showSecrets ? ["--show-secrets"] : [])]),
    async history(count) {
      const entries = await json(["stack", "history", ...stackArgs, "--json", "--page-size", String(count), "--page", "1"]);
      return Array.isArray(entries) ? (entries as HistoryEntry[]) : [];
    },
    async stacks() {
      const listed = await json(["stack", "ls", "--all", "--json"]);
      return Array.isArray(listed) ? listed.map((s) => String((s as { name?: unknown }).name)).filter((name) => name && name !== "undefined") : [];
    },
    async config() {
      const config = await json(["config", ...stackArgs, "--json", "--show-secrets"]);
      return config !== null && typeof config === "object" ? (config as Record<string, unknown>) : {};
    },
    async previewSteps() {
      const preview = (await json(["preview", ...stackArgs, "--json"])) as { steps?: PreviewStep[] };
      return preview.steps ?? [];
    },
    async probeLock(stackUrn) {
      await run(["refresh", ...stackArgs, "--yes", "--skip-preview", "--target", stackUrn]);
    },
    async clearPendingCreates() {
      await run(["refresh", ...stackArgs, "--yes", "--skip-preview", "--clear-pending-creates"]);
    },
    async cancel() {
      await run(["cancel", ...stackArgs, "--yes"]);
    },
  };
}
