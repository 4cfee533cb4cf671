/**
 * The real Pulumi engine for the bench: the bin dir scripts/ensure-pulumi.sh built, a local file backend and a
 * passphrase in a temp dir, and a copy of a bench program with the repo's node_modules linked beside it (so stack
 * files never land in the repo and `pulumi-svc` resolves to this package). Mirrors test/support/pulumi.ts, which
 * the build does not compile.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";

/** The repo root, found from this file whether it runs as bench/*.ts (vitest, tsx) or dist/bench/*.js. */
export const repoRoot = findRepoRoot(__dirname);

function findRepoRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "pulumi-svc") return dir;
  }
  throw new Error(`bench: no pulumi-svc package.json above ${from}`);
}

export const fixturesDir = join(repoRoot, "bench", "fixtures");

export function engineBinDir(): string {
  const marker = join(repoRoot, "node_modules", ".pulumi-svc-engine");
  if (!existsSync(marker)) throw new Error("The Pulumi engine is not set up: run `npm run bench` (or bash scripts/ensure-pulumi.sh)");
  const bin = readFileSync(marker, "utf8").trim();
  for (const exe of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
    if (!existsSync(join(bin, exe))) throw new Error(`The Pulumi engine in ${bin} lacks ${exe}: run bash scripts/ensure-pulumi.sh`);
  }
  return bin;
}

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
  const envVars = {
    // Our engine, then the project's Node 22 (the language host and the dynamic provider host run `node`).
    PATH: [engineBinDir(), join(repoRoot, "node_modules", ".bin"), process.env.PATH ?? ""].join(":"),
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
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
