/**
 * Every relative link in the docs (docs/, README.md, examples/ READMEs) resolves: the file exists inside the
 * repository and, when the link names a heading (#anchor), the heading exists (GitHub's slugs).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repo = resolve(__dirname, "..", "..");

function markdownFiles(): string[] {
  const walk = (dir: string, keep: (path: string) => boolean): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === "node_modules" ? [] : walk(path, keep);
      return keep(path) ? [path] : [];
    });
  return [join(repo, "README.md"), ...walk(join(repo, "docs"), (p) => p.endsWith(".md")), ...walk(join(repo, "examples"), (p) => p.endsWith("README.md"))];
}

/** Markdown links and images, outside code blocks and code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] as string);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const match of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = (match[1] as string)
      .replace(/`/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

function brokenLinks(file: string): string[] {
  const markdown = readFileSync(file, "utf8");
  return linksOf(markdown).flatMap((link) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return []; // https:, mailto: ...
    const [path = "", anchor] = link.split("#");
    const target = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
    const where = `${relative(repo, file)}: ${link}`;
    if (relative(repo, target).startsWith("..")) return [`${where} (outside the repository)`];
    if (!existsSync(target)) return [`${where} (no such file)`];
    if (anchor && target.endsWith(".md") && !anchorsOf(readFileSync(target, "utf8")).has(anchor)) return [`${where} (no such heading)`];
    return [];
  });
}

describe("docs", () => {
  const files = markdownFiles();

  it("finds the pages", () => {
    expect(files.map((file) => relative(repo, file))).toEqual(expect.arrayContaining(["README.md", "docs/design.md", "docs/bench.md"]));
  });

  it("every relative link resolves inside the repository", () => {
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it("names no file outside the repository, even in code spans", () => {
    const outside = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/(?:\.\.\/)+shared\/[^\s)`]*/g)].map((match) => `${relative(repo, file)}: ${match[0]}`),
    );
    expect(outside).toEqual([]);
  });
});
