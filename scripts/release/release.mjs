#!/usr/bin/env node
/**
 * `npm run release`: the release as a folder of files, dist/release/, from which a user in any language installs
 * the package and the engine downloads the plugin (docs/registry/installation-configuration.md):
 *
 *   pulumi-resource-svc-v<version>-<os>-<arch>.tar.gz   the plugin, one self-contained executable per platform
 *   SHA256SUMS                                          the checksum of every file above and below
 *   pulumi-svc-<version>.tgz                            the npm package (dynamic providers, pulumi-svc/native)
 *   pulumi_svc-<version>-py3-none-any.whl, .tar.gz      the Python SDK
 *   goproxy/<module>/@v/…                               the Go SDK, as a module proxy serves it
 *
 * The version is package.json's; the plugin's download URL is package.json's `pulumiSvc.pluginDownloadURL` unless
 * SVC_PLUGIN_DOWNLOAD_URL names another (a mirror's build: the schema, the SDKs, the plugin and the npm package then
 * name that one). `--all` builds every platform (npm run release); without it only this machine's (what the tests
 * use). `--out <dir>` writes elsewhere. A self-check then runs GetSchema on every executable this machine can run
 * (linux-arm64 through qemu-user when installed); `--no-check` skips it.
 *
 * Runs on the project's Node 22 after the build (scripts/setup.mjs): `node scripts/setup.mjs --languages -- scripts/release/release.mjs`.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPlugin } from "../build-plugin.mjs";
import { sha256File } from "./cache.mjs";
import { buildArchive } from "./executable.mjs";
import { hostPlatform, PLATFORMS, platformName } from "./platforms.mjs";
import { checkExecutable } from "./selfCheck.mjs";
import { goModuleProxy, npmTarball, pythonPackages } from "./sdkPackages.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The Go module of the SDK (scripts/sdks.ts writes its go.mod). */
export const GO_MODULE = "github.com/pulumi-svc/pulumi-svc/sdk/go";

const say = (msg) => process.stderr.write(`[release] ${msg}\n`);

function languageTools() {
  const marker = join(root, "node_modules", ".pulumi-svc-languages");
  if (!existsSync(marker)) throw new Error("the language tools are not set up: run `bash scripts/ensure-languages.sh` (npm run release does)");
  return JSON.parse(readFileSync(marker, "utf8"));
}

/** The SDK folders for `url`: the checked-in sdk-gen/ when it is package.json's, else a regeneration naming `url`. */
function sdkFolders(url, defaultUrl, work) {
  if (url === defaultUrl) return join(root, "sdk-gen");
  say(`regenerating the SDKs for the download URL ${url}`);
  const schema = JSON.parse(readFileSync(join(root, "plugin", "schema.json"), "utf8"));
  schema.pluginDownloadURL = url;
  const schemaPath = join(work, "schema.json");
  writeFileSync(schemaPath, JSON.stringify(schema, null, 2));
  const out = join(work, "sdk-gen");
  execFileSync(languageTools().codegen, [schemaPath, out], { stdio: ["ignore", "pipe", "inherit"] });
  cpSync(join(root, "sdk-gen", "go", "go.mod"), join(out, "go", "go.mod"));
  cpSync(join(root, "sdk-gen", "python", "README.md"), join(out, "python", "README.md"));
  return out;
}

export async function release({ all = false, out = join(root, "dist", "release"), check = true } = {}) {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const version = pkg.version;
  const defaultUrl = pkg.pulumiSvc?.pluginDownloadURL ?? "";
  const url = process.env.SVC_PLUGIN_DOWNLOAD_URL || defaultUrl;
  const work = mkdtempSync(join(tmpdir(), "pulumi-svc-release-"));
  try {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    // The bundle, built again into the work folder: it carries the URL of this build (build-plugin.mjs reads it).
    const bundle = join(await buildPlugin(join(work, "plugin")), "pulumi-resource-svc.js");
    const platforms = all ? PLATFORMS : [hostPlatform()];
    const archives = [];
    for (const platform of platforms) {
      archives.push(await buildArchive({ platform, bundle, version, licenseFile: join(root, "LICENSE"), outDir: out, log: say }));
    }
    const sdks = sdkFolders(url, defaultUrl, work);
    const { python } = languageTools();
    const [wheel, sdist] = pythonPackages(join(sdks, "python"), out, python);
    const proxy = goModuleProxy(join(sdks, "go"), GO_MODULE, `v${version}`, join(out, "goproxy"), python);
    const npm = npmTarball(root, out, url);
    const sums = listFiles(out)
      .filter((f) => f !== "SHA256SUMS")
      .map((f) => `${sha256File(join(out, f))}  ${f}\n`);
    writeFileSync(join(out, "SHA256SUMS"), sums.join(""));
    if (check) {
      for (const platform of platforms) {
        const archive = archives[platforms.indexOf(platform)];
        const result = checkExecutable(platform, archive, version, root);
        say(`self-check ${platformName(platform)}: ${result}`);
      }
    }
    for (const f of listFiles(out).filter((f) => !f.startsWith("goproxy/")))
      say(`${f.padEnd(48)} ${(statSync(join(out, f)).size / 1024 / 1024).toFixed(1)} MiB`);
    say(`wrote ${out}: ${archives.length} plugin archive(s), ${wheel}, ${sdist}, ${npm}, ${proxy}`);
    return { out, version, url, archives, wheel, sdist, npm };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function listFiles(dir, prefix = "") {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? listFiles(join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf("--out");
  await release({ all: argv.includes("--all"), out: at >= 0 ? resolve(argv[at + 1]) : undefined, check: !argv.includes("--no-check") });
}
