/**
 * The layout the docs describe, checked on the sources: data flows plugin -> provider -> sdk -> contract, and the
 * emulator stands on the contract alone; no file imports itself back through others; no folder of the sdk, contract,
 * provider or plugin does either (a folder cycle is what forced PlatformApi's two-phase set-up). The plugin (the
 * native provider, bundled on its own) is the top: nothing imports it, and it ships without the emulator.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, folderGraph, importGraph } from "./importGraph";

const repo = join(__dirname, "..", "..");
const ROOTS = ["contract", "sdk", "provider", "plugin", "emulator"] as const;
const graph = importGraph(repo, [...ROOTS]);

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
    expect(graph.get("plugin/server.ts")).toContain("plugin/properties.ts");
  });

  it("has no folder cycles in contract/, sdk/, provider/ and plugin/", () => {
    const layered = new Map([...graph].filter(([from]) => !from.startsWith("emulator/")));
    expect(cycles(folderGraph(layered))).toEqual([]);
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
