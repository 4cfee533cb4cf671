/**
 * The release from Go: the files of ./templates/svc-go as `pulumi new` writes them (it needs a Go language host,
 * and none is served here), then the SDK fetched as a module through
 * GOPROXY=file://<release>/goproxy (no `replace`; Pulumi's own modules from the public proxy or Go's cache), built,
 * and run (the template is an Automation API program: no Go language host is served here) on a fresh PULUMI_HOME,
 * where the engine downloads the plugin from the release server: up, preview clean, destroy. Then every resource's
 * Go example (plugin/examples.ts, the schema's descriptions) is compiled in that module.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { examplesOf } from "../../plugin/examples";
import { DEFINITIONS } from "../../provider/definitions";
import { engineBinDir } from "../support/pulumi";
import { HOST_ARCHIVE, hostRelease, newFromTemplate, type ReleaseProject, releaseProject, VERSION } from "./releaseFixture";

const EXAMPLES = examplesOf(DEFINITIONS);

const MODULE_DIR = join("github.com", "pulumi-svc");

/** Go's module cache is read-only: make a tree writable to remove it. */
function removeTree(path: string): void {
  if (!existsSync(path)) return;
  const walk = (p: string) => {
    chmodSync(p, 0o755);
    if (statSync(p).isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
  };
  walk(path);
  rmSync(path, { recursive: true, force: true });
}

describe("the release from Go (the module through GOPROXY)", () => {
  let p: ReleaseProject;
  beforeAll(async () => {
    const go = execFileSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).trim();
    const goEnv = JSON.parse(execFileSync(go, ["env", "-json", "GOMODCACHE", "GOCACHE", "GOPATH"], { encoding: "utf8" })) as Record<string, string>;
    // The SDK module of an earlier run is still in Go's module cache: remove it, so it comes from this release.
    removeTree(join(goEnv.GOMODCACHE!, MODULE_DIR));
    removeTree(join(goEnv.GOMODCACHE!, "cache", "download", MODULE_DIR));
    p = await releaseProject({
      path: [engineBinDir(), dirname(go)],
      env: {
        ...goEnv,
        GOPROXY: `file://${hostRelease()}/goproxy,https://proxy.golang.org`,
        GONOSUMDB: "github.com/pulumi-svc/*",
        GOFLAGS: "-mod=mod",
        CGO_ENABLED: "0",
        // Go indexes a module-cache folder once per path@version (in GOCACHE) and trusts it forever: the release
        // rebuilt at the same version would be read with the old file list (types "undefined"). No index here.
        GODEBUG: "goindex=0",
      },
    });
  }, 300_000);
  afterAll(async () => p?.close());

  it("the template, go mod tidy through the release's proxy, up downloads the plugin, preview clean, destroy", async () => {
    const started = Date.now();
    await newFromTemplate(p, "svc-go", "copy");
    expect(readFileSync(join(p.dir, "go.mod"), "utf8")).not.toContain("replace");
    await p.exec("go", ["mod", "tidy"]);
    expect(readFileSync(join(p.dir, "go.sum"), "utf8")).toContain(`github.com/pulumi-svc/pulumi-svc/sdk/go v${VERSION} h1:`);
    const program = join(p.tmp, "svc-go");
    await p.exec("go", ["build", "-o", program, "."]);
    await p.exec(program, ["up"]);
    const ms = Date.now() - started;
    expect(p.server.requests).toContain(`/${HOST_ARCHIVE}`);
    expect(await p.installedPlugins()).toContainEqual(expect.objectContaining({ name: "svc", version: VERSION }));
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    expect((await p.client.appTokens.get(outputs.pipelineTokenId)).description).toBe("Deployment pipeline");
    expect(p.backendText()).not.toContain(outputs.pipelineToken);
    const preview = await p.exec(program, ["preview"]);
    expect(preview).toMatch(/2 unchanged/);
    await p.exec(program, ["destroy"]);
    console.log(`go: empty PULUMI_HOME to a finished up (pulumi new, go mod tidy and go build included) in ${ms} ms`);
  }, 400_000);

  it("every resource's Go example in the schema compiles against the release's module", async () => {
    // In the project's module (its go.mod and go.sum came from the release's proxy in the test above).
    for (const [type, example] of Object.entries(EXAMPLES)) {
      mkdirSync(join(p.dir, "examples", type), { recursive: true });
      writeFileSync(join(p.dir, "examples", type, "main.go"), `${example.go}\n`);
    }
    await p.exec("go", ["build", "./examples/..."]);
  }, 300_000);
});
