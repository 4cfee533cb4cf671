/**
 * The foundation: the real Pulumi CLI, the Node.js language host and the dynamic provider host work together on
 * Node 22, driven by the Automation API against a local file backend.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enginePinnedVersion } from "../../scripts/engineEnv";
import { engineBinDir, newTestStack, repoRoot, type TestStack } from "../support/pulumi";

/** The Node SDK's version (package.json) and the engine's (scripts/pulumi-engine/cli/go.mod): two facts. */
const sdkVersion = require("@pulumi/pulumi/package.json").version as string;
const enginePin = enginePinnedVersion();
const numeric = (v: string) => v.split(".").map(Number);
const atLeast = (a: string, b: string) => {
  const [x, y] = [numeric(a), numeric(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return true;
};

describe("the Pulumi engine", () => {
  it("is the pinned engine version, at least the Node SDK's, and runs on Node 22", () => {
    const version = execFileSync(join(engineBinDir(), "pulumi"), ["version"], { encoding: "utf8" }).trim();
    expect(version).toBe(`v${enginePin}`);
    expect(atLeast(enginePin, sdkVersion), `engine ${enginePin} vs @pulumi/pulumi ${sdkVersion}`).toBe(true);
    expect(process.versions.node.split(".")[0]).toBe("22");
    const nodeOnPath = execFileSync("node", ["--version"], { encoding: "utf8" }).trim();
    expect(nodeOnPath.startsWith("v22.")).toBe(true);
  });

  describe("a stack with one dynamic resource", () => {
    let t: TestStack;
    beforeAll(async () => {
      t = await newTestStack(join(repoRoot, "test", "e2e", "fixtures", "trivial"), { copyProgram: true });
    }, 60_000);
    afterAll(async () => t?.cleanup());

    it("goes up, previews with no changes, and is destroyed", async () => {
      const up = await t.stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect(up.summary.resourceChanges).toEqual({ create: 2 });
      expect(up.outputs.sum).toEqual({ value: 42, secret: false });
      expect(up.outputs.resourceId?.value).toBe("sum-41");

      const preview = await t.stack.preview();
      expect(preview.changeSummary).toEqual({ same: 2 });

      await t.stack.setConfig("value", { value: "1" });
      const update = await t.stack.up();
      expect(update.summary.resourceChanges).toEqual({ same: 1, replace: 1 });
      expect(update.outputs.sum?.value).toBe(2);

      const destroy = await t.stack.destroy();
      expect(destroy.summary.result).toBe("succeeded");
      expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
      const state = await t.stack.exportStack();
      expect(state.deployment.resources ?? []).toEqual([]);
    }, 180_000);
  });
});
