/**
 * `pulumi-svc shared -- <command...>`: runs a Pulumi command (or anything that runs Pulumi, e.g. an Automation API
 * script) with one plugin process for every svc provider, instead of one process per explicit provider: it starts
 * the plugin in shared mode (plugin/sharedServer.ts), adds `svc:<port>` to PULUMI_DEBUG_PROVIDERS in the command's
 * environment (the engine then attaches to that port instead of starting a plugin), passes the command's exit code
 * through, and stops the shared process when the command exits (docs/plugin.md, "Many accounts: one shared process").
 * Starting and stopping the process: provider/shared/sharedProvider.ts.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { startSharedProvider } from "../shared/sharedProvider";

/**
 * Runs `command` with the shared process and resolves with its exit code (128 + the signal's number if a signal
 * ended it). SIGTERM is passed on to it; SIGINT too, unless it came from the terminal, which sends it to the
 * command itself (its foreground process group): Pulumi reads a second SIGINT as "terminate now".
 */
export async function runShared(command: readonly string[], options: { plugin?: string } = {}): Promise<number> {
  const [file, ...args] = command;
  if (!file) throw new Error("shared: name the command to run, e.g. pulumi-svc shared -- pulumi up");
  const shared = await startSharedProvider(options);
  try {
    const env = { ...process.env, PULUMI_DEBUG_PROVIDERS: shared.debugProviders(process.env.PULUMI_DEBUG_PROVIDERS) };
    const child = spawn(file, args, { stdio: "inherit", env });
    const forward = (signal: NodeJS.Signals) => () => {
      if (signal === "SIGINT" && inTerminalForeground()) return;
      child.kill(signal);
    };
    const onInt = forward("SIGINT");
    const onTerm = forward("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    try {
      return await new Promise<number>((resolve, reject) => {
        child.once("error", (error) => reject(new Error(`shared: could not run ${file}: ${error.message}`)));
        child.once("exit", (code, signal) => resolve(code ?? 128 + (signal ? (signalNumbers[signal] ?? 1) : 1)));
      });
    } finally {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    }
  } finally {
    await shared.stop();
  }
}

const signalNumbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Whether this process is in its terminal's foreground process group (Linux's /proc; elsewhere: stdin is a TTY). */
function inTerminalForeground(): boolean {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
    const [pgrp, tty, foreground] = [Number(fields[2]), Number(fields[4]), Number(fields[5])];
    return tty !== 0 && pgrp === foreground;
  } catch {
    return process.stdin.isTTY === true;
  }
}
