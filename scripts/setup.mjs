#!/usr/bin/env node
// One-stop set-up, run first by `npm test`, `npm run demo` and friends, so each works by itself on a fresh clone.
// Runs on whatever `node` starts it (Node 20 before node_modules exists), so it stays plain ESM with no dependencies.
//
//   1. npm dependencies: `npm ci` when node_modules is missing or older than package-lock.json
//   2. the build: tsc (incremental) into dist/, the browser bundle and the provider runtime's bundle, unless --no-build
//   3. the Pulumi engine (scripts/ensure-pulumi.sh), unless --no-engine
//   4. Chromium for the browser test (scripts/ensure-chromium.sh), only with --browser
//   4b. the Python and YAML language hosts, the Python venv and the SDK generators (scripts/ensure-languages.sh),
//       only with --languages (test/languages/ needs them; `npm test` passes it)
//   5. with `-- <script> [args]`: runs that script on the project's Node 22 and exits with its status
// Each step is quick when there is nothing to do.
//
// Why step 5: in `node scripts/setup.mjs && node dist/x.js`, the shell remembers where it found `node` the first
// time, which on a fresh clone is the machine's Node 20 (node_modules/.bin/node did not exist yet).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { splitEngineWarnings } from "./npmEngineWarnings.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const split = argv.indexOf("--");
const args = new Set(split === -1 ? argv : argv.slice(0, split));
const then = split === -1 ? [] : argv.slice(split + 1);
const say = (msg) => process.stderr.write(`[setup] ${msg}\n`);
const run = (cmd, argv, opts = {}) => execFileSync(cmd, argv, { cwd: root, stdio: ["ignore", "inherit", "inherit"], ...opts });
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

// 1. Dependencies. npm writes node_modules/.package-lock.json on every install, so it tells whether the tree is current.
const installed = join(root, "node_modules", ".package-lock.json");
if (!existsSync(installed) || mtime(installed) < mtime(join(root, "package-lock.json"))) {
  say("installing npm dependencies (npm ci)");
  // Under `npm pack --dry-run` (prepack) npm hands `npm_config_dry_run` to this child: drop it, or the install
  // would be a dry run too and the build after it would find no dependencies.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.toLowerCase() !== "npm_config_dry_run"));
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, env, stdio: ["ignore", "inherit", "pipe"], encoding: "utf8" });
  // npm ran on this machine's node; the project runs on the Node 22 it just installed. Its engine warnings that
  // Node 22 answers are said once, in one line; anything else npm wrote goes through as it is.
  const projectNode = result.status === 0 ? execFileSync(join(root, "node_modules", ".bin", "node"), ["--version"], { encoding: "utf8" }).trim() : "";
  const { kept, expected } = splitEngineWarnings(result.stderr ?? "", projectNode);
  process.stderr.write(kept);
  if (expected.length > 0) {
    say(
      `this machine's node is ${process.version}; ${expected.length} package(s) ask for a newer one (npm's EBADENGINE warnings), and every script here runs on the project's own Node ${projectNode}`,
    );
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Everything after this runs on the project's own Node 22 from the `node` package.
const node22 = join(root, "node_modules", ".bin", "node");
const version = execFileSync(node22, ["--version"], { encoding: "utf8" }).trim();
if (!/^v2[2-9]\.|^v[3-9]\d\./.test(version)) throw new Error(`node_modules/.bin/node is ${version}; the project needs Node 22+`);

// 2. Build (incremental: a no-op build takes about a second).
if (!args.has("--no-build")) {
  run(node22, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json", "--incremental"]);
  const bundle = join(root, "scripts", "build-client-bundle.mjs");
  if (existsSync(bundle)) run(node22, [bundle]);
  // The provider runtime as one file, over the index.js tsc just emitted (same path, same exports).
  const runtime = join(root, "scripts", "build-provider-runtime.mjs");
  if (existsSync(runtime)) run(node22, [runtime]);
  // The native plugin as one self-contained folder (dist/pulumi-resource-svc).
  const plugin = join(root, "scripts", "build-plugin.mjs");
  if (existsSync(plugin)) run(node22, [plugin]);
}

// 3. The Pulumi engine.
if (!args.has("--no-engine")) run("bash", [join(root, "scripts", "ensure-pulumi.sh")], { stdio: ["ignore", "ignore", "inherit"] });

// 4. Chromium, for the test that loads the browser bundle.
const chromium = join(root, "scripts", "ensure-chromium.sh");
if (args.has("--browser") && existsSync(chromium)) run("bash", [chromium]);

// 4b. Other languages: hosts, venv, SDK generators (after the engine: they run on it).
if (args.has("--languages")) run("bash", [join(root, "scripts", "ensure-languages.sh")], { stdio: ["ignore", "ignore", "inherit"] });

// 5. The command this set-up was for.
if (then.length > 0) {
  const result = spawnSync(node22, then, { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? (result.signal ? 130 : 1));
}
