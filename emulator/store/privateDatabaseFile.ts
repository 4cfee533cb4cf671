/**
 * The state file holds every partner's admin secret and every app token's value: it is made readable by its owner
 * only (0600) before SQLite opens it, as the sdk's replay store's file is. SQLite would make it 0644 under the usual
 * umask, and its -wal and -shm files take the database file's mode, so they are 0600 too. A file left 0644 by an
 * earlier version is tightened, with the -wal and -shm files beside it.
 */
import { chmodSync, closeSync, constants, existsSync, openSync } from "node:fs";

export const PRIVATE_FILE_MODE = 0o600;

/** Makes `path` (and the journal files SQLite keeps beside it) exist with mode 0600. */
export function preparePrivateDatabaseFile(path: string): void {
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_RDWR, PRIVATE_FILE_MODE));
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}
