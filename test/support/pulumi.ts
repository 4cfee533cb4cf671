/**
 * Test support for end-to-end tests: a real Pulumi engine (built by scripts/ensure-pulumi.sh), a local file backend
 * in a temp dir, and a passphrase secrets provider. Nothing here is skipped when the engine is missing: it fails.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";

export const repoRoot = resolve(__dirname, "..", "..");

/** The bin dir holding pulumi, pulumi-language-nodejs and pulumi-resource-pulumi-nodejs. */
export function engineBinDir(): string {
  const marker = join(repoRoot, "node_modules", ".pulumi-svc-engine");
  if (!existsSync(marker)) throw new Error("The Pulumi engine is not set up: run `npm test` (or bash scripts/ensure-pulumi.sh)");
  const bin = readFileSync(marker, "utf8").trim();
  for (const exe of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
    if (!existsSync(join(bin, exe))) throw new Error(`The Pulumi engine in ${bin} lacks ${exe}: run bash scripts/ensure-pulumi.sh`);
  }
  return bin;
}

/** Environment for the engine: our bin dir and Node 22 first on PATH, no plugin downloads, no update checks. */
export function engineEnv(home: string, backendDir: string): Record<string, string> {
  const path = [engineBinDir(), join(repoRoot, "node_modules", ".bin"), process.env.PATH ?? ""].join(":");
  return {
    PATH: path,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-test-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "false",
  };
}

export interface TestStack {
  stack: Stack;
  backendDir: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** A fresh stack of the Pulumi project in `workDir`, on its own temp file backend. */
export async function newTestStack(workDir: string, stackName = "test", extraEnv: Record<string, string> = {}): Promise<TestStack> {
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-e2e-"));
  const home = join(tmp, "home");
  const backendDir = join(tmp, "backend");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(home, { recursive: true });
  mkdirSync(backendDir, { recursive: true });
  const env = { ...engineEnv(home, backendDir), ...extraEnv };
  const pulumiCommand = await PulumiCommand.get({ root: dirname(engineBinDir()) });
  const stack = await LocalWorkspace.createStack({ stackName, workDir }, { pulumiCommand, envVars: env, pulumiHome: home });
  return {
    stack,
    backendDir,
    env,
    async cleanup() {
      await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
