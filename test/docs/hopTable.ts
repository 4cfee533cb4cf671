/**
 * The hop tables of docs/life-of-a-create.md, read and checked against the code with TypeScript's own resolver.
 * A row is `| # | Where | Function | Reached | What it does |`: Where names the files (code spans; a bare `x.ts`
 * after a path is in that path's folder), Function the functions (`name`, `Class.method`, `Class` constructor; the
 * first is the hop's entry), Reached how a reader gets there:
 *  - `from N` (or `from N; from M` for a hop two paths share): go to definition works. Checked, for each: a file of hop N refers to the entry's implementation (the symbol
 *    under an identifier there resolves, through imports, re-exports and types, to a function, method or class with
 *    a body in this hop's files);
 *  - `implements N`: go to definition lands on an interface's member, and go to implementation lists this hop's
 *    entry. Checked: a file of hop N refers to a member of an interface (or object type), and the entry is a method
 *    of an object literal whose contextual type has that very member (`defineResource({ create() {...} })`);
 *  - `blind`: neither works. Checked too: no file of the hop before it refers to that implementation or to a
 *    member it implements (a lookup by name or a stored text lands on nothing);
 *  - `start`, `package`, `engine`, `HTTP`, `return`: where the path begins, crosses the package's exports map, the
 *    engine or the wire, or comes back; only the files and functions are checked.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";

export interface Hop {
  table: string;
  number: string;
  files: string[];
  functions: string[];
  reached: string;
}

function tsFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : tsFilesUnder(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const ROW = /^\|\s*(\d+\w?)\s*\|(.*)\|(.*)\|(.*)\|(.*)\|\s*$/;
const SPAN = /`([^`]+)`/g;

/** The hops of every table (a `## ` heading starts a table's name). */
export function hopsOf(markdown: string, repo: string): Hop[] {
  const hops: Hop[] = [];
  let table = "";
  for (const line of markdown.split("\n")) {
    if (line.startsWith("## ")) table = line.slice(3).trim();
    const row = ROW.exec(line);
    if (!row) continue;
    const [, number = "", where = "", fn = "", reached = ""] = row;
    hops.push({ table, number, files: filesOf(where, repo), functions: functionsOf(fn), reached: reached.trim() });
  }
  return hops;
}

function filesOf(cell: string, repo: string): string[] {
  const files: string[] = [];
  let folder = "";
  for (const [, span = ""] of cell.matchAll(SPAN)) {
    if (span.endsWith("/*")) {
      const dir = span.slice(0, -2);
      folder = dir;
      if (existsSync(join(repo, dir)))
        files.push(
          ...readdirSync(join(repo, dir))
            .filter((f) => f.endsWith(".ts"))
            .map((f) => `${dir}/${f}`),
        );
    } else if (/^[\w-]+\/[\w./-]+\.ts$/.test(span)) {
      files.push(span);
      folder = dirname(span);
    } else if (/^[\w-]+\.ts$/.test(span) && folder) {
      files.push(`${folder}/${span}`);
    } else if (/^[\w.-]+\.ts$/.test(span)) {
      files.push(span);
    }
  }
  return files;
}

function functionsOf(cell: string): string[] {
  return [...cell.matchAll(SPAN)].map((m) => m[1] as string).filter((span) => /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?$/.test(span));
}

/** The problems of the tables: a missing file or function, a `from N` that does not resolve, a `blind` that does. */
export function hopProblems(hops: Hop[], repo: string): string[] {
  const problems: string[] = [];
  const files = [...new Set(hops.flatMap((h) => h.files))].filter((f) => existsSync(join(repo, f)));
  // The project's own sources only (packages' types are not loaded: a hop is a file of the repository), so the
  // program takes a second or two, not twenty.
  const parts = new Set(["contract", ...files.filter((f) => f.includes("/")).map((f) => f.split("/")[0] as string)]);
  const roots = [...new Set([...files.map((f) => join(repo, f)), ...[...parts].flatMap((part) => tsFilesUnder(join(repo, part)))])];
  const program = ts.createProgram(roots, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    esModuleInterop: true,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    noResolve: true,
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = (file: string) => program.getSourceFile(join(repo, file));
  for (const hop of hops) {
    const at = `${hop.table} hop ${hop.number}`;
    for (const file of hop.files) if (!existsSync(join(repo, file))) problems.push(`${at}: ${file} does not exist`);
    for (const fn of hop.functions) {
      if (implementationsOf(fn, hop.files.map(source)).length === 0) problems.push(`${at}: ${fn} is not implemented in ${hop.files.join(", ")}`);
    }
  }
  for (const hop of hops) {
    const at = `${hop.table} hop ${hop.number}`;
    // `from N` (or several, one per path that reaches the hop: `from 6; from 5n`).
    const sources = [...hop.reached.matchAll(/(?:^|;\s*)from (\d+\w?)(?=;|$)/g)].map((m) => m[1] as string);
    const implementsHop = /^implements (\d+\w?)$/.exec(hop.reached)?.[1];
    const entry = hop.functions[0];
    if (implementsHop) {
      problems.push(...implementationProblems(hop, hops, implementsHop, source, checker));
      continue;
    }
    if (sources.length === 0 && hop.reached !== "blind") continue;
    if (!entry) {
      problems.push(`${at}: says "${hop.reached}" but names no function`);
      continue;
    }
    const targets = reachableVia(implementationsOf(entry, hop.files.map(source)), hop.files.map(source), checker);
    const refers = (h: Hop) => h.files.some((f) => refersTo(source(f), targets, checker));
    if (sources.length > 0) {
      for (const from of sources) {
        const caller = hops.find((h) => h.number === from);
        if (!caller) problems.push(`${at}: no hop ${from}`);
        else if (!refers(caller)) problems.push(`${at}: nothing in hop ${from}'s files (${caller.files.join(", ")}) leads to ${entry}`);
      }
      continue;
    }
    const index = hops.indexOf(hop);
    const previous = index > 0 && hops[index - 1]?.table === hop.table ? hops[index - 1] : undefined;
    if (!previous) problems.push(`${at}: a blind hop needs the hop before it in its table`);
    else if (refers(previous)) problems.push(`${at}: marked blind, but hop ${previous.number} (${previous.files.join(", ")}) leads to ${entry}`);
    else if (previous.files.some((f) => refersTo(source(f), implementedMembers(targets, checker), checker)))
      problems.push(`${at}: marked blind, but hop ${previous.number} calls a member that ${entry} implements (say "implements ${previous.number}")`);
  }
  return problems;
}

/** The problems of an `implements N` hop: hop N must call a member of a type that the hop's entry implements. */
function implementationProblems(
  hop: Hop,
  hops: Hop[],
  callerNumber: string,
  source: (file: string) => ts.SourceFile | undefined,
  checker: ts.TypeChecker,
): string[] {
  const at = `${hop.table} hop ${hop.number}`;
  const entry = hop.functions[0];
  const caller = hops.find((h) => h.number === callerNumber);
  if (!entry) return [`${at}: says "${hop.reached}" but names no function`];
  if (!caller) return [`${at}: no hop ${callerNumber}`];
  const members = implementedMembers(new Set(implementationsOf(entry, hop.files.map(source))), checker);
  if (members.size === 0) return [`${at}: ${entry} implements no member of an interface or object type`];
  if (!caller.files.some((f) => refersTo(source(f), members, checker)))
    return [`${at}: nothing in hop ${callerNumber}'s files (${caller.files.join(", ")}) calls a member that ${entry} implements`];
  return [];
}

/**
 * The interface or object-type members that these nodes implement: for a method (or function-valued property) of
 * an object literal, the declarations of the same-named property of the literal's contextual type, when they are
 * declared elsewhere (a member of an interface, not the literal itself).
 */
function implementedMembers(nodes: Set<ts.Node>, checker: ts.TypeChecker): Set<ts.Node> {
  const members = new Set<ts.Node>();
  for (const node of nodes) {
    if (!(ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node)) || !ts.isObjectLiteralExpression(node.parent)) continue;
    const name = nameOf(node);
    const contextual = checker.getContextualType(node.parent);
    const property = name === undefined ? undefined : contextual?.getProperty(name);
    for (const declaration of property?.declarations ?? []) {
      if (declaration !== node && (ts.isMethodSignature(declaration) || ts.isPropertySignature(declaration))) members.add(declaration);
    }
  }
  return members;
}

/**
 * What a reader can land on to find the implementations: themselves, the functions that return one (factories:
 * the returned function is in sight there), the object that holds one as a method, and a table (a top-level
 * constant) that names one. One step only: a lookup by name, a call through an interface or a stored text is not
 * followed.
 */
function reachableVia(implementations: ts.Node[], files: (ts.SourceFile | undefined)[], checker: ts.TypeChecker): Set<ts.Node> {
  const targets = new Set<ts.Node>(implementations);
  for (const node of implementations) {
    // Every named function or object around it, up to the file's top level: factories that return factories.
    for (let up = node.parent; up && !ts.isSourceFile(up); up = up.parent) if (nameOf(up) !== undefined) targets.add(up);
  }
  for (const file of files) {
    if (!file) continue;
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (declaration.initializer && refersTo(declaration.initializer, new Set(implementations), checker)) targets.add(declaration);
      }
    }
  }
  return targets;
}

/** The declarations with a body that `fn` names in these files: `name`, or `Owner.member`. */
function implementationsOf(fn: string, files: (ts.SourceFile | undefined)[]): ts.Node[] {
  const [owner, member] = fn.includes(".") ? fn.split(".") : [undefined, fn];
  const found: ts.Node[] = [];
  const visit = (node: ts.Node, within: string[]): void => {
    const name = nameOf(node);
    if (name === member && hasBody(node) && (owner === undefined || within.includes(owner))) found.push(node);
    const scope = name && (ts.isClassDeclaration(node) || ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) ? [...within, name] : within;
    ts.forEachChild(node, (child) => visit(child, scope));
  };
  for (const file of files) if (file) visit(file, []);
  return found;
}

function nameOf(node: ts.Node): string | undefined {
  if (ts.isFunctionExpression(node)) return node.name?.text;
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isVariableDeclaration(node) ||
    ts.isPropertyAssignment(node)
  ) {
    return node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  }
  return undefined;
}

function hasBody(node: ts.Node): boolean {
  if (ts.isClassDeclaration(node)) return true;
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isFunctionExpression(node)) return node.body !== undefined;
  if (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) {
    const init = node.initializer;
    return (
      init !== undefined &&
      (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isCallExpression(init) || ts.isNewExpression(init) || ts.isObjectLiteralExpression(init))
    );
  }
  return false;
}

/** Whether an identifier in `file` (or any node) resolves (aliases followed) to one of `targets`. */
function refersTo(file: ts.Node | undefined, targets: Set<ts.Node>, checker: ts.TypeChecker): boolean {
  if (!file || targets.size === 0) return false;
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol?.declarations?.some((d) => targets.has(d))) found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
