#!/usr/bin/env node
/**
 * Builds the native plugin into one self-contained folder, dist/pulumi-resource-svc/: the launcher `pulumi-resource-svc` and the
 * bundled entry `pulumi-resource-svc.js` (plugin, runtime, sdk, protobuf messages, zod and undici in one file),
 * so the folder runs wherever it is copied: `plugins: providers: path`, PATH, or `pulumi plugin install --file`.
 * Every process reads and compiles this file: only what the plugin runs goes in (never a package of NOT_BUNDLED),
 * and blanks and comments go out (identifiers stay, so stacks and error names read as in the sources; the linked map
 * has the lines).
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

/**
 * Packages the plugin must not carry: it serves gRPC on node:http2 itself (plugin/grpcServer.ts), so grpc-js (about
 * 300 kB of the bundle, 17 MiB and 50 ms per process) and what it loads would only be weight. The build fails if an
 * import brings one back (the protocol's *_grpc_pb stubs require grpc-js: the plugin imports only their types).
 */
export const NOT_BUNDLED = ["@grpc/grpc-js", "@grpc/proto-loader", "protobufjs"];

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
    metafile: true,
    // Every start reads and compiles this file, and the package ships it: minified, with functions and classes keeping
    // their names (stack traces and error names stay readable; the linked source map, not packed, maps the rest).
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: true,
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "eof",
    logLevel: "warning",
  });
  const carried = Object.keys(result.metafile.inputs).filter((input) => NOT_BUNDLED.some((name) => input.includes(`node_modules/${name}/`)));
  if (carried.length > 0) throw new Error(`the plugin bundle must not carry ${carried.join(", ")} (scripts/build-plugin.mjs, NOT_BUNDLED)`);
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
