/**
 * The shared plugin process (plugin/sharedServer.ts) started from Node: one process for every svc provider of the
 * Pulumi operations run while it lives. `pulumi-svc shared -- <command>` (provider/cli/shared.ts) runs a command
 * with it; an Automation API program starts it through the public entry `pulumi-svc/shared` (index.ts).
 *
 * The process runs in a session of its own (a terminal's Ctrl-C never reaches it) and reads the starter's end of a
 * pipe on its stdin: when the starter closes it (`stop()`), or dies (even by SIGKILL), it settles its connections
 * and exits.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
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
