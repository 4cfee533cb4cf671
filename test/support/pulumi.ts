/**
 * Test support for end-to-end tests: a real Pulumi engine (built by scripts/ensure-pulumi.sh), a local file backend
 * in a temp dir, and a passphrase secrets provider. Nothing here is skipped when the engine is missing: it fails.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type ConfigMap, type ConfigValue, LocalWorkspace, type OutputMap, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { engineBinDir, engineEnv, repoRoot } from "../../scripts/engineEnv";
import { FIXED_TEST_SECRETS, SecretScan } from "./secretScan";

export { engineBinDir, repoRoot };

/** Environment for the engine on a temp backend and home: see scripts/engineEnv.ts. */
export function testEngineEnv(home: string, backendDir: string): Record<string, string> {
  return {
    ...engineEnv({ home, backendUrl: `file://${backendDir}`, passphrase: FIXED_TEST_SECRETS.e2ePassphrase }),
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "false",
  };
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
  /**
   * The secret scan checked at cleanup (test/support/secretScan.ts): it already searches the temp folder (backend,
   * PULUMI_HOME, copied program), the stack's config file, what the stack's operations printed, and every value set
   * as secret config; a test registers the other secrets it saw (`scan.register`).
   */
  scan: SecretScan;
  /** Runs the secret scan, then removes the stack and its temp folder (also when the scan fails). */
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
  const scan = new SecretScan();
  scan.addRoot(tmp);
  if (!options.copyProgram) scan.addRoot(join(workDir, `Pulumi.${stackName}.yaml`));
  for (const [key, value] of Object.entries(extraEnv)) {
    if (/SECRET|TOKEN|PASSWORD|PASSPHRASE/i.test(key) && value.length >= 8) scan.register(`the test's ${key}`, value);
  }
  recordInto(scan, stack);
  let cleaned = false;
  return {
    stack,
    backendDir,
    workDir,
    tmp,
    env,
    scan,
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      try {
        scan.check();
      } finally {
        await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
        rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Makes the stack report to the scan: secret config values it is given, and what each operation printed or returned
 * (stdout, stderr, the error's message, outputs not marked secret).
 */
function recordInto(scan: SecretScan, stack: Stack): void {
  const registerConfig = (key: string, value: ConfigValue) => {
    if (value.secret && value.value.length >= 8) scan.register(`secret config ${key}`, value.value);
  };
  const setConfig = stack.setConfig.bind(stack);
  stack.setConfig = (key: string, value: ConfigValue, path?: boolean) => {
    registerConfig(key, value);
    return setConfig(key, value, path);
  };
  const setAllConfig = stack.setAllConfig.bind(stack);
  stack.setAllConfig = (config: ConfigMap, path?: boolean) => {
    for (const [key, value] of Object.entries(config)) registerConfig(key, value);
    return setAllConfig(config, path);
  };
  const plainOutputs = (outputs: OutputMap | undefined) =>
    outputs ? JSON.stringify(Object.fromEntries(Object.entries(outputs).filter(([, o]) => !o.secret))) : undefined;
  const operations = ["up", "preview", "refresh", "destroy", "import", "outputs"] as const;
  for (const name of operations) {
    const original = (stack[name] as (...args: unknown[]) => Promise<unknown>).bind(stack);
    (stack as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      try {
        const result = (await original(...args)) as { stdout?: string; stderr?: string; outputs?: OutputMap } | OutputMap;
        if (name === "outputs") scan.record("stack outputs (not marked secret)", plainOutputs(result as OutputMap));
        else {
          const r = result as { stdout?: string; stderr?: string; outputs?: OutputMap };
          scan.record(`${name}: stdout`, r.stdout);
          scan.record(`${name}: stderr`, r.stderr);
          scan.record(`${name}: outputs (not marked secret)`, plainOutputs(r.outputs));
        }
        return result;
      } catch (error) {
        scan.record(`${name}: the error`, error instanceof Error ? error.message : String(error));
        throw error;
      }
    };
  }
}
