/**
 * Every example is a complete Pulumi TypeScript project and type-checks under its own tsconfig.json: the file
 * Pulumi's ts-node reads when a user runs `pulumi up` in that folder (or in a copy of it), which is stricter in
 * places and looser in others than the repo's root tsconfig (covered by `npm run typecheck`).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";
import { examplesDir } from "./exampleStack";

const all = readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** The examples in other languages, on the native plugin (test/languages/{python,yaml,go}Plugin.test.ts and test/accounts/namedAccountsYaml.test.ts run them). */
const OTHER_LANGUAGES = ["go", "python", "reseller", "yaml"];
const examples = all.filter((name) => !OTHER_LANGUAGES.includes(name));

describe("examples/", () => {
  it("has the examples the index lists, each listed", () => {
    expect(all.sort()).toEqual([
      "basic",
      "email-on-entry-ready",
      "environments",
      "gitops",
      "go",
      "pipeline-app-token",
      "python",
      "reseller",
      "webhook-receiver",
      "yaml",
    ]);
    const index = readFileSync(join(examplesDir, "README.md"), "utf8");
    for (const name of all) expect(index).toContain(`(${name}/)`);
  });

  it.each(OTHER_LANGUAGES)("%s is a Pulumi project on the plugin with a README", (name) => {
    const dir = join(examplesDir, name);
    expect(readFileSync(join(dir, "Pulumi.yaml"), "utf8")).toMatch(/^ {6}path: \.\.\/\.\.\/dist\/pulumi-resource-svc$/m);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toContain("npm run emulator");
    expect(readme).toMatch(/pulumi config set (--path )?--secret/);
  });

  it.each(examples)("%s is a TypeScript Pulumi project with a README", (name) => {
    const dir = join(examplesDir, name);
    const project = readFileSync(join(dir, "Pulumi.yaml"), "utf8");
    expect(project).toMatch(/^runtime:\n {2}name: nodejs\n {2}options:\n {4}typescript: true$/m);
    expect(project).toMatch(/^main: index\.ts$/m);
    for (const file of ["index.ts", "tsconfig.json", "README.md"]) expect(existsSync(join(dir, file)), file).toBe(true);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toContain("npm run emulator");
    expect(readme).toMatch(/pulumi config set (--path )?--secret/);
  });

  it.each(examples)(
    "%s type-checks under its own tsconfig.json",
    async (name) => {
      const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
      const run = promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", join(examplesDir, name, "tsconfig.json")], { cwd: repoRoot });
      const result = await run.then(
        () => ({ ok: true, output: "" }),
        (error: { stdout?: string }) => ({ ok: false, output: error.stdout ?? String(error) }),
      );
      expect(result.output).toBe("");
      expect(result.ok).toBe(true);
    },
    60_000,
  );
});
