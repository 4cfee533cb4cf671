/**
 * The release from TypeScript: both templates (`pulumi new --generate-only`: their package.json names the npm
 * package by its published URL, so the test installs the release's tarball in its place, with `npm install
 * <tarball>` as a mirror's user would), one node_modules shared by the two projects (in their parent folder).
 * - svc-typescript-dynamic: the dynamic providers, no plugin: up installs nothing and asks the server for nothing.
 * - svc-typescript: `pulumi-svc/native`; up on the same fresh PULUMI_HOME downloads the plugin from the release
 *   server (the resources name the version and URL); preview clean; destroy.
 * Then every resource's TypeScript example (plugin/examples.ts, the schema's descriptions) type-checks against it.
 * PATH holds the engine and a folder with `node` and `npm` only (the repository's node_modules/.bin would offer
 * the plugin on PATH).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { examplesOf } from "../../plugin/examples";
import { DEFINITIONS } from "../../provider/definitions";
import { repoRoot } from "../../scripts/engineEnv";
import { engineBinDir } from "../support/pulumi";
import { HOST_ARCHIVE, hostRelease, newFromTemplate, type ReleaseProject, releaseProject, VERSION } from "./releaseFixture";
import { withRegistryRetry } from "../support/registryRetry";

const EXAMPLES = examplesOf(DEFINITIONS);

describe("the release from TypeScript (the npm tarball)", () => {
  let p: ReleaseProject;
  let installMs = 0;
  beforeAll(async () => {
    p = await releaseProject();
    const bin = join(p.tmp, "bin");
    mkdirSync(bin);
    symlinkSync(join(repoRoot, "node_modules", "node", "bin", "node"), join(bin, "node"));
    symlinkSync(realpathSync(execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim()), join(bin, "npm"));
    p.env.PATH = [engineBinDir(), bin].join(":");
    // The templates' dependencies, in the projects' parent folder, with the release's tarball for pulumi-svc.
    const template = JSON.parse(readFileSync(join(repoRoot, "templates", "svc-typescript", "package.json"), "utf8"));
    const tarball = join(hostRelease(), `pulumi-svc-${VERSION}.tgz`);
    writeFileSync(
      join(p.tmp, "package.json"),
      JSON.stringify({ ...template, name: "release-test", dependencies: { ...template.dependencies, "pulumi-svc": `file:${tarball}` } }),
    );
    const started = Date.now();
    // npm runs install scripts with sh: the system's folders after ours for this step only.
    await withRegistryRetry(() =>
      promisify(execFile)("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
        cwd: p.tmp,
        env: { ...p.env, PATH: `${bin}:/usr/bin:/bin` },
      }),
    );
    installMs = Date.now() - started;
  }, 300_000);
  afterAll(async () => p?.close());

  it("the dynamic template goes up with no plugin at all", async () => {
    p.dir = join(p.tmp, "dynamic");
    mkdirSync(p.dir);
    await newFromTemplate(p, "svc-typescript-dynamic", "generate-only");
    await p.pulumi("up", "--yes");
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    expect((await p.client.appTokens.get(outputs.pipelineTokenId)).description).toBe("Deployment pipeline");
    expect(await p.installedPlugins()).toEqual([]);
    expect(p.server.requests).toEqual([]);
    await p.pulumi("destroy", "--yes");
  }, 200_000);

  it("the native template goes up on a plugin the engine downloads; preview clean; destroy", async () => {
    p.dir = join(p.tmp, "native");
    mkdirSync(p.dir);
    const started = Date.now();
    await newFromTemplate(p, "svc-typescript", "generate-only");
    await p.pulumi("up", "--yes");
    const ms = Date.now() - started;
    expect(p.server.requests).toContain(`/${HOST_ARCHIVE}`);
    expect(await p.installedPlugins()).toContainEqual(expect.objectContaining({ name: "svc", version: VERSION }));
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    expect((await p.client.appTokens.get(outputs.pipelineTokenId)).description).toBe("Deployment pipeline");
    expect(p.backendText()).not.toContain(outputs.pipelineToken);
    const preview = JSON.parse(await p.pulumi("preview", "--json")) as { changeSummary?: Record<string, number> };
    expect(preview.changeSummary).toEqual({ same: 2 });
    await p.pulumi("destroy", "--yes");
    console.log(`typescript: npm install ${installMs} ms; empty PULUMI_HOME to a finished pulumi up ${ms} ms`);
  }, 200_000);

  it("every resource's TypeScript example in the schema type-checks against the release's package", async () => {
    const dir = join(p.tmp, "examples");
    mkdirSync(dir);
    for (const [type, example] of Object.entries(EXAMPLES)) writeFileSync(join(dir, `${type}.ts`), `${example.typescript}\n`);
    writeFileSync(join(dir, "tsconfig.json"), readFileSync(join(repoRoot, "templates", "svc-typescript", "tsconfig.json")));
    await p.exec("node", [join(p.tmp, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--noEmit"], dir);
  }, 120_000);
});
