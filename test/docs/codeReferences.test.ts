/**
 * Every repository path and code symbol that the docs (README.md, docs/, examples/ READMEs) and the code comments
 * (sdk/, provider/, plugin/, emulator/, contract/) name exists (the rule: codeReferences.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { commentReferences, indexRepository, markdownReferences, problemOf } from "./codeReferences";

const repo = resolve(__dirname, "..", "..");
const COMMENTED = ["sdk", "provider", "plugin", "emulator", "contract"];
const index = indexRepository(repo, [...COMMENTED, "scripts", "bench", "test", "examples", "index.ts"]);

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : filesUnder(path, keep);
    return keep(path) ? [path] : [];
  });
}

const pages = [
  join(repo, "README.md"),
  ...filesUnder(join(repo, "docs"), (p) => p.endsWith(".md")),
  ...filesUnder(join(repo, "examples"), (p) => p.endsWith("README.md")),
];
const sources = COMMENTED.flatMap((dir) => filesUnder(join(repo, dir), (p) => /\.(ts|mts)$/.test(p) && !p.endsWith(".d.ts")));

describe("names in the docs and comments", () => {
  it("every path and symbol the docs name exists", () => {
    const refs = pages.flatMap((page) => markdownReferences(relative(repo, page), readFileSync(page, "utf8"), index));
    expect(refs.length).toBeGreaterThan(300);
    expect(refs.flatMap((ref) => problemOf(ref, index) ?? [])).toEqual([]);
  });

  it("every path and symbol the code comments name exists", () => {
    const refs = sources.flatMap((file) => commentReferences(relative(repo, file), readFileSync(file, "utf8"), index));
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.flatMap((ref) => problemOf(ref, index) ?? [])).toEqual([]);
  });
});
