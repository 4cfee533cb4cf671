/**
 * `pulumi-svc shared -- <command...>`: runs a Pulumi command (or anything that runs Pulumi, e.g. an Automation API
 * script) with one plugin process for every svc provider, instead of one process per explicit provider: it starts
 * the plugin in shared mode (plugin/sharedServer.ts), adds `svc:<port>` to PULUMI_DEBUG_PROVIDERS in the command's
 * environment (the engine then attaches to that port instead of starting a plugin), passes the command's exit code
 * through, and stops the shared process when the command exits (docs/plugin.md, "Many accounts: one shared process").
 *
 * The shared process runs in a session of its own (a terminal's Ctrl-C reaches the command, never it) and reads the
 * runner's end of a pipe on its stdin: when the runner closes it, or dies (even by SIGKILL), it settles its
 * connections and exits.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The launcher of the plugin this package ships (dist/pulumi-resource-svc), beside the built CLI. */
export const BUNDLED_PLUGIN = join(__dirname, "..", "..", "pulumi-resource-svc", "pulumi-resource-svc");

/** How long the shared process has to settle its connections and exit before it is killed. */
const STOP_GRACE_MS = 10_000;

export interface SharedProvider {
  port: number;
  pid: number;
  /** `PULUMI_DEBUG_PROVIDERS` with this process for `svc` (other packages' entries of `current` kept). */
  debugProviders(current?: string): string;
  /** Closes its stdin and waits for its exit (killed after a grace). */
  stop(): Promise<void>;
}

/**
 * Starts the plugin in shared mode and resolves with its port. `plugin`: its launcher (or its .js, run on this
 * Node.js); `env`: the process's environment (e.g. the bench's probe).
 */
export async function startSharedProvider(options: { plugin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<SharedProvider> {
  const plugin = options.plugin ?? BUNDLED_PLUGIN;
  if (!existsSync(plugin)) throw new Error(`the plugin ${plugin} does not exist (build it, or name another with --plugin)`);
  const [file, args] = plugin.endsWith(".js") ? [process.execPath, [plugin, "--shared"]] : [plugin, ["--shared"]];
  const child = spawn(file, args, { detached: true, stdio: ["pipe", "pipe", "inherit"], env: options.env ?? process.env });
  const port = await portOf(child);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    port,
    pid: child.pid as number,
    debugProviders: (current) => withSvcPort(current, port),
    async stop() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The port the plugin prints on its first line of stdout. */
function portOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = "";
    const fail = (why: string) => {
      child.kill("SIGKILL");
      reject(new Error(`the shared plugin did not start: ${why}`));
    };
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`it exited (${signal ?? `code ${code}`}) before printing its port`));
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      text += chunk;
      const line = text.split("\n")[0] as string;
      if (!text.includes("\n")) return;
      const port = Number(line.trim());
      child.removeAllListeners("exit");
      child.removeAllListeners("error");
      child.on("error", () => {});
      child.stdout?.removeAllListeners("data");
      child.stdout?.resume();
      if (Number.isInteger(port) && port > 0) resolve(port);
      else fail(`its first line is not a port`);
    });
  });
}

/** PULUMI_DEBUG_PROVIDERS (`pkg:port,pkg:port`) with `svc:<port>`, replacing any svc entry and keeping the others. */
export function withSvcPort(current: string | undefined, port: number): string {
  const others = (current ?? "").split(",").filter((entry) => entry !== "" && entry.split(":")[0] !== "svc");
  return [...others, `svc:${port}`].join(",");
}

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
