/**
 * The one place that knows where the Pulumi engine is and how to run it here: the bin dir scripts/ensure-pulumi.sh
 * built (recorded in node_modules/.pulumi-svc-engine), with the project's Node 22 next on PATH (the language host
 * and the dynamic provider host run `node`), no plugin downloads and no update checks. Used by the demo,
 * `npm run pulumi`, the bench and the end-to-end tests.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The repo root, found from this file whether it runs as TypeScript (vitest) or from dist/. */
export const repoRoot = findRepoRoot(__dirname);
/** The local file backend of `npm run demo` and `npm run pulumi`. */
export const localStateDir = join(repoRoot, ".pulumi-state");
/** The dev stack's local-only passphrase (its secrets guard an emulator, nothing real). */
export const DEV_PASSPHRASE = "pulumi-svc-dev";

function findRepoRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "pulumi-svc") return dir;
  }
  throw new Error(`no pulumi-svc package.json above ${from}`);
}

/** The bin dir holding pulumi, pulumi-language-nodejs and pulumi-resource-pulumi-nodejs; fails (never skips) without it. */
export function engineBinDir(): string {
  const marker = join(repoRoot, "node_modules", ".pulumi-svc-engine");
  if (!existsSync(marker)) throw new Error("The Pulumi engine is not set up: run `bash scripts/ensure-pulumi.sh` (npm test and npm run demo do it)");
  const bin = readFileSync(marker, "utf8").trim();
  for (const exe of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
    if (!existsSync(join(bin, exe))) throw new Error(`The Pulumi engine in ${bin} lacks ${exe}: run bash scripts/ensure-pulumi.sh`);
  }
  return bin;
}

export interface EngineEnvOptions {
  /** file:// URL of the state backend; default the local .pulumi-state/ (or PULUMI_BACKEND_URL when set). */
  backendUrl?: string;
  /** Default the dev passphrase (or PULUMI_CONFIG_PASSPHRASE when set). */
  passphrase?: string;
  /** PULUMI_HOME, e.g. a temp dir for tests. */
  home?: string;
}

export function engineEnv(options: EngineEnvOptions = {}, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    PATH: [engineBinDir(), join(repoRoot, "node_modules", ".bin"), base.PATH ?? ""].join(":"),
    PULUMI_BACKEND_URL: options.backendUrl ?? base.PULUMI_BACKEND_URL ?? `file://${localStateDir}`,
    PULUMI_CONFIG_PASSPHRASE: options.passphrase ?? base.PULUMI_CONFIG_PASSPHRASE ?? DEV_PASSPHRASE,
    ...(options.home ? { PULUMI_HOME: options.home } : {}),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}
