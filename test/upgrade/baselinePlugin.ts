/**
 * The plugin of the previous release, built from its commit the way a user would have got it: the commit's files
 * (`git archive`, so the worktree and its index are untouched), its own locked dependencies (`npm ci`), its own
 * plugin build (scripts/build-plugin.mjs, a self-contained folder). Cached under ~/.cache/pulumi-svc/baseline-plugin/
 * by commit: only the plugin folder is kept, the sources and node_modules are removed once it is built.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../support/pulumi";

/**
 * The last commit of main before the round that added diagnostics through the engine and state migrations (no
 * release tag exists yet: `git tag` is empty). Replace with the tag of each new release.
 */
export const BASELINE_COMMIT = "7acaa5f5182e115c87126b2d6fa241773a9e3ca8";

const cacheRoot = join(homedir(), ".cache", "pulumi-svc", "baseline-plugin");

/** The folder holding the baseline's `pulumi-resource-svc` launcher and bundle; built on first use (a few minutes). */
export function baselinePluginDir(commit: string = BASELINE_COMMIT): { dir: string; builtNow: boolean; seconds: number } {
  const dir = join(cacheRoot, commit);
  const complete = join(dir, ".complete");
  if (existsSync(complete)) return { dir, builtNow: false, seconds: 0 };
  const started = performance.now();
  try {
    execFileSync("git", ["-C", repoRoot, "cat-file", "-e", `${commit}^{commit}`], { stdio: "ignore" });
  } catch {
    throw new Error(
      `the previous release's commit ${commit} is not in this clone (a shallow clone?): fetch it (git fetch --unshallow, or git fetch origin ${commit}) to build its plugin`,
    );
  }
  mkdirSync(cacheRoot, { recursive: true });
  const work = mkdtempSync(join(cacheRoot, `.build-${commit.slice(0, 12)}-`));
  try {
    const source = join(work, "src");
    mkdirSync(source);
    // The commit's tree as files (no .git): what a release tarball of that commit holds.
    const archive = join(work, "src.tar");
    execFileSync("git", ["-C", repoRoot, "archive", "--format=tar", "-o", archive, commit]);
    execFileSync("tar", ["-xf", archive, "-C", source]);
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: source, stdio: ["ignore", "ignore", "inherit"] });
    const out = join(work, "plugin");
    execFileSync(join(source, "node_modules", ".bin", "node"), [join(source, "scripts", "build-plugin.mjs"), "--outdir", out], {
      cwd: source,
      stdio: ["ignore", "ignore", "inherit"],
    });
    writeFileSync(join(out, ".complete"), `${commit}\n`);
    // Another run may have finished the same build meanwhile: its folder is as good as ours.
    if (!existsSync(complete)) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(out, dir);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { dir, builtNow: true, seconds: Math.round((performance.now() - started) / 1000) };
}
