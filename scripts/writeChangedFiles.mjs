/**
 * Writes each [path, text] whose file does not already hold that text, for the build scripts' bundles: `npm pack`
 * (prepack) during a test run then never rewrites a file another test is reading.
 */
import { readFile, writeFile } from "node:fs/promises";

export async function writeChangedFiles(files) {
  for (const [path, text] of files) {
    const before = await readFile(path, "utf8").catch(() => undefined);
    if (before !== text) await writeFile(path, text);
  }
}
