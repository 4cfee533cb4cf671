/**
 * Bundles the no-op native plugin (bench/noopPlugin/main.ts) into `dir`, as scripts/build-plugin.mjs bundles the real
 * one: `pulumi-resource-svc.js` beside a copy of the real launcher, so the engine starts it the same way.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { repoRoot } from "./engine";

export async function buildNoopPlugin(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [join(repoRoot, "bench", "noopPlugin", "main.ts")],
    outfile: join(dir, "pulumi-resource-svc.js"),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: ["node22"],
    // Minified as scripts/build-plugin.mjs builds the real one, so the floor is fair.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: true,
    // The package's version, as the real plugin's: the programs ask for that version.
    define: { __SVC_PLUGIN_VERSION__: JSON.stringify((JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version) },
    logLevel: "warning",
  });
  const launcher = join(dir, "pulumi-resource-svc");
  copyFileSync(join(repoRoot, "plugin", "bin", "pulumi-resource-svc"), launcher);
  chmodSync(launcher, 0o755);
  return dir;
}
