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

export interface CliProject {
  dir: string;
  env: Record<string, string>;
  /** Runs `pulumi <args>` in the project folder; returns stdout, throws with stderr on failure. */
  pulumi(...args: string[]): string;
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
    ...engineEnv({ languages: true, home, backendUrl: `file://${backend}`, passphrase: "languages-test" }),
    PULUMI_STACK: stack,
  };
  const pulumi = (...args: string[]): string => {
    try {
      return execFileSync("pulumi", [...args, "--non-interactive"], { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`pulumi ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
    }
  };
  pulumi("stack", "init", stack);
  return { dir, env, pulumi, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
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
