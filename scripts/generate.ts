/**
 * Writes what is derived from the resource definitions (provider/definitions) and checked in: the dynamic resources'
 * field table (read by programs, which must not load zod or the runtime), the plugin's package schema, and the
 * field tables of docs/resources.md. `npm run generate`; test/provider/generated.test.ts fails when a checked-in
 * file differs from what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatedFiles } from "./generatedFiles";

const root = join(__dirname, "..", "..");
let changed = 0;
for (const [path, text] of generatedFiles()) {
  const file = join(root, path);
  let before: string | undefined;
  try {
    before = readFileSync(file, "utf8");
  } catch {}
  if (before === text) continue;
  writeFileSync(file, text);
  changed++;
  console.log(`wrote ${path}`);
}
console.log(changed === 0 ? "generated files are current" : `${changed} file(s) written`);
