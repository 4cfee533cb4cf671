/**
 * Loads node:sqlite with its one-time ExperimentalWarning silenced (the emulator's store is real SQLite,
 * built into Node 22, nothing to compile). Only that warning is dropped; every other warning passes.
 */
import type * as sqlite from "node:sqlite";

function loadQuietly(): typeof sqlite {
  const original = process.emitWarning;
  process.emitWarning = function filtered(this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning.message;
    if (text.includes("SQLite is an experimental feature")) return;
    return (original as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("node:sqlite") as typeof sqlite;
  } finally {
    process.emitWarning = original;
  }
}

export const { DatabaseSync } = loadQuietly();
export type DatabaseSync = sqlite.DatabaseSync;
