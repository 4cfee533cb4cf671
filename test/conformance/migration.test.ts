/**
 * Moving a stack from the dynamic providers to the native plugin: with an alias from the dynamic type token
 * (`pulumi-nodejs:dynamic/svc:<type>`, `fromDynamic()` in `pulumi-svc/native`) the live resources move in place:
 * the preview shows no change, `up` makes no write to the platform, and the moved resources then work as the
 * plugin's (an update in place, then destroy).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changes, platformStack, values, type PlatformStack, type Scenario } from "../support/platformStack";

const scenario = (description: string): Scenario => ({
  tokens: { ci: { description, sessionPrivileges: "list:*" }, deploy: { description: "deploy", hashType: "SHA512" } },
  templates: { hook: { event: "entry.ready", name: "Migrated hook", systemName: "MIGRATED_HOOK", url: "https://hooks.example/m", signSecret: "$signSecret" } },
});
const WRITES = /^(appToken\.(add|update|delete)|eventnotification_eventnotificationtemplate\.(clone|update|updateStatus|delete))$/i;

describe("moving a stack from the dynamic providers to the plugin", () => {
  let p: PlatformStack;
  let before: Record<string, unknown>;

  beforeAll(async () => {
    p = await platformStack({ stackName: "migration" });
  }, 120_000);
  afterAll(async () => p?.close());

  it("the dynamic providers create the stack", async () => {
    await p.setScenario(scenario("CI pipeline"));
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: 4 });
    before = values(up.outputs);
  }, 120_000);

  it("with the aliases, the plugin takes the resources over: no change in preview, no write to the platform", async () => {
    await p.usePlugin();
    await p.stack.setConfig("aliasFromDynamic", { value: "true" });
    const preview = await p.stack.preview();
    expect(changes(preview.changeSummary)).toEqual({});
    await p.resetStats();
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({});
    const writes = Object.entries(await p.stats()).filter(([call, count]) => WRITES.test(call) && count > 0);
    expect(writes).toEqual([]);
    const after = values(up.outputs);
    for (const key of ["ciId", "ciToken", "deployId", "deployToken", "hookId"]) expect(after[key]).toBe(before[key]);
    const state = (await p.stack.exportStack()).deployment as { resources: { type: string }[] };
    const types = state.resources.map((r) => r.type);
    expect(types.filter((t) => t.startsWith("pulumi-nodejs:dynamic/svc:"))).toEqual([]);
    expect(types.filter((t) => t.startsWith("svc:index:")).sort()).toEqual(["svc:index:AppToken", "svc:index:AppToken", "svc:index:HttpNotificationTemplate"]);
  }, 120_000);

  it("the moved resources are the plugin's: refresh is clean, an update goes in place, destroy removes them", async () => {
    await p.stack.preview({ refresh: true, expectNoChanges: true });
    await p.setScenario(scenario("CI pipeline v2"));
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    expect(values(up.outputs).ciId).toBe(before.ciId);
    expect((await p.client.appTokens.get(before.ciId as string)).description).toBe("CI pipeline v2");
    expect((await p.stack.destroy()).summary.result).toBe("succeeded");
    await expect(p.client.appTokens.get(before.ciId as string)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
  }, 120_000);
});
