/**
 * `pulumi-svc recover` on a stack with nothing to recover, through the real `pulumi` CLI: a state of 1,000 app tokens
 * (imported, so no platform is involved), nothing pending, no failed update. It reads the state and the history and
 * stops: no stack config, no other stack, no preview, no lock, no platform (the CLI driver fails the test if recover
 * asks it for anything else). Its time is printed (the bench part `recover` measures it against `pulumi stack export`).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syntheticDeployment } from "../../bench/recover";
import { recover } from "../../provider/cli/recover";
import { type PulumiCli, pulumiCli } from "../../provider/cli/recoverPulumi";
import { engineBinDir, newTestStack, type TestStack } from "../support/pulumi";
import { platformProgram } from "../support/platformStack";

const RESOURCES = 1_000;

describe("recover with nothing to recover", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await newTestStack(platformProgram, { copyProgram: true, stackName: "fast" });
    const project = (await t.stack.workspace.projectSettings()).name;
    await t.stack.importStack(syntheticDeployment(project, "fast", RESOURCES) as never);
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it(`reads the state and the history of ${RESOURCES} resources and stops`, async () => {
    const real = pulumiCli({ stack: "fast", cwd: t.workDir, binary: join(engineBinDir(), "pulumi"), env: { ...process.env, ...t.env } });
    const used: string[] = [];
    const refuse = (what: string) => () => Promise.reject(new Error(`recover asked for ${what} with nothing to recover`));
    const cli: PulumiCli = {
      exportStack: (options) => (used.push("export"), real.exportStack(options)),
      history: (count) => (used.push("history"), real.history(count)),
      stacks: refuse("the other stacks"),
      config: refuse("the stack config"),
      previewSteps: refuse("a preview"),
      probeLock: refuse("the lock"),
      clearPendingCreates: refuse("a refresh"),
      cancel: refuse("pulumi cancel"),
    };
    const lines: string[] = [];
    const result = await recover({ stack: "fast", yes: true }, { cli, out: (line) => lines.push(line) });
    expect(result.outcome).toBe("nothing");
    expect(used.sort()).toEqual(["export", "history"]);
    expect(lines.join("\n")).toMatch(/nothing to recover/);
    console.log(`recover, ${RESOURCES} resources, nothing pending: ${result.timings.totalMs} ms (state and history read in ${result.timings.readMs} ms)`);
  }, 60_000);
});
