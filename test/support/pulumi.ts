/**
 * Test support for end-to-end tests: a real Pulumi engine (built by scripts/ensure-pulumi.sh), a local file backend
 * in a temp dir, and a passphrase secrets provider. Nothing here is skipped when the engine is missing: it fails.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { engineBinDir, engineEnv, repoRoot } from "../../scripts/engineEnv";

export { engineBinDir, repoRoot };

/** Environment for the engine on a temp backend and home: see scripts/engineEnv.ts. */
export function testEngineEnv(home: string, backendDir: string): Record<string, string> {
  return { ...engineEnv({ home, backendUrl: `file://${backendDir}`, passphrase: "e2e-test-passphrase" }), PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "false" };
}

/** Every file the file backend wrote (state, history, backups), as text: what sits at rest on disk. */
export function backendFilesText(backendDir: string): string {
  const { readdirSync } = require("node:fs") as typeof import("node:fs");
  return (readdirSync(backendDir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    .join("\n");
}

export interface TestStack {
  stack: Stack;
  backendDir: string;
  workDir: string;
  tmp: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export interface TestStackOptions {
  stackName?: string;
  extraEnv?: Record<string, string>;
  /**
   * Copy the program into a temp dir (so stack files never land in the repo), with this node_modules linked
   * beside it (default: the repo's, where `pulumi-svc` links to this package).
   */
  copyProgram?: boolean;
  nodeModules?: string;
}

/** A fresh stack of the Pulumi project in `programDir`, on its own temp file backend. */
export async function newTestStack(programDir: string, options: TestStackOptions = {}): Promise<TestStack> {
  const { stackName = "test", extraEnv = {} } = options;
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-e2e-"));
  const home = join(tmp, "home");
  const backendDir = join(tmp, "backend");
  mkdirSync(home, { recursive: true });
  mkdirSync(backendDir, { recursive: true });
  let workDir = programDir;
  if (options.copyProgram) {
    workDir = join(tmp, "program");
    cpSync(programDir, workDir, { recursive: true });
    symlinkSync(options.nodeModules ?? join(repoRoot, "node_modules"), join(workDir, "node_modules"), "dir");
  }
  const env = { ...testEngineEnv(home, backendDir), ...extraEnv };
  const pulumiCommand = await PulumiCommand.get({ root: dirname(engineBinDir()) });
  const stack = await LocalWorkspace.createStack({ stackName, workDir }, { pulumiCommand, envVars: env, pulumiHome: home });
  return {
    stack,
    backendDir,
    workDir,
    tmp,
    env,
    async cleanup() {
      await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
