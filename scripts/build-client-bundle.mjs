#!/usr/bin/env node
/**
 * Bundles the browser library (sdk/browser/index.ts) into one ES module: dist/client/svc-avatar-session.js.
 * `node scripts/build-client-bundle.mjs [--outfile path]`. Called from `npm run build`.
 */
import { build } from "esbuild";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeChangedFiles } from "./writeChangedFiles.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const flag = process.argv.indexOf("--outfile");
const outfile = flag > 0 && process.argv[flag + 1] ? resolve(process.argv[flag + 1]) : resolve(root, "dist/client/svc-avatar-session.js");

export async function buildClientBundle(target = outfile) {
  await mkdir(dirname(target), { recursive: true });
  const result = await build({
    write: false,
    entryPoints: [resolve(root, "sdk/browser/index.ts")],
    outfile: target,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    sourcemap: true,
    // zod (the shared contract) is most of the weight; minified it is about a third.
    minify: true,
    legalComments: "inline",
    logLevel: "warning",
  });
  // The bundle is an ES module in a CommonJS package: this marker makes Node and bundlers read it as one.
  const files = [...result.outputFiles.map((f) => [f.path, f.text]), [resolve(dirname(target), "package.json"), '{ "type": "module" }\n']];
  await writeChangedFiles(files);
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = await buildClientBundle();
  const { size } = await stat(target);
  console.log(`client bundle: ${target} (${(size / 1024).toFixed(1)} KiB)`);
}
