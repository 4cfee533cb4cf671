/**
 * Writing takeover's files (the import file and the program describe an account): each is written to a temporary
 * file beside its target, created exclusively and without following links, mode 0600, then given the target's name
 * in one step, so a reader never sees half a file and a failed run leaves none behind. A target that is a symbolic
 * link is refused, --force or not (writing through it would put the file wherever the link points). Without
 * overwrite an existing target is refused, and the last step is a hard link, which fails rather than replace a file
 * that appeared since the check; with overwrite it is a rename, which replaces the name, never what a link points to.
 */
import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

export interface PlannedFile {
  path: string;
  text: string;
}

/** Mode of every file written: read and write for the owner only. */
export const PRIVATE_MODE = 0o600;

/** Writes all `files` or none: a failure removes the temporary files, and the targets this call created. */
export async function writePrivateFiles(files: readonly PlannedFile[], options: { overwrite: boolean }): Promise<void> {
  const paths = files.map((f) => resolve(f.path));
  if (new Set(paths).size !== paths.length) throw new Error("two of the files to write have the same path");
  const existed = await Promise.all(files.map((f) => checkTarget(f.path, options.overwrite)));
  const staged: { path: string; temp: string }[] = [];
  const created: string[] = [];
  try {
    for (const file of files) staged.push({ path: file.path, temp: await stage(file) });
    for (const [i, { path, temp }] of staged.entries()) {
      await commit(path, temp, options.overwrite);
      if (!existed[i]) created.push(path);
    }
  } catch (error) {
    await Promise.all([...staged.map((s) => s.temp), ...created].map((path) => fs.rm(path, { force: true })));
    throw error;
  }
}

/** Whether the target exists; throws when it must not be written: a link, not a file, or existing without overwrite. */
async function checkTarget(path: string, overwrite: boolean): Promise<boolean> {
  const stat = await fs.lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!stat) return false;
  if (stat.isSymbolicLink()) throw new Error(`${path} is a symbolic link; takeover does not write through links (give the path of a regular file)`);
  if (!stat.isFile()) throw new Error(`${path} exists and is not a file`);
  if (!overwrite) throw new Error(`${path} exists; pass --force to overwrite it (or choose another path)`);
  return true;
}

/** The text in a new temporary file beside `path` (same folder, so the rename or link stays on one file system). */
async function stage(file: PlannedFile): Promise<string> {
  const temp = join(dirname(file.path), `.${basename(file.path)}.${randomBytes(8).toString("hex")}.tmp`);
  // O_EXCL: a file or link already at the temporary name fails the open rather than being written through.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const handle = await fs.open(temp, flags, PRIVATE_MODE);
  try {
    await handle.writeFile(file.text, "utf8");
    await handle.sync();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw error;
  }
  return temp;
}

async function commit(path: string, temp: string, overwrite: boolean): Promise<void> {
  if (overwrite) return fs.rename(temp, path);
  try {
    await fs.link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new Error(`${path} exists; pass --force to overwrite it (or choose another path)`);
    throw error;
  }
  await fs.rm(temp, { force: true });
}
