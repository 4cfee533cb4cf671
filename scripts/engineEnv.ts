/**
 * The environment for running this repo's Pulumi stacks locally with the engine that scripts/ensure-pulumi.sh
 * built: that bin dir and the project's Node 22 first on PATH, a file backend in .pulumi-state/, no plugin
 * downloads, no update checks. Shared by `npm run demo` and `npm run pulumi`.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const repoRoot = resolve(__dirname, "..", "..");
export const localStateDir = join(repoRoot, ".pulumi-state");
/** The dev stack's local-only passphrase (its secrets guard an emulator, nothing real). */
export const DEV_PASSPHRASE = "pulumi-svc-dev";

export function engineBinDir(): string {
  const marker = join(repoRoot, "node_modules", ".pulumi-svc-engine");
  if (!existsSync(marker)) throw new Error("The Pulumi engine is not set up: run `bash scripts/ensure-pulumi.sh` (npm run demo does it)");
  return readFileSync(marker, "utf8").trim();
}

export function engineEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  mkdirSync(localStateDir, { recursive: true });
  return {
    PATH: [engineBinDir(), join(repoRoot, "node_modules", ".bin"), base.PATH ?? ""].join(":"),
    PULUMI_BACKEND_URL: base.PULUMI_BACKEND_URL ?? `file://${localStateDir}`,
    PULUMI_CONFIG_PASSPHRASE: base.PULUMI_CONFIG_PASSPHRASE ?? DEV_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}
