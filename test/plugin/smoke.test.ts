import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformStack, values, type PlatformStack } from "../support/platformStack";

describe("plugin smoke", () => {
  let p: PlatformStack;
  beforeAll(async () => {
    p = await platformStack({ provider: "plugin" });
  }, 120_000);
  afterAll(async () => p?.close());

  it("up", async () => {
    await p.setScenario({
      tokens: { ci: { description: "CI pipeline" } },
      templates: { hook: { event: "entry.ready", name: "Hook one", url: "https://example.com/h", signSecret: "$signSecret" } },
    });
    const up = await p.stack.up({ onOutput: (s) => process.stdout.write(s) });
    console.log(JSON.stringify(up.outputs));
    const pre = await p.stack.preview({ diff: true });
    console.log(pre.changeSummary, pre.stdout);
    expect(values(up.outputs).ciId).toBeTruthy();
  }, 120_000);
});
