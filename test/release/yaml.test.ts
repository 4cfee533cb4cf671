/**
 * The release from YAML, with no SDK: `pulumi new ./templates/svc-yaml` with the emulator's config, then `pulumi up`
 * on a fresh PULUMI_HOME, where the engine downloads the plugin from the release server by itself (no `path:`, no
 * Node.js on PATH) and runs it; destroy. Then what a user meets when the download goes wrong: a wrong checksum, and
 * a release with no archive for this platform, each failing with a message naming what was tried; and
 * `pulumi plugin install resource svc <version> --server <url>` with the checksum of SHA256SUMS. Every resource's
 * YAML example (plugin/examples.ts, the schema's descriptions) previews on the plugin the engine downloaded.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { examplesOf } from "../../plugin/examples";
import { DEFINITIONS } from "../../provider/definitions";
import { languageTools } from "../../scripts/engineEnv";
import { engineBinDir } from "../support/pulumi";
import { HOST_ARCHIVE, hostRelease, type ReleaseProject, releaseProject, startReleaseServer, newFromTemplate, VERSION } from "./releaseFixture";

const EXAMPLES = examplesOf(DEFINITIONS);

const yamlPath = () => [engineBinDir(), ...languageTools().bins];

describe("the release from YAML (no SDK)", () => {
  let p: ReleaseProject;
  beforeAll(async () => {
    p = await releaseProject({ path: yamlPath() });
  }, 300_000);
  afterAll(async () => p?.close());

  it("pulumi new from the template, then up downloads the plugin from the release server; destroy", async () => {
    await expect(p.exec("sh", ["-c", "command -v node"])).rejects.toThrow();
    const started = Date.now();
    await newFromTemplate(p, "svc-yaml");
    const stackConfig = readFileSync(join(p.dir, "Pulumi.test.yaml"), "utf8");
    expect(stackConfig).toContain("svc:adminSecret:\n    secure:");
    expect(stackConfig).not.toContain(p.emulator.adminSecret);

    await p.pulumi("up", "--yes");
    const upMs = Date.now() - started;
    expect(p.server.requests).toContain(`/${HOST_ARCHIVE}`);
    expect(await p.installedPlugins()).toContainEqual(expect.objectContaining({ name: "svc", version: VERSION }));
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    expect((await p.client.appTokens.get(outputs.pipelineTokenId)).description).toBe("Deployment pipeline");
    expect(p.backendText()).not.toContain(outputs.pipelineToken);
    await p.pulumi("destroy", "--yes");
    console.log(`yaml: empty PULUMI_HOME to a finished pulumi up (pulumi new included) in ${upMs} ms`);
  }, 300_000);

  it("every resource's YAML example in the schema previews on the downloaded plugin", async () => {
    const programDir = p.dir;
    try {
      for (const [type, example] of Object.entries(EXAMPLES)) {
        p.dir = join(p.tmp, "examples", type);
        mkdirSync(p.dir, { recursive: true });
        writeFileSync(join(p.dir, "Pulumi.yaml"), `name: example-${type}\nruntime: yaml\n${example.yaml}\n`);
        await p.pulumi("stack", "init", "test");
        await p.pulumi("config", "set", "svc:baseUrl", p.emulator.baseUrl);
        await p.pulumi("config", "set", "svc:partnerId", String(p.emulator.partnerId));
        await p.pulumi("config", "set", "--secret", "svc:adminSecret", p.emulator.adminSecret);
        await p.pulumi("config", "set", "--secret", "webhookSigningSecret", "examples-signing-secret-0123456789");
        const preview = JSON.parse(await p.pulumi("preview", "--json")) as { changeSummary?: Record<string, number> };
        expect(preview.changeSummary, type).toEqual({ create: 2 });
      }
    } finally {
      p.dir = programDir;
    }
  }, 120_000);

  it("pulumi plugin install --server checks the archive against the checksum it is given", async () => {
    const release = hostRelease();
    const sums = readFileSync(join(release, "SHA256SUMS"), "utf8");
    const right = new RegExp(`^([0-9a-f]{64})  ${HOST_ARCHIVE}$`, "m").exec(sums)![1]!;
    const wrong = right.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    const install = (checksum: string) =>
      p.pulumi("plugin", "install", "resource", "svc", VERSION, "--server", p.server.url, "--checksum", checksum, "--reinstall");
    const failure = await install(wrong).then(
      () => "installed",
      (e: Error) => e.message,
    );
    expect(failure).toMatch(/checksum/i);
    expect(failure).toContain(wrong);
    await install(right);
    expect(await p.installedPlugins()).toContainEqual(expect.objectContaining({ name: "svc", version: VERSION }));
  }, 120_000);

  it("a release with no archive for this platform fails naming the URL it tried", async () => {
    const server = await startReleaseServer(hostRelease(), { missing: [HOST_ARCHIVE] });
    const q = await releaseProject({ path: yamlPath(), server });
    try {
      // `pulumi new` installs the project's plugins: it is the first to fail, as `pulumi preview` would after it.
      const failure = await newFromTemplate(q, "svc-yaml").then(
        () => "installed",
        (e: Error) => e.message,
      );
      expect(failure).toContain(`${server.url}/${HOST_ARCHIVE}`);
      expect(failure).toMatch(/404/);
    } finally {
      await q.close();
      await server.close();
    }
  }, 120_000);
});
