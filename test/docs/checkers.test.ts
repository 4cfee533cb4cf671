/**
 * The docs checkers on planted trees: a path, a file name or a symbol that does not exist is reported, and the same
 * names that do exist are not; a hop marked `from N` that go to definition cannot reach fails, and so does a hop
 * marked `blind` that it can.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commentReferences, indexRepository, markdownReferences, problemOf } from "./codeReferences";
import { hopProblems, hopsOf } from "./hopTable";

const repo = mkdtempSync(join(tmpdir(), "svc-docs-checkers-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function plant(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
}

plant({
  "lib/store.ts":
    "export class DeliveryStore {\n  insert(row: number): number {\n    return row;\n  }\n}\nexport function openStore(): DeliveryStore {\n  return new DeliveryStore();\n}\n",
  "lib/channel.ts": "export interface Channel {\n  send(): void;\n}\n",
  "lib/mailer.ts": 'import type { Channel } from "./channel";\nexport class Mailer implements Channel {\n  send(): void {}\n}\n',
  "lib/notify.ts": [
    'import type { Channel } from "./channel";',
    'import { openStore } from "./store";',
    "export function notify(channel: Channel): number {\n  channel.send();\n  return openStore().insert(1);\n}",
    "/** Reads lib/store.ts and `DeliveryStore.insert`; once read lib/gone.ts, `RemovedThing` and old.ts. */",
    "export const TABLE = { mail: notify };",
    "",
  ].join("\n"),
  "scripts/build-bundle.mjs": 'console.log("writes dist/bundle.js");\n',
});

const index = indexRepository(repo, ["lib", "scripts"]);
const problems = (markdown: string) => markdownReferences("docs/page.md", markdown, index).flatMap((ref) => problemOf(ref, index) ?? []);

describe("codeReferences", () => {
  it("passes names that exist: paths, file names, exported symbols, members, a symbol next to its file", () => {
    expect(
      problems("See lib/store.ts and `lib/`, `store.ts`, `DeliveryStore`, `DeliveryStore.insert`, `openStore()`, `lib/notify.ts` `notify`, `Math.random`."),
    ).toEqual([]);
  });

  it("fails on a path, a file name or a symbol that does not exist", () => {
    expect(problems("Moved: lib/old.ts, `STYLE.md`, `DeliveryStore2`, `DeliveryStore.remove`, `closeStore()`, `lib/store.ts` `notify`.")).toEqual([
      "docs/page.md:1: path `lib/old.ts` does not exist",
      "docs/page.md:1: file name `STYLE.md`: no file of that name",
      "docs/page.md:1: symbol `DeliveryStore2` is exported nowhere in the repository",
      "docs/page.md:1: symbol `DeliveryStore.remove`: DeliveryStore has no member remove",
      "docs/page.md:1: symbol `closeStore` occurs nowhere in the code",
      "docs/page.md:1: symbol `notify` is not in lib/store.ts",
    ]);
  });

  it("checks paths inside code blocks too, and build output against its source or its build script", () => {
    expect(problems("```\ndist/lib/store.js dist/bundle.js\ndist/lib/missing.js\n```")).toEqual(["docs/page.md:3: path `dist/lib/missing.js` does not exist"]);
  });

  it("checks the code comments' paths, file names and code spans", () => {
    const file = "lib/notify.ts";
    const refs = commentReferences(file, index.source(file), index);
    expect(refs.flatMap((ref) => problemOf(ref, index) ?? [])).toEqual([
      "lib/notify.ts:7: path `lib/gone.ts` does not exist",
      "lib/notify.ts:7: file name `old.ts`: no file of that name",
      "lib/notify.ts:7: symbol `RemovedThing` is exported nowhere in the repository",
    ]);
  });
});

describe("hopTable", () => {
  const table = (rows: string) => `## Path\n\n| # | Where | Function | Reached | What |\n|---|---|---|---|---|\n${rows}\n`;
  const check = (rows: string) => hopProblems(hopsOf(table(rows), repo), repo);

  it("accepts hops reached as the table says: by import, and blind through an interface", () => {
    expect(
      check(
        [
          "| 1 | `lib/notify.ts` | `notify` | start | |",
          "| 2 | `lib/mailer.ts` | `Mailer.send` | blind | |",
          "| 3 | `lib/store.ts` | `openStore` | from 1 | |",
        ].join("\n"),
      ),
    ).toEqual([]);
  });

  it("fails a `from N` that go to definition cannot follow, a `blind` that it can, and a missing function or file", () => {
    expect(
      check(
        [
          "| 1 | `lib/notify.ts` | `notify` | start | |",
          "| 2 | `lib/mailer.ts` | `Mailer.send` | from 1 | |",
          "| 3 | `lib/store.ts` | `openStore` | from 9 | |",
          "| 4 | `lib/notify.ts` | `notify` | start | |",
          "| 5 | `lib/store.ts` | `DeliveryStore.insert` | blind | |",
          "| 6 | `lib/gone.ts` | `vanished` | start | |",
        ].join("\n"),
      ),
    ).toEqual([
      "Path hop 6: lib/gone.ts does not exist",
      "Path hop 6: vanished is not implemented in lib/gone.ts",
      "Path hop 2: nothing in hop 1's files (lib/notify.ts) leads to Mailer.send",
      "Path hop 3: no hop 9",
      "Path hop 5: marked blind, but hop 4 (lib/notify.ts) leads to DeliveryStore.insert",
    ]);
  });
});
