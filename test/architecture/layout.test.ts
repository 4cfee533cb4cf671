/**
 * The layout the docs describe, checked on the sources: data flows plugin -> provider -> sdk -> contract, and the
 * emulator stands on the contract alone; no file imports itself back through others; no folder does either, the
 * emulator's included (a folder cycle is what forced PlatformApi's two-phase set-up). The plugin (the native
 * provider, bundled on its own) is the top: nothing imports it, and it ships without the emulator. The emulator's
 * composition root (emulator/composition.ts) is imported by its entry alone; the rest take the context's type from
 * emulator/context/. sdk-gen/ is generated code and is not read. importGraph.test.ts shows that a planted cycle fails.
 */
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, folderGraph, importGraph } from "./importGraph";

const repo = join(__dirname, "..", "..");
const ROOTS = ["contract", "sdk", "provider", "plugin", "emulator"] as const;
/** Read for cycles too: they import the parts above, and nothing imports them. */
const TOOLS = ["bench", "scripts"] as const;
const graph = importGraph(repo, [...ROOTS, ...TOOLS]);

/** The emulator's folders, bottom first (docs/emulator.md, Layout): a folder imports only from layers below its own. */
const EMULATOR_LAYERS = [["shared"], ["store", "middleware"], ["sessions", "mail", "avatar"], ["events"], ["context"], ["api", "control"], ["platform"], ["."]];

function importsInto(fromRoot: string, toRoot: string): string[] {
  return [...graph].flatMap(([from, targets]) =>
    from.startsWith(`${fromRoot}/`) ? [...targets].filter((t) => t.startsWith(`${toRoot}/`)).map((t) => `${from} -> ${t}`) : [],
  );
}

describe("layout", () => {
  it("has no file cycles", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("reads every part's sources, the plugin's included", () => {
    for (const root of ROOTS) expect([...graph.keys()].filter((file) => file.startsWith(`${root}/`)).length, root).toBeGreaterThan(0);
    expect(graph.get("plugin/providerServer.ts")).toContain("plugin/properties.ts");
  });

  it("has no folder cycles anywhere, the emulator's included", () => {
    expect(cycles(folderGraph(graph))).toEqual([]);
  });

  it("stands the emulator's folders in layers, each importing only from the layers below it", () => {
    const layerOf = (file: string) => {
      const folder = dirname(file).split("/").slice(1, 2)[0] ?? ".";
      const layer = EMULATOR_LAYERS.findIndex((names) => names.includes(folder));
      if (layer < 0) throw new Error(`${file}: the folder emulator/${folder} is in no layer of EMULATOR_LAYERS`);
      return layer;
    };
    const upward = [...graph].flatMap(([from, targets]) =>
      from.startsWith("emulator/")
        ? [...targets].filter((t) => t.startsWith("emulator/") && dirname(t) !== dirname(from) && layerOf(t) >= layerOf(from)).map((t) => `${from} -> ${t}`)
        : [],
    );
    expect(upward).toEqual([]);
  });

  it("builds the emulator's context in one place, which only the entry imports", () => {
    const importers = [...graph].filter(([, targets]) => targets.has("emulator/composition.ts")).map(([from]) => from);
    expect(importers).toEqual(["emulator/index.ts"]);
  });

  it("keeps each part on its own side of the wire", () => {
    for (const [from, to] of [
      ["contract", "sdk"],
      ["contract", "provider"],
      ["contract", "emulator"],
      ["sdk", "provider"],
      ["sdk", "emulator"],
      ["emulator", "sdk"],
      ["emulator", "provider"],
      ["provider", "emulator"],
      ["contract", "plugin"],
      ["sdk", "plugin"],
      ["provider", "plugin"],
      ["emulator", "plugin"],
      ["plugin", "emulator"],
    ] as const) {
      expect(importsInto(from, to), `${from} must not import ${to}`).toEqual([]);
    }
  });
});
