/**
 * Module-level mutable state in a source file, found with the TypeScript compiler's parser: what a module keeps
 * between calls outside any object, so that every importer shares it and tests must reset it. Reported, per
 * top-level statement: a `let` or `var`; a `const` made with `new` of a stateful class (Map, Set, WeakMap, WeakSet,
 * AbortController, AsyncLocalStorage, ProviderProcess), unless a Map or Set is typed ReadonlyMap or ReadonlySet (a
 * constant table the compiler keeps constant); a `const` that starts as an empty array or object (only useful to
 * fill); and a class's static property that is not `readonly`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** One binding: where it is and why it counts. */
export interface ModuleState {
  file: string;
  name: string;
  line: number;
  why: string;
}

const STATEFUL = new Set(["Map", "Set", "WeakMap", "WeakSet", "AbortController", "AsyncLocalStorage", "ProviderProcess"]);
const READONLY_TYPES: Record<string, string> = { Map: "ReadonlyMap", Set: "ReadonlySet" };

export function moduleStateOf(file: string, text: string): ModuleState[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: ModuleState[] = [];
  const note = (node: ts.Node, name: string, why: string) =>
    found.push({ file, name, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, why });
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const flags = statement.declarationList.flags;
      const keyword = flags & ts.NodeFlags.Let ? "let" : flags & ts.NodeFlags.Const ? "const" : "var";
      for (const declaration of statement.declarationList.declarations) {
        const name = declaration.name.getText(source);
        if (keyword !== "const") {
          note(declaration, name, `a module-level ${keyword}`);
          continue;
        }
        const init = declaration.initializer && skipWrappers(declaration.initializer);
        if (init && ts.isNewExpression(init)) {
          const made = init.expression.getText(source);
          const readonlyType = READONLY_TYPES[made];
          const typed = declaration.type?.getText(source) ?? "";
          if (STATEFUL.has(made) && !(readonlyType && typed.startsWith(`${readonlyType}<`))) note(declaration, name, `a module-level new ${made}`);
        }
        if (init && ts.isArrayLiteralExpression(init) && init.elements.length === 0) note(declaration, name, "a module-level empty array");
        if (init && ts.isObjectLiteralExpression(init) && init.properties.length === 0) note(declaration, name, "a module-level empty object");
      }
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
        const isStatic = modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        const isReadonly = modifiers.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
        if (ts.isPropertyDeclaration(member) && isStatic && !isReadonly) {
          note(member, `${statement.name?.getText(source) ?? "class"}.${member.name.getText(source)}`, "a static property that is not readonly");
        }
      }
    }
  }
  return found;
}

function skipWrappers(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current)) current = current.expression;
  return current;
}

/** Every `.ts` file under `root` (relative to `repo`), scanned. */
export function moduleStateUnder(repo: string, root: string): ModuleState[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) files.push(path);
    }
  };
  walk(join(repo, root));
  return files.sort().flatMap((path) => moduleStateOf(relative(repo, path), readFileSync(path, "utf8")));
}
