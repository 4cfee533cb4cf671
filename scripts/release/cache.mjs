/** Where the release build caches what is slow to make (Node binaries, executables), and the hashes it keys them by. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";

export const cacheRoot = () => process.env.PULUMI_SVC_RELEASE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-svc", "release");

/** A short hash of strings and files (their paths relative to `root` and their bytes, folders walked in order). */
export function hashOf(root, ...items) {
  const hash = createHash("sha256");
  const add = (path) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name));
    else
      hash
        .update(`${relative(root, path)}\0`)
        .update(readFileSync(path))
        .update("\0");
  };
  for (const item of items) {
    if (typeof item === "object") hash.update(`${item.text}\0`);
    else add(join(root, item));
  }
  return hash.digest("hex").slice(0, 16);
}

export const sha256File = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");
