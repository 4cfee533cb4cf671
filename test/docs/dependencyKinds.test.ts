/**
 * What the docs say about the package's dependencies, checked against package.json: docs/design.md's dependency
 * tables name each runtime dependency and each optional peer dependency with its kind (an optional peer is never
 * called a dependency of the package) and with the version package.json pins; a sentence that calls packages runtime
 * dependencies names them, and each is one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const repo = join(__dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};
const optionalPeers = Object.keys(manifest.peerDependencies).filter((name) => manifest.peerDependenciesMeta[name]?.optional);
const runtime = Object.keys(manifest.dependencies);
const declared = new Set([...runtime, ...Object.keys(manifest.peerDependencies), ...Object.keys(manifest.devDependencies)]);

interface Row {
  line: number;
  cell: string;
  names: string[];
}

/** The first cells of the rows of every `| package | ...` table in docs/design.md. */
function dependencyRows(): Row[] {
  const lines = readFileSync(join(repo, "docs", "design.md"), "utf8").split("\n");
  const rows: Row[] = [];
  let inTable = false;
  lines.forEach((text, index) => {
    if (/^\| package \|/.test(text)) inTable = true;
    else if (!text.startsWith("|")) inTable = false;
    else if (inTable && !/^\|-/.test(text)) {
      const cell = text.split("|")[1]!.trim();
      rows.push({ line: index + 1, cell, names: [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((name) => !/^[\^~\d]/.test(name)) });
    }
  });
  return rows;
}

const rows = dependencyRows();
const flat = (path: string) => readFileSync(join(repo, path), "utf8").replace(/\s+/g, " ");
const DOCS = ["README.md", ...["design.md", "packaging.md", "email.md", "emulator.md", "avatar.md", "sdk.md", "plugin.md", "state.md"].map((f) => `docs/${f}`)];

describe("the docs' dependency facts", () => {
  it("docs/design.md's dependency tables name every runtime dependency and optional peer", () => {
    const named = new Set(rows.flatMap((row) => row.names));
    expect([...runtime, ...optionalPeers].filter((name) => !named.has(name))).toEqual([]);
  });

  it("a row naming an optional peer says so; a row naming a runtime dependency says neither peer nor dev", () => {
    const wrong: string[] = [];
    for (const row of rows) {
      if (row.cell.startsWith("dev ")) {
        for (const name of row.names.filter((n) => declared.has(n)))
          if (!(name in manifest.devDependencies)) wrong.push(`design.md:${row.line}: \`${name}\` is called dev but is not a devDependency`);
        continue;
      }
      for (const name of row.names) {
        if (optionalPeers.includes(name) && !row.cell.includes("optional peer"))
          wrong.push(`design.md:${row.line}: \`${name}\` is an optional peer dependency; the row should say "optional peer"`);
        if (runtime.includes(name) && /peer|dev/.test(row.cell)) wrong.push(`design.md:${row.line}: \`${name}\` is a runtime dependency`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a version in a row's package cell is the one package.json declares", () => {
    const wrong: string[] = [];
    for (const row of rows.filter((r) => r.names.length === 1)) {
      const name = row.names[0]!;
      const versions = [manifest.dependencies[name], manifest.peerDependencies[name], manifest.devDependencies[name]].filter(Boolean);
      for (const [version] of row.cell.matchAll(/[\^~]?\d+\.\d+\.\d+(?:-[\w.]+)?/g))
        if (!versions.includes(version)) wrong.push(`design.md:${row.line}: \`${name}\` ${version}, package.json: ${versions.join(", ")}`);
    }
    expect(wrong).toEqual([]);
  });

  it("a sentence calling packages runtime dependencies names them, and each is one", () => {
    const wrong: string[] = [];
    for (const path of DOCS) {
      for (const sentence of flat(path).split(/(?<=\.) /)) {
        if (!/runtime dependenc/i.test(sentence)) continue;
        const names = [...sentence.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((n) => declared.has(n));
        if (names.length === 0 || names.some((n) => !runtime.includes(n))) wrong.push(`${path}: "${sentence.slice(0, 160)}"`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
