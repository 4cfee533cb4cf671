/**
 * The checked-in SDKs of the plugin (sdk-gen/{nodejs,python,go}) are what pulumi-svc-codegen writes from
 * plugin/schema.json today (scripts/sdks.ts, `npm run generate:sdks`): regenerated into a temp dir and compared file
 * by file. The Python SDK is pip-installed and the Go SDK built by the examples' tests (pythonPlugin, goPlugin); the
 * Node.js SDK is type-checked here.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engineEnv";
import { GO_MODULE, generateSdks, SDK_DIR, sdkDrift } from "../../scripts/sdks";

describe("the generated SDKs (sdk-gen/)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-sdks-"));
  const fresh = join(tmp, "sdk-gen");
  beforeAll(() => generateSdks(fresh), 60_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("are what the generators write from plugin/schema.json (else: npm run generate:sdks)", () => {
    const drift = sdkDrift(fresh, SDK_DIR);
    expect(drift, `sdk-gen/ differs from plugin/schema.json's SDKs: run \`npm run generate:sdks\`\n${drift.map((d) => `  sdk-gen/${d}`).join("\n")}`).toEqual(
      [],
    );
  });

  it("carry the schema's version, the secrets, and the Go module the examples replace", () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, "plugin", "schema.json"), "utf8")) as { version: string };
    const read = (path: string) => readFileSync(join(SDK_DIR, path), "utf8");
    expect(JSON.parse(read("nodejs/package.json"))).toMatchObject({ name: "@pulumi-svc/svc", version: schema.version, pulumi: { name: "svc" } });
    expect(read("python/pyproject.toml")).toContain(`version = "${schema.version}"`);
    expect(JSON.parse(read("python/pulumi_svc/pulumi-plugin.json"))).toMatchObject({ name: "svc", version: schema.version });
    expect(JSON.parse(read("go/svc/pulumi-plugin.json"))).toMatchObject({ name: "svc", version: schema.version });
    expect(read("python/pulumi_svc/app_token.py")).toContain('additional_secret_outputs=["connection", "token"]');
    expect(read("nodejs/appToken.ts")).toContain('additionalSecretOutputs: ["connection", "token"]');
    expect(read("go/go.mod")).toMatch(new RegExp(`^module ${GO_MODULE}$`, "m"));
    for (const goMod of ["examples/go/go.mod", "test/languages/goplugin/go.mod"])
      expect(readFileSync(join(repoRoot, goMod), "utf8")).toMatch(new RegExp(`${GO_MODULE} => (\\.\\./)+sdk-gen/go`));
  });

  it("the Node.js SDK type-checks against this repo's @pulumi/pulumi", () => {
    const nodeDir = join(tmp, "nodejs");
    cpSync(join(SDK_DIR, "nodejs"), nodeDir, { recursive: true });
    symlinkSync(join(repoRoot, "node_modules"), join(nodeDir, "node_modules"), "dir");
    execFileSync(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json", "--noEmit"], { cwd: nodeDir, stdio: "pipe" });
  }, 120_000);
});
