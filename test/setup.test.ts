/**
 * scripts/setup.mjs runs the command it was given on the project's Node 22, whatever `node` started it (on a fresh
 * clone that is the machine's older Node: the shell would keep using it for a second `node` in the same script).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/engineEnv";

describe("scripts/setup.mjs", () => {
  it("runs `-- <script>` on Node 22 even when started by another node", () => {
    const bin = join(repoRoot, "node_modules", ".bin");
    const path = (process.env.PATH ?? "")
      .split(":")
      .filter((dir) => dir !== bin && !dir.startsWith(join(repoRoot, "node_modules")))
      .join(":");
    const output = execFileSync("sh", ["-c", "node scripts/setup.mjs --no-engine --no-build -- -e 'console.log(process.version)'"], {
      cwd: repoRoot,
      env: { ...process.env, PATH: path },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(output.trim().split("\n").at(-1)).toMatch(/^v22\./);
  }, 120_000);

  it("installs for real under `npm pack --dry-run` (npm hands npm_config_dry_run to prepack; the nested npm ci must not inherit it)", () => {
    // A fresh clone in miniature: setup.mjs alone, no node_modules, and an `npm` on PATH that records the
    // environment it was started with, then lays down what `npm ci` would (the lock marker and Node 22).
    const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-setup-"));
    try {
      mkdirSync(join(dir, "scripts"));
      copyFileSync(join(repoRoot, "scripts", "setup.mjs"), join(dir, "scripts", "setup.mjs"));
      writeFileSync(join(dir, "package-lock.json"), "{}\n");
      const fakeBin = join(dir, "fake-bin");
      mkdirSync(fakeBin);
      const node22 = join(repoRoot, "node_modules", ".bin", "node");
      writeFileSync(
        join(fakeBin, "npm"),
        `#!/bin/sh\nenv | grep -i '^npm_config_dry_run=' > "${dir}/npm-env"; echo "$@" > "${dir}/npm-args"\n` +
          `mkdir -p "${dir}/node_modules/.bin" && touch "${dir}/node_modules/.package-lock.json" && ln -sf "${node22}" "${dir}/node_modules/.bin/node"\n`,
      );
      chmodSync(join(fakeBin, "npm"), 0o755);
      execFileSync(process.execPath, [join(dir, "scripts", "setup.mjs"), "--no-engine", "--no-build"], {
        cwd: dir,
        env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH ?? ""}`, npm_config_dry_run: "true" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      expect(readFileSync(join(dir, "npm-args"), "utf8").trim()).toBe("ci --no-audit --no-fund");
      expect(readFileSync(join(dir, "npm-env"), "utf8")).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
