/**
 * A Pulumi project run as users run it: copied into a temp folder, `pulumi stack init`, `pulumi config set`,
 * `pulumi up`, on a temp file backend and PULUMI_HOME, with the engine and the language tools of
 * scripts/ensure-languages.sh on PATH (scripts/engineEnv.ts). No provider plugin is installed: plugin downloads are off.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineEnv } from "../../scripts/engineEnv";
import { FIXED_TEST_SECRETS, SecretScan } from "../support/secretScan";

export interface CliProject {
  dir: string;
  env: Record<string, string>;
  /** Runs `pulumi <args>` in the project folder; returns stdout, throws with stderr on failure. */
  pulumi(...args: string[]): string;
  /**
   * Checked at cleanup (test/support/secretScan.ts): the temp folder, every command's stdout (`--show-secrets` aside)
   * and stderr, and every `config set --secret` value; a test registers the other secrets it saw.
   */
  scan: SecretScan;
  /** Runs the secret scan (a hit fails the test), and removes the temp folder either way. */
  cleanup(): void;
}

export function cliProject(fixture: string, stack = "test"): CliProject {
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-lang-"));
  const dir = join(tmp, "program");
  const home = join(tmp, "home");
  const backend = join(tmp, "backend");
  mkdirSync(home);
  mkdirSync(backend);
  cpSync(fixture, dir, { recursive: true });
  const env = {
    ...process.env,
    ...engineEnv({ languages: true, home, backendUrl: `file://${backend}`, passphrase: FIXED_TEST_SECRETS.languagesPassphrase }),
    PULUMI_STACK: stack,
  };
  const scan = new SecretScan();
  scan.addRoot(tmp);
  const pulumi = (...args: string[]): string => {
    const secretIndex = args.indexOf("--secret");
    const secretValue = secretIndex === -1 ? undefined : args[secretIndex + 2];
    if (secretValue) scan.register(`secret config ${args[secretIndex + 1]}`, secretValue);
    const command = `pulumi ${args
      .filter((a) => !a.startsWith("--"))
      .slice(0, 2)
      .join(" ")}`;
    // `--show-secrets` asks for plain values on stdout: that is the one place they may be.
    const recordStdout = (stdout: string | undefined) => !args.includes("--show-secrets") && scan.record(`${command}: stdout`, stdout);
    try {
      const stdout = execFileSync("pulumi", [...args, "--non-interactive"], { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      recordStdout(stdout);
      return stdout;
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      recordStdout(e.stdout);
      scan.record(`${command}: stderr`, e.stderr);
      throw new Error(`pulumi ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
    }
  };
  pulumi("stack", "init", stack);
  const cleanup = () => {
    try {
      scan.check();
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  };
  return { dir, env, pulumi, scan, cleanup };
}

/** The resource changes of the stack's last update (`pulumi stack history --json`). */
export function lastChanges(project: CliProject): Record<string, number> {
  const history = JSON.parse(project.pulumi("stack", "history", "--json")) as { resourceChanges?: Record<string, number> }[];
  return history[0]?.resourceChanges ?? {};
}

/** `pulumi preview --json`'s change summary. */
export function previewChanges(project: CliProject): Record<string, number> {
  return (JSON.parse(project.pulumi("preview", "--json")) as { changeSummary?: Record<string, number> }).changeSummary ?? {};
}
