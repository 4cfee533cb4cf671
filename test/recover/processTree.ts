/**
 * The processes a `pulumi` CLI started (the language host, the program, the provider plugins), read from /proc, so a
 * test can kill the provider process alone or the whole runner at once. Plugins run in process groups of their own
 * (the engine starts them with Setpgid), so killing the CLI's group would leave them running: each process is killed
 * by its id.
 */
import { readdirSync, readFileSync } from "node:fs";
import { expect, vi } from "vitest";

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}

function processes(): Proc[] {
  const list: Proc[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: the fields after it are space-separated.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ");
      list.push({ pid: Number(entry), ppid, cmdline });
    } catch {
      // Gone meanwhile.
    }
  }
  return list;
}

/** Every process below `root` (children, grandchildren...). */
export function descendants(root: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const proc of all) {
      if (proc.ppid === parent) {
        found.push(proc);
        queue.push(proc.pid);
      }
    }
  }
  return found;
}

/** The provider processes below `root`: the native plugin, or the dynamic provider host (and its launcher). */
export function providerProcesses(root: number, kind: "plugin" | "dynamic"): Proc[] {
  const pattern = kind === "plugin" ? /pulumi-resource-svc/ : /pulumi-resource-pulumi-nodejs|dynamic-provider/;
  return descendants(root).filter((proc) => pattern.test(proc.cmdline));
}

/** SIGKILL to each process, by id (already gone is fine). */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Whether `pid` is alive (a zombie, exited but not yet reaped by its new parent, is not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * SIGKILL of the `pulumi` CLI alone (the out-of-memory killer's usual choice); then waits for the provider processes
 * it started to see their stdin end and exit by themselves (they fail the wait if they do not), and kills the
 * engine's own plugins (the language host), which have no such watch.
 */
export async function killEngineAlone(cli: number, kind: "plugin" | "dynamic"): Promise<void> {
  const orphaned = descendants(cli);
  const providers = providerProcesses(cli, kind);
  expect(providers.length, "the provider processes the engine started").toBeGreaterThan(0);
  killAll([cli]);
  try {
    await vi.waitFor(() => expect(providers.filter((proc) => isRunning(proc.pid)).map((proc) => proc.cmdline)).toEqual([]), {
      timeout: 30_000,
      interval: 100,
    });
  } finally {
    killAll(orphaned.map((proc) => proc.pid));
  }
}
