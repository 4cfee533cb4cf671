/**
 * The layout test's own checks, on planted trees: a folder cycle (no file cycle) is reported, and so is a file
 * cycle, through `import type`, `export ... from` and `require`; the same tree without the planted edge is clean.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cycles, folderGraph, importGraph } from "./importGraph";

const dir = mkdtempSync(join(tmpdir(), "svc-import-graph-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function plant(root: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, root, path)), { recursive: true });
    writeFileSync(join(dir, root, path), text);
  }
  return root;
}

describe("importGraph and cycles", () => {
  it("reports a folder cycle that no file cycle shows: a/one -> b/two -> a/three (a type import)", () => {
    const root = plant("folders", {
      "a/one.ts": 'import { two } from "../b/two";\nexport const one = two;\n',
      "b/two.ts": 'import type { Three } from "../a/three";\nexport const two: Three = 2;\n',
      "a/three.ts": "export type Three = number;\n",
    });
    const graph = importGraph(dir, [root]);
    expect(cycles(graph)).toEqual([]);
    expect(cycles(folderGraph(graph))).toEqual([["folders/a", "folders/b"]]);
  });

  it("reports nothing once the planted edge is gone", () => {
    const root = plant("clean", {
      "a/one.ts": 'import { two } from "../b/two";\nexport const one = two;\n',
      "b/two.ts": "export const two = 2;\n",
      "a/three.ts": "export type Three = number;\n",
    });
    expect(cycles(folderGraph(importGraph(dir, [root])))).toEqual([]);
  });

  it("reports a file cycle made by a re-export and a require, and a three-folder loop", () => {
    const root = plant("files", {
      "x/index.ts": 'export { y } from "../y/y";\n',
      "y/y.ts": 'export const y = 1;\nconst z = require("../z/z");\n',
      "z/z.ts": 'import "../x";\nexport const z = 1;\n',
    });
    const graph = importGraph(dir, [root]);
    expect(cycles(graph)).toEqual([["files/x/index.ts", "files/y/y.ts", "files/z/z.ts"]]);
    expect(cycles(folderGraph(graph))).toEqual([["files/x", "files/y", "files/z"]]);
  });
});
