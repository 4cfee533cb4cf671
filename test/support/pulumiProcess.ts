/**
 * The `pulumi` CLI as a child process of the test, on a test stack's backend and environment: what the Automation
 * API runs, but with the process in the test's hands, so that it can be signalled (SIGINT, as Ctrl-C or a CI job
 * cancel does) while it works.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { engineBinDir } from "./pulumi";
import type { TestStack } from "./pulumi";

export interface PulumiProcess {
  child: ChildProcess;
  /** Everything the CLI wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves once the output matches `pattern`; rejects if the CLI exits first. */
  waitForOutput(pattern: RegExp): Promise<void>;
  /** The exit code (or the signal that ended the CLI). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `pulumi <args> --stack <name> --non-interactive` in the stack's program folder, with its environment. */
export function runPulumi(t: TestStack, stackName: string, args: string[], extraEnv: Record<string, string> = {}): PulumiProcess {
  const child = spawn(join(engineBinDir(), "pulumi"), [...args, "--stack", stackName, "--non-interactive"], {
    cwd: t.workDir,
    env: { ...process.env, ...t.env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    text += chunk.toString("utf8");
    for (const check of [...waiters]) check();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => text,
    exited,
    waitForOutput(pattern) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!pattern.test(text)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
        void exited.then(() => {
          if (!waiters.has(check)) return;
          waiters.delete(check);
          reject(new Error(`pulumi exited before its output matched ${pattern}:\n${text}`));
        });
      });
    },
  };
}
