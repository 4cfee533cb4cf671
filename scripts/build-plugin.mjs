#!/usr/bin/env node
/**
 * Builds the native plugin into one self-contained folder, dist/pulumi-resource-svc/: the launcher `pulumi-resource-svc` and the
 * bundled entry `pulumi-resource-svc.js` (plugin, runtime, sdk, grpc-js, protobuf stubs, zod and undici in one file),
 * so the folder runs wherever it is copied: `plugins: providers: path`, PATH, or `pulumi plugin install --file`.
 * `node scripts/build-plugin.mjs [--outdir dir]`. Called from `npm run build` (scripts/setup.mjs), after tsc.
 */
import { build } from "esbuild";
import { chmod, copyFile, mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeChangedFiles } from "./writeChangedFiles.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const flag = process.argv.indexOf("--outdir");
const outdir = flag > 0 && process.argv[flag + 1] ? resolve(process.argv[flag + 1]) : resolve(root, "dist/pulumi-resource-svc");

export async function buildPlugin(target = outdir) {
  await mkdir(target, { recursive: true });
  const { version, pulumiSvc } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  // The release build may point a mirror's build elsewhere (docs/plugin.md, "Where the plugin is downloaded from").
  const pluginDownloadURL = process.env.SVC_PLUGIN_DOWNLOAD_URL || pulumiSvc?.pluginDownloadURL || "";
  const result = await build({
    write: false,
    entryPoints: [resolve(root, "plugin/main.ts")],
    outfile: join(target, "pulumi-resource-svc.js"),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: ["node22"],
    define: { __SVC_PLUGIN_VERSION__: JSON.stringify(version), __SVC_PLUGIN_DOWNLOAD_URL__: JSON.stringify(pluginDownloadURL) },
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "inline",
    logLevel: "warning",
  });
  await writeChangedFiles(result.outputFiles.map((f) => [f.path, f.text]));
  const launcher = join(target, "pulumi-resource-svc");
  await copyFile(resolve(root, "plugin/bin/pulumi-resource-svc"), launcher);
  await chmod(launcher, 0o755);
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = await buildPlugin();
  const { size } = await stat(join(target, "pulumi-resource-svc.js"));
  console.log(`plugin: ${target} (pulumi-resource-svc.js ${(size / 1024).toFixed(1)} KiB)`);
}
