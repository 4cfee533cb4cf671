/**
 * SDK generation without the language hosts: pulumi-svc-codegen (scripts/pulumi-engine/codegen, built by
 * scripts/ensure-languages.sh) runs Pulumi's own Node.js, Python and Go generators at the engine's version on a
 * schema shaped like the native plugin's. The Python SDK pip-installs with the venv's tools and works under mocks;
 * the Go SDK builds; the Node.js SDK type-checks.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LanguageTools, languageTools, repoRoot } from "../../scripts/engineEnv";

const here = join(repoRoot, "test", "languages");
const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string => {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
};

describe("pulumi-svc-codegen", () => {
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-codegen-"));
  const out = join(tmp, "sdk");
  let tools: LanguageTools;
  beforeAll(() => {
    tools = languageTools();
    run(tools.codegen, [join(here, "fixtures", "svc-schema.json"), out], tmp);
  }, 60_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("writes the Node.js, Python and Go SDKs, at the schema's version, with the secrets marked", () => {
    const read = (path: string) => readFileSync(join(out, path), "utf8");
    expect(JSON.parse(read("nodejs/package.json"))).toMatchObject({ name: "@pulumi-svc/svc", version: "0.1.0" });
    expect(read("python/setup.py")).toContain('VERSION = "0.1.0"');
    expect(read("go/svc/pulumi-plugin.json")).toContain('"version": "0.1.0"');
    // AppToken.token is a secret output, the provider's adminSecret a secret input, in every language
    expect(read("nodejs/appToken.ts")).toContain('additionalSecretOutputs: ["token"]');
    expect(read("python/pulumi_svc/app_token.py")).toContain('additional_secret_outputs=["token"]');
    expect(read("go/svc/appToken.go")).toMatch(/AdditionalSecretOutputs\(\[\]string\{\s*"token",/);
    expect(read("nodejs/provider.ts")).toMatch(/adminSecret.*pulumi\.secret\(args\.adminSecret\)/);
    expect(read("python/pulumi_svc/provider.py")).toContain("pulumi.Output.secret(admin_secret)");
    expect(read("go/svc/provider.go")).toContain("pulumi.ToSecret(args.AdminSecret)");
    expect(existsSync(join(out, "nodejs", "config", "vars.ts"))).toBe(true);
  });

  it("writes a Python SDK that pip installs with the venv's tools and runs under Pulumi's mocks", () => {
    const site = join(tmp, "site");
    // --target: the cached venv stays as it was; --no-build-isolation: setuptools from the venv, no download
    run(
      tools.python,
      ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-q", "--no-build-isolation", "--no-deps", "--target", site, "./python"],
      out,
    );
    const env = { ...process.env, PYTHONPATH: site };
    // its requirement on `pulumi` (from the generator) accepts the venv's pinned pulumi
    const check = [
      "import importlib.metadata as m, sys",
      "from packaging.requirements import Requirement",
      "req = next(r for r in map(Requirement, m.requires('pulumi_svc')) if r.name == 'pulumi')",
      "print(req, req.specifier.contains(m.version('pulumi')))",
    ].join("\n");
    expect(run(tools.python, ["-c", check], tmp, env).trim()).toMatch(/^pulumi<4\.0\.0,>=3\.\d+\.\d+ True$/);
    const output = run(tools.python, [join(here, "fixtures", "python-sdk", "check_app_token.py")], tmp, env);
    expect(output).toContain("resolved ['t0ken', 2, 'd', 'SHA256']");
  }, 120_000);

  it("writes a Go SDK that builds against the engine's sdk/v3", () => {
    const goDir = join(out, "go");
    const sdkVersion = /github\.com\/pulumi\/pulumi\/sdk\/v3 v(\d+\.\d+\.\d+)/.exec(readFileSync(join(here, "go", "go.mod"), "utf8"))![1];
    writeFileSync(join(goDir, "go.mod"), `module example.com/pulumi-svc/sdk/go\n\ngo 1.26\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${sdkVersion}\n`);
    copyFileSync(join(here, "go", "go.sum"), join(goDir, "go.sum"));
    run("go", ["build", "./..."], goDir, { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" });
    run("go", ["vet", "./..."], goDir, { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" });
  }, 600_000);

  it("writes a Node.js SDK that type-checks against this repo's @pulumi/pulumi", () => {
    const nodeDir = join(out, "nodejs");
    symlinkSync(join(repoRoot, "node_modules"), join(nodeDir, "node_modules"), "dir");
    run(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json", "--noEmit"], nodeDir);
  }, 120_000);
});
