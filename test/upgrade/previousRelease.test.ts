/**
 * An upgrade of the native plugin, as providertest checks one: a stack created by the plugin of the previous release
 * (built from its commit, cached: baselinePlugin.ts), then previewed by today's plugin, shows no change and makes no
 * write on the platform; refresh-in-preview reads it clean; and today's plugin manages what the old one made (its
 * destroy removes it all). The dynamic providers' upgrade is test/e2e/upgrade.test.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changes, pluginDir, platformStack, type PlatformStack, type Scenario } from "../support/platformStack";
import { BASELINE_COMMIT, baselinePluginDir } from "./baselinePlugin";

/**
 * Emulator actions that change nothing (anything else the plugin calls is a write). A multirequest counts itself and
 * each of its sub-requests (reads made at once go as one), so its own count is no write.
 */
const READ_ACTIONS = new Set(["get", "list", "start", "multirequest"]);

const writesIn = (stats: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(stats).filter(([key]) => !READ_ACTIONS.has(key.split(".").pop() ?? "")));

const SCENARIO: Scenario = {
  tokens: {
    ci: { description: "made by the previous release", sessionPrivileges: "list:*", keepers: { rotation: "1" } },
    admin: { description: "admin, made by the previous release", sessionType: "ADMIN", expiry: 4_102_444_800 },
  },
  templates: {
    hook: { event: "entry.ready", name: "Upgrade hook", systemName: "UPGRADE_HOOK", url: "https://hooks.example.com/svc", signSecret: "$signSecret" },
  },
  emailTemplates: {
    editors: {
      event: "entry.ready",
      name: "Editors: entry ready",
      systemName: "UPGRADE_EDITORS",
      subject: "Ready: {entry_name}",
      body: "Entry {entry_name} is ready.",
      fromEmail: "video@example.com",
      to: [{ email: "editors@example.com", name: "Editors" }],
      contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
    },
  },
};
const RESOURCES = 4;

describe(`plugin upgrade from the previous release (${BASELINE_COMMIT.slice(0, 7)})`, () => {
  let p: PlatformStack;
  let programYaml: string;
  let baseline: ReturnType<typeof baselinePluginDir>;

  /** Serve the program's resources with the plugin in `dir` (the engine's first way to find a plugin: a path). */
  const usePluginAt = (dir: string) =>
    writeFileSync(join(p.workDir, "Pulumi.yaml"), `${programYaml}plugins:\n  providers:\n    - name: svc\n      path: ${dir}\n`);

  beforeAll(async () => {
    baseline = baselinePluginDir();
    if (baseline.builtNow) console.log(`previous release's plugin built in ${baseline.seconds} s, cached in ${baseline.dir}`);
    p = await platformStack({ stackName: "upgrade-plugin" });
    programYaml = readFileSync(join(p.workDir, "Pulumi.yaml"), "utf8");
    await p.stack.setConfig("providerKind", { value: "plugin" });
    await p.setScenario(SCENARIO);
    usePluginAt(baseline.dir);
    const up = await p.stack.up({ logVerbosity: 9, logToStdErr: true });
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: RESOURCES + 1 }); // and the stack
    // The engine ran the previous release's plugin, not today's.
    expect(up.stderr).toContain(`from '${join(baseline.dir, "pulumi-resource-svc")}'`);
    expect(up.stderr).not.toContain(`from '${join(pluginDir, "pulumi-resource-svc")}'`);
    usePluginAt(pluginDir);
  }, 600_000);
  afterAll(async () => {
    await p?.close();
  });

  it("preview with today's plugin: no change, no write", async () => {
    await p.resetStats();
    const preview = await p.stack.preview({ expectNoChanges: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({});
    expect(preview.changeSummary.same).toBe(RESOURCES + 1);
    expect(writesIn(await p.stats())).toEqual({});
  }, 120_000);

  it("preview --refresh with today's plugin reads the old state clean: no change, no write", async () => {
    await p.resetStats();
    const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
    expect(changes(preview.changeSummary)).toEqual({});
    const stats = await p.stats();
    expect(Object.keys(stats).length).toBeGreaterThan(0); // it did read the platform
    expect(writesIn(stats)).toEqual({});
  }, 120_000);

  it("today's plugin manages what the previous one made: destroy removes it all", async () => {
    const destroy = await p.stack.destroy();
    expect(changes(destroy.summary.resourceChanges ?? {})).toEqual({ delete: RESOURCES + 1 });
    expect((await p.client.appTokens.list({ statusEqual: 2 })).totalCount).toBe(0);
  }, 120_000);
});
