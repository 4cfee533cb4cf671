#!/usr/bin/env node
/**
 * Bundles the provider runtime (provider/runtime/index.ts with the sdk code it uses) into one CommonJS file at
 * dist/provider/runtime/index.js, over the file tsc emitted there: the path the stored shims require
 * (`pulumi-svc/provider-runtime`, and `pulumi-svc/dist/provider/runtime` for stacks made by 0.1.0), so that path
 * and its exports stay what they were; only the way it is loaded changes. `node scripts/build-provider-runtime.mjs
 * [--outfile path]`. Called from `npm run build` (scripts/setup.mjs), after tsc.
 *
 * Why: the engine starts a new dynamic provider process for every operation, and each one resolved, read and
 * compiled the runtime's and the sdk's ~50 files one by one (docs/bench.md). Dependencies stay outside the bundle
 * (`packages: "external"`): zod and undici are loaded from node_modules as before (the compile cache the runtime
 * turns on first covers them), and the package does not ship a second copy of them.
 * Not minified: a stack trace from the provider stays readable.
 */
import { build } from "esbuild";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeChangedFiles } from "./writeChangedFiles.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const flag = process.argv.indexOf("--outfile");
const outfile = flag > 0 && process.argv[flag + 1] ? resolve(process.argv[flag + 1]) : resolve(root, "dist/provider/runtime/index.js");

/** The bundle's files ([path, text]), built in memory. */
export async function providerRuntimeBundle(target = outfile) {
  const result = await build({
    write: false,
    entryPoints: [resolve(root, "provider/runtime/index.ts")],
    outfile: target,
    bundle: true,
    packages: "external",
    format: "cjs",
    platform: "node",
    target: ["node22"],
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "warning",
  });
  return result.outputFiles.map((f) => [f.path, f.text]);
}

export async function buildProviderRuntime(target = outfile) {
  await mkdir(dirname(target), { recursive: true });
  await writeChangedFiles(await providerRuntimeBundle(target));
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = await buildProviderRuntime();
  const { size } = await stat(target);
  console.log(`provider runtime bundle: ${target} (${(size / 1024).toFixed(1)} KiB)`);
}
