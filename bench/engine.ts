/**
 * The real Pulumi engine for the bench: the bin dir scripts/ensure-pulumi.sh built, a local file backend and a
 * passphrase in a temp dir, and a copy of a bench program with the repo's node_modules linked beside it (so stack
 * files never land in the repo and `pulumi-svc` resolves to this package).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { engineBinDir, engineEnv, repoRoot } from "../scripts/engineEnv";

export { repoRoot };

export const fixturesDir = join(repoRoot, "bench", "fixtures");

export interface BenchStack {
  stack: Stack;
  cleanup(): Promise<void>;
}

/** A fresh stack of bench/fixtures/<program>, copied into a temp dir, on its own temp file backend. */
export async function benchStack(program: string): Promise<BenchStack> {
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-bench-"));
  const home = join(tmp, "home");
  const backendDir = join(tmp, "backend");
  const workDir = join(tmp, "program");
  mkdirSync(home, { recursive: true });
  mkdirSync(backendDir, { recursive: true });
  cpSync(join(fixturesDir, program), workDir, { recursive: true });
  symlinkSync(join(repoRoot, "node_modules"), join(workDir, "node_modules"), "dir");
  const envVars = engineEnv({ home, backendUrl: `file://${backendDir}`, passphrase: "bench-passphrase" });
  const pulumiCommand = await PulumiCommand.get({ root: dirname(engineBinDir()) });
  const stack = await LocalWorkspace.createStack({ stackName: "bench", workDir }, { pulumiCommand, envVars, pulumiHome: home });
  return {
    stack,
    async cleanup() {
      await stack.workspace.removeStack("bench", { force: true }).catch(() => undefined);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
