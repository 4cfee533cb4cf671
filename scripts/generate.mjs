#!/usr/bin/env node
/**
 * `npm run generate`: runs scripts/generate.ts from the sources, bundled by esbuild (dependencies stay in
 * node_modules), rather than from the tsc build: a definition changed so that the checked-in generated files no
 * longer type-check (a new resource, a new required input) must still regenerate them.
 */
import { build } from "esbuild";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// Where tsc puts it too: the script finds the repository from its own folder.
const outfile = resolve(root, "dist/scripts/generate.js");
await build({
  entryPoints: [resolve(root, "scripts/generate.ts")],
  outfile,
  bundle: true,
  packages: "external",
  format: "cjs",
  platform: "node",
  target: ["node22"],
  logLevel: "warning",
});
createRequire(import.meta.url)(outfile);
