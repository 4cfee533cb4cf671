/**
 * What the docs and the code comments name, checked against the repository: every repository path (a file or a
 * folder) and every symbol written in a code span.
 *
 * The rule, strict where a name can only mean the repository and quiet where it may mean something else:
 *  - a path is a word that starts with one of the repository's top-level folders (`emulator/...`, `docs/...`) or
 *    with `dist/` (checked against the source it is built from); it is checked wherever it stands, prose and code
 *    blocks included. A bare file name (`ks.ts`, `DESIGN.md`) is checked in code spans and in comments: some file
 *    of that name must exist somewhere in the repository;
 *  - a symbol is a code span that can only be a code name: `PascalCase` with two humps or more, `UPPER_CASE` with an
 *    underscore, `name()` (a call), `Name.member`. A PascalCase type or class must be exported by a source file,
 *    imported from a package somewhere in the sources, a JavaScript global, or a wire name the code writes in a
 *    string (`SvcAppToken`); the others (error codes, environment variables, methods) must occur in the code, comments
 *    left out; `Name.member` also needs the member in the file that declares `Name`;
 *  - a symbol written next to a path (`emulator/api/call.ts` `ApiCall`, or `ApiCall` (`emulator/api/call.ts`)) is
 *    checked in that file: a camelCase name there too, since the path says where to look.
 * ALLOWED lists the deliberate names that are none of the repository's, each with its reason.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";

export interface Reference {
  /** Where it is written: repository-relative file and 1-based line. */
  at: string;
  kind: "path" | "file name" | "symbol";
  name: string;
  /** For a symbol written next to a path: the file it must be in. */
  in?: string;
  /** The folder of the page or file it is written in (a `dist/` path may be that folder's build output). */
  base?: string;
}

/** Names that stand for something outside this repository, on purpose. */
export const ALLOWED: Record<string, string> = {
  "sdk/v3": "Pulumi's Go module (github.com/pulumi/pulumi/sdk/v3), not this repository's sdk/",
  "sdk/nodejs/cmd/pulumi-language-nodejs/v3": "a folder of Pulumi's repository (the Node.js language host)",
  "sdk/python/cmd/pulumi-language-python/v3": "a folder of Pulumi's repository (the Python language host)",
  LanguageRuntime: "Pulumi's gRPC service of a language host",
  RunPlugin: "a method of Pulumi's LanguageRuntime service",
  GeneratePackage: "a method of Pulumi's LanguageRuntime service",
  ExpectNoChanges: "an option of Pulumi's Go Automation API",
  AdditionalSecretOutputs: "a resource option of Pulumi's Go SDK",
  KalturaEmailNotificationTemplate: "the real platform's wire name, which the emulator's differs from",
  SvcStringValue: "the real platform's wire type of a recipient's fields, which the emulator simplifies",
  "punycode.js": "Node.js's deprecated built-in module, whose warning the package avoids",
  "takeover.ts": "the file `pulumi-svc takeover` writes into the user's project",
  PULUMI_ACCESS_TOKEN: "Pulumi Cloud's token variable, read by the pulumi CLI, never by this code",
  ENTRY_READY_PROD: "a template name the example composes (ENTRY_READY_ and the stack's suffix)",
  "dist/bootstrap.js": "the pipeline-app-token example's build output, named on the gitops page",
  SignalCancellation: "a function of Pulumi's engine (resource/plugin/provider_plugin.go), cited in design.md",
  ProjectInfoContext: "a function of Pulumi's engine (engine/deployment.go), cited in design.md",
  "snapshot.go": "a file of Pulumi's engine (backend/snapshot.go), cited in design.md",
  "deployment_executor.go": "a file of Pulumi's engine (resource/deploy/), cited in design.md",
  "step_executor.go": "a file of Pulumi's engine (resource/deploy/), cited in design.md",
  "dist/release-test/": "the folder `npm test` builds the host platform's release into (build output)",
  "Main.yaml": "the file `pulumi-svc takeover --language yaml` writes into the user's project",
  "plugin/dynamic": "a column of the bench's table (the plugin's time over the dynamic provider's), not a path",
};

const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git", ".pulumi-state", "coverage", "__pycache__", ".venv", "bin"]);

export interface RepoIndex {
  root: string;
  /** Repository-relative paths of every file and folder. */
  paths: Set<string>;
  /** Every file's base name. */
  fileNames: Set<string>;
  /** Top-level folders: a word starting with one of them is a repository path. */
  topFolders: string[];
  /** Names a source file declares at its top level or exports, by file. */
  declared: Map<string, Set<string>>;
  /** Every name exported by a source file, anywhere. */
  exported: Set<string>;
  /** Names imported from packages (so they exist, outside the repository). */
  imported: Set<string>;
  /** Every word of the sources' code (comments left out): identifiers and the words inside strings. */
  codeWords: Set<string>;
  /** The words written inside string literals of the sources. */
  stringWords: Set<string>;
  /** The text of each source file, for members. */
  source(file: string): string;
  /** Whether a build script (scripts/build-*.mjs) writes a file of this name. */
  buildScriptsName(fileName: string): boolean;
}

export function indexRepository(root: string, sourceRoots: readonly string[]): RepoIndex {
  const paths = new Set<string>();
  const fileNames = new Set<string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (SKIPPED_DIRS.has(name)) continue;
      const path = join(dir, name);
      const rel = relative(root, path);
      paths.add(rel);
      if (statSync(path).isDirectory()) walk(path);
      else fileNames.add(name);
    }
  };
  walk(root);
  const topFolders = readdirSync(root).filter((name) => !name.startsWith(".") && !SKIPPED_DIRS.has(name) && statSync(join(root, name)).isDirectory());
  const declared = new Map<string, Set<string>>();
  const exported = new Set<string>();
  const imported = new Set<string>();
  const codeWords = new Set<string>();
  const stringWords = new Set<string>();
  const texts = new Map<string, string>();
  for (const path of paths) {
    if (!sourceRoots.some((r) => path === r || path.startsWith(`${r}/`))) continue;
    if (/\.(sh|ya?ml|py|go)$/.test(path) || basename(path) === "Dockerfile") {
      // Scripts and pipelines: their words count as code (environment variables, commands).
      for (const m of readFileSync(join(root, path), "utf8").matchAll(/[A-Za-z_$][\w$]*/g)) codeWords.add(m[0]);
      continue;
    }
    if (!/\.(ts|mts|mjs|js)$/.test(path) || path.endsWith(".d.ts")) continue;
    const text = readFileSync(join(root, path), "utf8");
    texts.set(path, text);
    const names = new Set<string>();
    for (const m of text.matchAll(
      /^(export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm,
    )) {
      names.add(m[2] as string);
      if (m[1]) exported.add(m[2] as string);
    }
    for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
      for (const part of (m[1] as string).split(",")) {
        const name = part
          .trim()
          .split(/\s+as\s+/)
          .pop()
          ?.replace(/^type\s+/, "");
        if (name) names.add(name), exported.add(name);
      }
    }
    for (const m of text.matchAll(/import\s+(?:type\s+)?(?:\*\s+as\s+(\w+)|(\w+)?\s*,?\s*\{([^}]*)\}|(\w+))\s+from\s+"([^".][^"]*)"/g)) {
      for (const name of [
        m[1],
        m[2],
        m[4],
        ...(m[3] ?? "").split(",").map((p) =>
          p
            .trim()
            .split(/\s+as\s+/)[0]
            ?.replace(/^type\s+/, ""),
        ),
      ]) {
        if (name) imported.add(name);
      }
    }
    declared.set(path, names);
    const code = withoutComments(text);
    for (const m of code.matchAll(/[A-Za-z_$][\w$]*/g)) codeWords.add(m[0]);
    for (const m of code.matchAll(/"([^"\n]*)"|'([^'\n]*)'|`([^`]*)`/g)) {
      for (const w of (m[1] ?? m[2] ?? m[3] ?? "").matchAll(/[A-Za-z_$][\w$]*/g)) stringWords.add(w[0]);
    }
  }
  return {
    root,
    paths,
    fileNames,
    topFolders,
    declared,
    exported,
    imported,
    codeWords,
    stringWords,
    buildScriptsName: (fileName) =>
      readdirSync(join(root, "scripts"))
        .filter((name) => name.startsWith("build-"))
        .some((name) => readFileSync(join(root, "scripts", name), "utf8").includes(fileName)),
    source: (file) => texts.get(file) ?? (existsSync(join(root, file)) ? readFileSync(join(root, file), "utf8") : ""),
  };
}

const SPAN = /`([^`\n]+)`/g;
const FILE_NAME = /^[\w.-]+\.(?:ts|mts|mjs|js|md|json|yaml|yml|go|py|sh|proto)$/;
const SYMBOL = /^(?:[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+|[A-Z][A-Z0-9]*_[A-Z0-9_]+)$/;
const CALL = /^([A-Za-z_$][\w$]*)\((?:[^()]*)\)$/;
const MEMBER = /^([A-Z][A-Za-z0-9]+)\.([a-z_$][\w$]*)(?:\([^()]*\))?$/;
const IDENT = /^[a-z_$][\w$]*$/;

/** The paths in a piece of text: words that start with a top-level folder or `dist/`. */
function pathsIn(text: string, index: RepoIndex): string[] {
  const tops = [...index.topFolders, "dist"].map((t) => t.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")).join("|");
  const found: string[] = [];
  for (const m of text.matchAll(new RegExp(`(?<![\\w./@:~-])(?:\\./)?((?:${tops})/[\\w./*{},@-]*)`, "g"))) {
    const path = (m[1] as string).replace(/[.,:;)]+$/, "");
    if (path.includes("/")) found.push(path);
  }
  return found;
}

/** The references of one markdown page. */
export function markdownReferences(file: string, markdown: string, index: RepoIndex): Reference[] {
  const refs: Reference[] = [];
  let fenced = false;
  markdown.split("\n").forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return;
    }
    // Links are the links test's; their targets are paths too, so they are checked here as well.
    for (const path of pathsIn(line.replace(/\]\([^)]*\)/g, "]"), index)) refs.push({ at, kind: "path", name: path, base: dirname(file) });
    if (fenced) return;
    refs.push(...fileNamesIn(line.replace(SPAN, " ").replace(/\]\([^)]*\)/g, "]"), at));
    refs.push(...spanReferences(line, at, index));
  });
  return refs;
}

/** The references of one source file's comments. */
export function commentReferences(file: string, source: string, index: RepoIndex): Reference[] {
  const refs: Reference[] = [];
  source.split("\n").forEach((line, i) => {
    const comment = /^\s*(?:\/\*\*?|\*(?!\/)|\/\/)(.*)$/.exec(line)?.[1] ?? /\s\/\/\s(.*)$/.exec(line)?.[1];
    if (comment === undefined) return;
    const at = `${file}:${i + 1}`;
    for (const path of pathsIn(comment, index)) refs.push({ at, kind: "path", name: path });
    refs.push(...fileNamesIn(comment.replace(SPAN, " "), at));
    refs.push(...spanReferences(comment, at, index));
  });
  return refs;
}

/** Bare file names outside code spans: `name.ts` and `NAME.md` words. */
function fileNamesIn(text: string, at: string): Reference[] {
  return [...text.matchAll(/(?<![\w./-])([A-Za-z][\w-]*\.(?:ts|md))(?![\w/])/g)].map((m) => ({ at, kind: "file name" as const, name: m[1] as string }));
}

function spanReferences(line: string, at: string, index: RepoIndex): Reference[] {
  const refs: Reference[] = [];
  const spans = [...line.matchAll(SPAN)].map((m) => ({ text: (m[1] as string).trim(), start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
  spans.forEach((span, n) => {
    const text = span.text;
    if (!text.includes("/") && FILE_NAME.test(text)) {
      refs.push({ at, kind: "file name", name: text });
      return;
    }
    // A path next to it says which file the symbol is in: "`path` `name`" or "`name` (`path`)".
    const before = spans[n - 1];
    const after = spans[n + 1];
    const pathBefore = before && /^\s*$/.test(line.slice(before.end, span.start)) && isRepoPath(before.text, index) ? before.text : undefined;
    const pathAfter = after && /^\s*\(\s*$/.test(line.slice(span.end, after.start)) && isRepoPath(after.text, index) ? after.text : undefined;
    const file = pathBefore ?? pathAfter;
    const name = symbolOf(text, file !== undefined);
    if (name) refs.push({ at, kind: "symbol", name, ...(file && /\.(ts|mts)$/.test(file) ? { in: file } : {}) });
  });
  return refs;
}

function isRepoPath(text: string, index: RepoIndex): boolean {
  return index.topFolders.some((top) => text.startsWith(`${top}/`)) && !/\s/.test(text);
}

/** The code name a span stands for, or undefined when it may be a word, a value or a field. */
function symbolOf(text: string, nextToPath: boolean): string | undefined {
  if (SYMBOL.test(text) || MEMBER.test(text)) return text.replace(/\(.*\)$/, "");
  const call = CALL.exec(text);
  if (call) return call[1];
  if (nextToPath && IDENT.test(text)) return text;
  return undefined;
}

/** Why a reference does not resolve, or undefined when it does. */
export function problemOf(ref: Reference, index: RepoIndex): string | undefined {
  if (ref.name in ALLOWED) return undefined;
  const where = `${ref.at}: ${ref.kind} \`${ref.name}\``;
  if (ref.kind === "path")
    return pathExists(ref.name, index) || (ref.base && pathExists(join(ref.base, ref.name), index)) ? undefined : `${where} does not exist`;
  if (ref.kind === "file name") return index.fileNames.has(ref.name) || index.buildScriptsName(ref.name) ? undefined : `${where}: no file of that name`;
  const [owner = "", member] = ref.name.split(".");
  if (ref.in) {
    if (!index.paths.has(ref.in)) return undefined; // the path itself is reported
    const text = index.source(ref.in);
    const names = index.declared.get(ref.in) ?? new Set<string>();
    const inFile = member ? names.has(owner) && hasMember(text, member) : names.has(owner) || hasMember(text, owner);
    return inFile ? undefined : `${where} is not in ${ref.in}`;
  }
  if (owner in globalThis) return undefined; // Math.random, Object.prototype, AbortSignal
  if (/^[A-Z][a-z]/.test(owner) && !member) {
    const real = index.exported.has(owner) || index.imported.has(owner) || index.stringWords.has(owner);
    return real ? undefined : `${where} is exported nowhere in the repository`;
  }
  if (!index.codeWords.has(owner)) return `${where} occurs nowhere in the code`;
  if (member && ![...index.declared].some(([file, names]) => names.has(owner) && hasMember(index.source(file), member))) {
    return index.imported.has(owner) ? undefined : `${where}: ${owner} has no member ${member}`;
  }
  return undefined;
}

/** Source text without its comments (strings kept; a `//` inside a string is rare enough here). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

function hasMember(text: string, member: string): boolean {
  return new RegExp(`(?:^|[\\s.])(?:(?:async|static|get|set|readonly|private|protected|public)\\s+)*${member.replace(/\$/g, "\\$")}\\s*[(:=<?]`, "m").test(
    text,
  );
}

function pathExists(path: string, index: RepoIndex): boolean {
  const clean = path
    .replace(/[#?].*$/, "")
    .replace(/:\d+(?:-\d+)?$/, "")
    .replace(/\/$/, "");
  const dist = /^(.*?)(?:^|\/)dist(?:\/(.*))?$/.exec(clean);
  if (dist) {
    // Build output: the source it is built from, or a file a build script names (the bundles).
    const [, folder = "", built = ""] = dist;
    if (built === "") return folder === "" || index.paths.has(folder);
    const source = join(folder, built.replace(/\.d\.ts$|\.js$/, ".ts"));
    return index.paths.has(source) || index.paths.has(source.replace(/\.ts$/, "")) || index.buildScriptsName(built.split("/").pop() as string);
  }
  if (clean.includes("*") || clean.includes("{")) {
    const prefix = clean.slice(0, clean.search(/[*{]/));
    const dir = prefix.endsWith("/") ? prefix.slice(0, -1) : dirname(prefix);
    return index.paths.has(dir) && [...index.paths].some((p) => p.startsWith(prefix));
  }
  return index.paths.has(clean) || existsSync(join(index.root, clean));
}
