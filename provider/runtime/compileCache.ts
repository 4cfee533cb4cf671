/**
 * The engine starts a new dynamic provider process for every `pulumi up`, `preview`, `refresh` and `destroy`, and
 * each one compiles this runtime, the sdk, undici and zod again (about 250 modules). Node's on-disk compile cache
 * (`module.enableCompileCache`, keyed by file content; NODE_DISABLE_COMPILE_CACHE=1 turns it off) lets every process
 * after the first skip most of that. Imported first by the runtime's entry point, so that what the entry point loads
 * next is cached; flushed once it is loaded, because the engine ends the provider process with a signal, before
 * Node's own write at exit.
 *
 * Node runs what it finds in the cache, so the folder must be one nobody else can write: not Node's default (one
 * shared, predictable folder in the temp dir, where another user of a CI runner could plant code), but a folder of
 * this user (`pulumi-svc-compile-cache-<uid>` in the temp dir), created 0700 and checked before use: a real folder
 * (no symlink), owned by this user, not writable by group or others. A folder that fails the check is refused: the
 * provider runs without the cache (it only saves time) and says why on stderr once, naming the folder, so a planted
 * folder is noticed instead of silently worked around.
 */
import { lstatSync, mkdirSync } from "node:fs";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const cache = nodeModule as { enableCompileCache?: (dir?: string) => unknown; flushCompileCache?: () => void };

export type CacheFolder = { ok: true; dir: string } | { ok: false; dir: string; reason: string };

/**
 * This user's compile cache folder under `base`: created 0700 when missing, else checked (owner `uid`, a directory,
 * not a symlink, no group/other write bit). Without a uid (Windows, whose temp dir is per user) only the name is used.
 */
export function privateCacheFolder(base: string, uid: number | undefined): CacheFolder {
  const dir = join(base, uid === undefined ? "pulumi-svc-compile-cache" : `pulumi-svc-compile-cache-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return { ok: false, dir, reason: `it cannot be created (${(error as Error).message})` };
  }
  if (uid === undefined) return { ok: true, dir };
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink()) return { ok: false, dir, reason: "it is a symbolic link" };
  if (!stat.isDirectory()) return { ok: false, dir, reason: "it is not a directory" };
  if (stat.uid !== uid) return { ok: false, dir, reason: `it is owned by uid ${stat.uid}, not by this user (uid ${uid})` };
  if ((stat.mode & 0o022) !== 0) return { ok: false, dir, reason: `others can write to it (mode ${(stat.mode & 0o777).toString(8)})` };
  return { ok: true, dir };
}

/** Turns the cache on in this user's folder, or explains on stderr why it stays off. */
export function enablePrivateCompileCache(base = tmpdir(), uid = process.getuid?.()): CacheFolder | undefined {
  // NODE_COMPILE_CACHE: the user chose a folder, and Node turned the cache on there before this code ran.
  if (process.env.NODE_DISABLE_COMPILE_CACHE || process.env.NODE_COMPILE_CACHE || !cache.enableCompileCache) return undefined;
  const folder = privateCacheFolder(base, uid);
  if (!folder.ok) {
    process.stderr.write(`pulumi-svc: compile cache off: refusing ${folder.dir} because ${folder.reason}; remove it to get the cache back\n`);
    return folder;
  }
  try {
    cache.enableCompileCache(folder.dir);
  } catch {
    // A cache that cannot be set up only costs time.
  }
  return folder;
}

export function flushCompileCache(): void {
  try {
    cache.flushCompileCache?.();
  } catch {
    // As above: best effort.
  }
}

try {
  enablePrivateCompileCache();
} catch {
  // Never fail the provider over its cache.
}
