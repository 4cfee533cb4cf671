/**
 * scripts/engineEnv.ts: PULUMI_SVC_ENGINE_BIN points the tests at another engine bin dir (an older build, to check
 * the oldest CLI the README claims), and the language tools go on PATH only when asked for.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { engineBinDir, engineEnv, enginePinnedVersion } from "../scripts/engineEnv";

describe("scripts/engineEnv.ts", () => {
  const saved = process.env.PULUMI_SVC_ENGINE_BIN;
  afterEach(() => {
    if (saved === undefined) delete process.env.PULUMI_SVC_ENGINE_BIN;
    else process.env.PULUMI_SVC_ENGINE_BIN = saved;
  });

  it("uses the bin dir PULUMI_SVC_ENGINE_BIN names, first on PATH, and refuses one without the engine's three programs", () => {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-engine-bin-"));
    try {
      process.env.PULUMI_SVC_ENGINE_BIN = dir;
      expect(() => engineBinDir()).toThrow(/lacks pulumi: PULUMI_SVC_ENGINE_BIN must name an engine bin dir/);
      for (const exe of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
        writeFileSync(join(dir, exe), "#!/bin/sh\n");
        chmodSync(join(dir, exe), 0o755);
      }
      expect(engineBinDir()).toBe(dir);
      const env = engineEnv({ backendUrl: "file:///tmp/x", passphrase: "p" });
      expect(env.PATH!.split(":")[0]).toBe(dir);
      expect(env.PULUMI_PYTHON_CMD).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the engine's version from scripts/pulumi-engine/cli/go.mod", () => {
    expect(enginePinnedVersion()).toMatch(/^3\.\d+\.\d+$/);
  });
});
