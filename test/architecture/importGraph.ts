/**
 * The project's own import graph, read from the sources (relative imports only, `import type` included: a type
 * cycle is still a reading cycle; so are imports run for their effect and dynamic imports). Used by the architecture test to find file and folder cycles.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** `import x from`, `export ... from`, a bare `import "./x"` (run for its effect), `import("./x")` and `require("./x")`. */
const IMPORT = /(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"|(?:^|[;\s])import\s+"(\.{1,2}\/[^"]+)"|(?:import|require)\(\s*"(\.{1,2}\/[^"]+)"\s*\)/gm;

export type ImportGraph = Map<string, Set<string>>;

/** Every .ts file under `roots` (relative to `repo`) and the project files it imports. */
export function importGraph(repo: string, roots: string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const root of roots) {
    for (const file of tsFiles(join(repo, root))) {
      const from = relative(repo, file);
      const targets = new Set<string>();
      for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const spec = match[1] ?? match[2] ?? match[3];
        const target = spec ? resolveTs(resolve(dirname(file), spec)) : undefined;
        if (target) targets.add(relative(repo, target));
      }
      graph.set(from, targets);
    }
  }
  return graph;
}

/** The graph with each file replaced by its folder (self-edges dropped). */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const folders: ImportGraph = new Map();
  for (const [from, targets] of graph) {
    const edges = folders.get(dirname(from)) ?? new Set<string>();
    for (const target of targets) if (dirname(target) !== dirname(from)) edges.add(dirname(target));
    folders.set(dirname(from), edges);
  }
  return folders;
}

/** Strongly connected components of more than one node (Tarjan): each is a cycle. */
export function cycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : tsFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function resolveTs(base: string): string | undefined {
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base]) {
    try {
      if (statSync(candidate).isFile() && candidate.endsWith(".ts")) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}
