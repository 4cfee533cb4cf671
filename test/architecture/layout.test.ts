/**
 * The layout the docs describe, checked on the sources: data flows provider -> sdk -> contract, and the emulator
 * stands on the contract alone; no file imports itself back through others; no folder of the sdk, contract or
 * provider does either (a folder cycle is what forced PlatformApi's two-phase set-up).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, folderGraph, importGraph } from "./importGraph";

const repo = join(__dirname, "..", "..");
const graph = importGraph(repo, ["contract", "sdk", "provider", "emulator"]);

function importsInto(fromRoot: string, toRoot: string): string[] {
  return [...graph].flatMap(([from, targets]) =>
    from.startsWith(`${fromRoot}/`) ? [...targets].filter((t) => t.startsWith(`${toRoot}/`)).map((t) => `${from} -> ${t}`) : [],
  );
}

describe("layout", () => {
  it("has no file cycles", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("has no folder cycles in contract/, sdk/ and provider/", () => {
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
    ] as const) {
      expect(importsInto(from, to), `${from} must not import ${to}`).toEqual([]);
    }
  });
});
