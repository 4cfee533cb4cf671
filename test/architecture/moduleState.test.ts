/**
 * No module-level mutable state in provider/ or plugin/: what a provider process keeps between operations belongs
 * to its provider process (provider/core/providerProcess.ts), made by each entry point and passed down, so a reader
 * follows it by go to definition and a test makes a fresh one instead of resetting a module. The scanner
 * (moduleState.ts) is checked on planted sources below.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { moduleStateOf, moduleStateUnder } from "./moduleState";

const repo = join(__dirname, "..", "..");

/**
 * The one allowed binding, by file and name. The dynamic provider runtime is the composition root of its process:
 * the engine's shims load the module and call `configure` and `<runtimeExport>.<method>` on it with no object of their own
 * to hold (a contract stored in every stack), so the process's one session lives in that module.
 */
const ALLOWED = [{ file: "provider/runtime/session.ts", name: "session" }];

describe("module-level state", () => {
  it("provider/ and plugin/ hold none outside the runtime's composition root", () => {
    const found = ["provider", "plugin"].flatMap((root) => moduleStateUnder(repo, root));
    const unexpected = found.filter((state) => !ALLOWED.some((allowed) => allowed.file === state.file && allowed.name === state.name));
    expect(unexpected.map((s) => `${s.file}:${s.line} ${s.name}: ${s.why}`)).toEqual([]);
    // Every allowance is still needed (it names a binding that exists).
    for (const allowed of ALLOWED) expect(found, `${allowed.file} ${allowed.name}`).toContainEqual(expect.objectContaining(allowed));
  });

  it("finds a planted let, var, stateful new, empty collection and static field; leaves constants alone", () => {
    const planted = [
      "let cached: string | undefined;",
      "export var count = 0;",
      "const clients = new Map<string, number>();",
      "const cancelled = new AbortController();",
      "const scope = new AsyncLocalStorage<number>();",
      "const session = new ProviderProcess();",
      "const answered: string[] = [];",
      "const byName = {} as Record<string, number>;",
      "class Registry { static entries = new Set<string>(); static readonly NAME = 'r'; }",
      // Constants: a typed read-only table, a frozen literal, a function's own let.
      "const KEYWORDS: ReadonlySet<string> = new Set(['if']);",
      "const LIMITS = { max: 3 } as const;",
      "const ORDER = ['a', 'b'];",
      "function next() { let n = 0; return ++n; }",
    ].join("\n");
    expect(moduleStateOf("planted.ts", planted).map((s) => s.name)).toEqual([
      "cached",
      "count",
      "clients",
      "cancelled",
      "scope",
      "session",
      "answered",
      "byName",
      "Registry.entries",
    ]);
  });
});
