/**
 * Child processes for the tests that drive the tools the way a person or a pipeline does: npm, tsc, the plain
 * `pulumi` CLI, `svc-emulator`. Asynchronous (the vitest worker stays responsive) and always with a time limit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { engineBinDir, repoRoot } from "../support/pulumi";

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

export function run(command: string, args: string[], options: RunOptions): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout.on("data", (d: Buffer) => ((stdout += d.toString()), (output += d.toString())));
    child.stderr.on("data", (d: Buffer) => ((stderr += d.toString()), (output += d.toString())));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not finish in ${options.timeoutMs ?? 180_000} ms:\n${output.slice(-4000)}`));
    }, options.timeoutMs ?? 180_000);
    child.once("error", (error) => (clearTimeout(timer), reject(error)));
    child.once("close", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr, output })));
    child.stdin.end(options.input ?? "");
  });
}

/** Like `run`, but a non-zero exit is an error that shows the command's output. */
export async function runOk(command: string, args: string[], options: RunOptions): Promise<Result> {
  const result = await run(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.code}:\n${result.output.slice(-6000)}`);
  return result;
}

/**
 * PATH for a program outside the repo: the built Pulumi engine, then the project's Node 22 (npm and the
 * language host start `node`), then the machine's PATH (npm itself, bash, git).
 */
export function toolPath(base: string = process.env.PATH ?? ""): string {
  return [engineBinDir(), dirname(process.execPath), join(repoRoot, "node_modules", ".bin"), base].join(":");
}

/** The engine's settings for a pipeline-like run: no update check, no plugin download, a throwaway PULUMI_HOME. */
export function pulumiEnv(home: string, backendUrl: string, passphrase: string): Record<string, string> {
  return {
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: backendUrl,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}

/** Environment variables of the test process that would change what a child does: left out of every child. */
const INHERITED_NOISE = /^(SVC_|PULUMI_|NODE_OPTIONS$|VITEST|npm_)/;

export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !INHERITED_NOISE.test(key)));
  return { ...base, PATH: toolPath(), ...extra };
}

export interface EmulatorInfo {
  baseUrl: string;
  partnerId: number;
  adminSecret: string;
  controlUrl: string;
  turnUrl: string | null;
}

/** Starts an `svc-emulator` executable with `start --port 0 --json` and reads the one JSON line it prints. */
export async function startEmulatorBin(
  bin: string,
  args: string[],
  options: RunOptions,
): Promise<{ child: ChildProcess; info: EmulatorInfo; stop(): Promise<void> }> {
  const child = spawn(bin, ["start", "--port", "0", "--json", ...args], {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${bin} printed nothing in 30 s: ${stderr}`)), 30_000);
    createInterface({ input: child.stdout! }).once("line", (l) => (clearTimeout(timer), resolve(l)));
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`${bin} exited ${code}: ${stderr}`))));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { child, info: JSON.parse(line) as EmulatorInfo, stop };
}

/**
 * A temp dir for a program that gets a real `npm install` (about 16,000 files, 150 MB): in memory (/dev/shm) where
 * there is one, since writing and deleting that tree on a shared disk costs more than the install itself
 * (measured here: `npm ci` 15 s in tmpfs vs 27 s on disk); the OS temp dir otherwise.
 */
export function scratchDir(prefix: string): string {
  let base = tmpdir();
  try {
    accessSync("/dev/shm", constants.W_OK);
    base = "/dev/shm";
  } catch {
    // no tmpfs: the ordinary temp dir
  }
  return mkdtempSync(join(base, prefix));
}
