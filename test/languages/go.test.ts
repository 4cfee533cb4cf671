/**
 * A Go program through the engine: the Go SDK's Automation API runs it as an inline program (test/languages/go,
 * `go run`), which needs no Go language host (the Go module proxy serves none). The engine is the `pulumi` on PATH.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { engineEnv, repoRoot } from "../../scripts/engineEnv";

const goModule = join(repoRoot, "test", "languages", "go");
const goSdkVersion = /github\.com\/pulumi\/pulumi\/sdk\/v3 v(\d+\.\d+\.\d+)/.exec(readFileSync(join(goModule, "go.mod"), "utf8"))?.[1];

describe("a Go program (Automation API inline program)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-lang-go-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("goes up, previews with no change, updates, is destroyed and its stack removed", () => {
    const home = join(tmp, "home");
    const backend = join(tmp, "backend");
    mkdirSync(home);
    mkdirSync(backend);
    const env = { ...process.env, ...engineEnv({ home, backendUrl: `file://${backend}`, passphrase: "languages-test" }), CGO_ENABLED: "0" };
    let stdout: string;
    try {
      stdout = execFileSync("go", ["run", ".", "test", "tester"], { cwd: goModule, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`go run failed (Go is needed; scripts/ensure-languages.sh compiles this module first): ${e.message}\n${e.stderr ?? ""}`);
    }
    const report = JSON.parse(stdout);
    const engine = execFileSync("pulumi", ["version"], { env, encoding: "utf8" }).trim();
    expect(`v${report.version}`).toBe(engine);
    expect(goSdkVersion).toBeDefined();
    expect(report.outputs).toMatchObject({ greeting: "hello tester from go", secret: "s3cr3t" });
    expect(report.outputs.component).toMatch(/::svc:test:Component::c$/);
    expect(report.secretKeys).toEqual(["secret"]);
    expect(report.upChanges).toEqual({ create: 2 });
    expect(report.preview).toEqual({ same: 2 });
    expect(report.update).toEqual({ same: 2 });
    expect(report.updatedGreeting).toBe("hello tester-2 from go");
    expect(report.destroy).toEqual({ delete: 2 });
  }, 600_000);
});
