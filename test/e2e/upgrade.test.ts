/**
 * A package upgrade that changes only provider code, or even the serialized provider itself, shows no change in
 * preview and makes no API call. The program here runs on its own node_modules with a copy of this package, which
 * the test then "upgrades" in place, the way `npm install pulumi-svc@next` would.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";
import { platformStack, type PlatformStack } from "../support/platformStack";

/** node_modules with every dependency linked from the repo, and pulumi-svc as a copy that can be changed. */
function installedCopy(): { nodeModules: string; packageDir: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), "pulumi-svc-upgrade-"));
  const nodeModules = join(root, "node_modules");
  mkdirSync(nodeModules);
  for (const entry of readdirSync(join(repoRoot, "node_modules"))) {
    if (entry === "pulumi-svc" || entry.startsWith(".")) continue;
    symlinkSync(join(repoRoot, "node_modules", entry), join(nodeModules, entry), "dir");
  }
  const packageDir = join(nodeModules, "pulumi-svc");
  mkdirSync(packageDir);
  cpSync(join(repoRoot, "package.json"), join(packageDir, "package.json"));
  for (const part of ["contract", "provider", "sdk"]) cpSync(join(repoRoot, "dist", part), join(packageDir, "dist", part), { recursive: true });
  return { nodeModules, packageDir, root };
}

function edit(file: string, change: (text: string) => string): void {
  const before = readFileSync(file, "utf8");
  const after = change(before);
  expect(after).not.toBe(before);
  writeFileSync(file, after);
}

describe("package upgrade", () => {
  let p: PlatformStack;
  let copy: ReturnType<typeof installedCopy>;

  beforeAll(async () => {
    copy = installedCopy();
    p = await platformStack({ nodeModules: copy.nodeModules });
    await p.setScenario({
      tokens: { ci: { description: "before the upgrade" } },
      templates: { hook: { event: "entry.added", name: "Upgrade hook", url: "https://hooks.example.com/svc", signSecret: "$signSecret" } },
    });
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    if (copy) rmSync(copy.root, { recursive: true, force: true });
  });

  it("a new release of the runtime code: no visible change, no API call", async () => {
    // The runtime the stored shims load (one bundled file).
    edit(join(copy.packageDir, "dist", "provider", "runtime", "index.js"), (text) => `${text}\nexports.releaseMarker = "0.2.0";\n`);
    await p.resetStats();
    expect((await p.stack.preview()).changeSummary).toEqual({ same: 3 });
    expect((await p.stack.up()).summary.resourceChanges).toEqual({ same: 3 });
    expect(await p.stats()).toEqual({});
  }, 120_000);

  it("a new serialized provider: no visible change, no API call, and the stored provider is refreshed", async () => {
    edit(join(copy.packageDir, "dist", "provider", "resources", "shim.js"), (text) =>
      text.replace('() => require("pulumi-svc/provider-runtime")', '() => /* release 0.3.0 */ require("pulumi-svc/provider-runtime")'),
    );
    await p.resetStats();
    expect((await p.stack.preview()).changeSummary).toEqual({ same: 3 });
    expect((await p.stack.up()).summary.resourceChanges).toEqual({ same: 3 });
    expect(await p.stats()).toEqual({});
    const resources = (await p.stack.exportStack()).deployment.resources as { type: string; inputs?: Record<string, string> }[];
    const dynamic = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/svc:"));
    expect(dynamic).toHaveLength(2);
    for (const resource of dynamic) expect(resource.inputs?.__provider).toContain("release 0.3.0");
  }, 120_000);

  it("resources made before the upgrade are still managed: update in place and destroy", async () => {
    await p.setScenario({
      tokens: { ci: { description: "after the upgrade" } },
      templates: { hook: { event: "entry.added", name: "Upgrade hook", url: "https://hooks.example.com/svc", signSecret: "$signSecret" } },
    });
    expect((await p.stack.up()).summary.resourceChanges).toEqual({ same: 2, update: 1 });
    expect((await p.stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
    expect((await p.client.appTokens.list({ statusEqual: 2 })).totalCount).toBe(0);
  }, 120_000);
});
