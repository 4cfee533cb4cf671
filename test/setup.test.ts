/**
 * scripts/setup.mjs runs the command it was given on the project's Node 22, whatever `node` started it (on a fresh
 * clone that is the machine's older Node: the shell would keep using it for a second `node` in the same script).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/engineEnv";

/** setup.mjs and what it imports: it runs before any dependency is installed. */
const SETUP_FILES = ["setup.mjs", "npmEngineWarnings.mjs"];

/** What `npm ci` wrote on Node 20.20.2 for this package-lock (npm 11.19.1): five EBADENGINE warnings, each for Node 22. */
const NPM_CI_STDERR = readFileSync(join(__dirname, "fixtures", "npmCiEngineWarnings.txt"), "utf8");
/** A package that even the project's Node 22 does not satisfy: a real mismatch. */
const REAL_MISMATCH = `npm warn EBADENGINE Unsupported engine {
npm warn EBADENGINE   package: 'from-the-future@1.0.0',
npm warn EBADENGINE   required: { node: '>=99' },
npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }
npm warn EBADENGINE }
`;

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
      for (const file of SETUP_FILES) copyFileSync(join(repoRoot, "scripts", file), join(dir, "scripts", file));
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

  it("says npm's engine warnings once, in plain words, when the project's Node 22 answers them; keeps a real mismatch", () => {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-setup-"));
    try {
      mkdirSync(join(dir, "scripts"));
      for (const file of SETUP_FILES) copyFileSync(join(repoRoot, "scripts", file), join(dir, "scripts", file));
      writeFileSync(join(dir, "package-lock.json"), "{}\n");
      writeFileSync(join(dir, "npm-stderr"), `${NPM_CI_STDERR}${REAL_MISMATCH}`);
      const fakeBin = join(dir, "fake-bin");
      mkdirSync(fakeBin);
      const node22 = join(repoRoot, "node_modules", ".bin", "node");
      writeFileSync(
        join(fakeBin, "npm"),
        `#!/bin/sh\ncat "${dir}/npm-stderr" >&2; echo "added 349 packages in 2s"\n` +
          `mkdir -p "${dir}/node_modules/.bin" && touch "${dir}/node_modules/.package-lock.json" && ln -sf "${node22}" "${dir}/node_modules/.bin/node"\n`,
      );
      chmodSync(join(fakeBin, "npm"), 0o755);
      const run = spawnSync(process.execPath, [join(dir, "scripts", "setup.mjs"), "--no-engine", "--no-build"], {
        cwd: dir,
        env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH ?? ""}` },
        encoding: "utf8",
      });
      expect(run.status).toBe(0);
      expect(NPM_CI_STDERR.match(/Unsupported engine/g)).toHaveLength(5);
      // The five become one line; the package Node 22 does not satisfy is still reported as npm wrote it.
      expect(run.stderr.match(/Unsupported engine/g)).toHaveLength(1);
      expect(run.stderr).toContain(REAL_MISMATCH);
      const said = run.stderr.split("\n").filter((line) => line.includes("ask for a newer one"));
      expect(said).toEqual([expect.stringMatching(/^\[setup\] this machine's node is v\d+\.\d+\.\d+; 4 package\(s\) ask for a newer one .* own Node v22\./)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
