/** Bundles emulator/cli.ts into one CommonJS file so tests can run the real CLI as a child process. */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";

export async function bundleCli(dir: string): Promise<string> {
  const outfile = join(dir, "cli.js");
  await build({
    entryPoints: [join(__dirname, "../../emulator/cli.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    outfile,
    external: ["node:sqlite"],
    // The bundle runs from a temp folder: the emulator's package check (require.resolve of its optional peer
    // dependencies) looks in the repo's node_modules, as it looks in a user's when installed.
    banner: { js: `module.paths.push(${JSON.stringify(join(__dirname, "../../node_modules"))});` },
    logLevel: "error",
  });
  return outfile;
}

export interface CliChild {
  proc: ChildProcess;
  stderr: () => string;
  info: { baseUrl: string; partnerId: number; adminSecret: string; controlUrl: string; smtpUrl?: string };
}

/** Starts `svc-emulator start --port 0 --json ...` and reads its one JSON line. */
export async function spawnCli(cli: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliChild> {
  const proc = spawn(process.execPath, [cli, "start", "--port", "0", "--json", ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`emulator exited ${code}: ${stderr}`)));
  });
  return { proc, stderr: () => stderr, info: JSON.parse(line) };
}

/** Runs a one-shot CLI command and returns its stdout. */
export function runCli(cli: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    proc.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

export const killHard = (c: CliChild): Promise<void> =>
  new Promise((resolve) => {
    if (c.proc.exitCode !== null) return resolve();
    c.proc.once("exit", () => resolve());
    c.proc.kill("SIGKILL");
  });
