/**
 * The plugin as one self-contained executable per platform, a Node.js single executable application (SEA): the
 * bundled plugin (dist/pulumi-resource-svc/pulumi-resource-svc.js) made into a SEA blob by this Node, injected with
 * postject into that platform's Node binary, and packed as the archive the engine downloads. Archives are cached by
 * their inputs (the bundle's bytes, the Node version, the platform), so a rebuild with nothing changed is a copy.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { copyFileSync, createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { cacheRoot, hashOf, sha256File } from "./cache.mjs";
import { nodeBinary } from "./nodeBinary.mjs";
import { archiveName, hostPlatformName, platformName } from "./platforms.mjs";

const require = createRequire(import.meta.url);
/** The fuse Node's SEA support looks for (Node's documentation, "Single executable applications"). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/**
 * Makes the SEA blob of `bundle`, with V8's code cache of it when `codeCache` (only for the platform of this Node:
 * the cache is V8's compiled code for this Node's build, which another platform's binary cannot take; it saves about
 * 40 ms of CPU per plugin start, docs/plugin.md). No startup snapshot: http2 must then be loaded after it, and it
 * saves about 20 ms of start for about 9 MiB more per process (docs/bench.md, "Tried, and did not pay"). No V8 flags
 * (`execArgv`): they make Node's built-in code cache miss.
 */
function seaBlob(bundle, dir, codeCache) {
  const config = join(dir, "sea-config.json");
  const blob = join(dir, "sea.blob");
  writeFileSync(config, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: codeCache, useSnapshot: false }));
  execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: ["ignore", "ignore", "inherit"] });
  return blob;
}

/** A .tar.gz of `files` in `dir`, the same bytes for the same files (sorted, owner 0, mtime 0, no gzip name). */
async function tarGz(dir, files, out) {
  const tar = join(dir, "archive.tar");
  execFileSync("tar", ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@0", "-cf", tar, "-C", dir, ...files]);
  await pipeline(createReadStream(tar), createGzip({ level: 9 }), createWriteStream(out));
  rmSync(tar);
}

/**
 * The archive of `platform` for the plugin `bundle` at `version`, copied into `outDir`; returns its path.
 * `licenseFile` goes beside the executable.
 */
export async function buildArchive({ platform, bundle, version, licenseFile, outDir, log = () => {} }) {
  const nodeVersion = process.version.slice(1);
  const postjectVersion = require("postject/package.json").version;
  const codeCache = platformName(platform) === hostPlatformName();
  const inputs = `${platformName(platform)} node ${nodeVersion} postject ${postjectVersion} code-cache ${codeCache} v${version} ${sha256File(bundle)} ${sha256File(licenseFile)}`;
  const key = hashOf("/", { text: inputs });
  const name = archiveName(version, platform);
  const cached = join(cacheRoot(), "archives", key, name);
  if (!existsSync(cached)) {
    const node = nodeBinary(platform, nodeVersion, log);
    log(`building ${name} (Node ${nodeVersion} SEA)`);
    mkdirSync(join(cacheRoot(), "archives"), { recursive: true });
    const tmp = mkdtempSync(join(cacheRoot(), "archives", ".build-"));
    try {
      const blob = seaBlob(bundle, tmp, codeCache);
      const exe = join(tmp, platform.exe);
      copyFileSync(node, exe);
      const { inject } = require("postject");
      await inject(exe, "NODE_SEA_BLOB", require("node:fs").readFileSync(blob), { sentinelFuse: SEA_FUSE });
      copyFileSync(licenseFile, join(tmp, "LICENSE"));
      rmSync(blob);
      await tarGz(tmp, [platform.exe, "LICENSE"], join(tmp, name));
      const done = join(tmp, "done");
      mkdirSync(done);
      renameSync(join(tmp, name), join(done, name));
      rmSync(join(cacheRoot(), "archives", key), { recursive: true, force: true });
      renameSync(done, join(cacheRoot(), "archives", key));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  mkdirSync(outDir, { recursive: true });
  copyFileSync(cached, join(outDir, name));
  return join(outDir, name);
}
