/**
 * A Python program through the engine, as users run it (`pulumi up` in a project folder): the Python language host
 * built from sdk/v3 v3.68.0 runs the program with `pulumi` from PyPI in the venv of scripts/ensure-languages.sh.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { languageTools, repoRoot } from "../../scripts/engineEnv";
import { type CliProject, cliProject, lastChanges, previewChanges } from "./project";

describe("a Python program", () => {
  let project: CliProject;
  beforeAll(() => {
    project = cliProject(join(repoRoot, "test", "languages", "fixtures", "python"));
  }, 60_000);
  afterAll(() => project?.cleanup());

  it("runs on the Python host built from sdk/v3, with the venv's Python and the pinned pulumi from PyPI", () => {
    const tools = languageTools();
    const about = spawnSync("pulumi", ["about", "--json", "--non-interactive"], { cwd: project.dir, env: project.env, encoding: "utf8" });
    expect(about.status, about.stderr).toBe(0);
    // the engine says which language host it found: ours, on PATH (plugin downloads are off)
    expect(about.stderr).toContain(`using pulumi-language-python from $PATH at ${join(tools.bins[0]!, "pulumi-language-python")}`);
    const info = JSON.parse(about.stdout) as { runtime: { executable: string; language: string }; dependencies: { name: string; version: string }[] };
    expect(info.runtime.language).toBe("python");
    expect(info.runtime.executable.startsWith(join(tools.venv, "bin"))).toBe(true);
    expect(info.dependencies).toContainEqual({ name: "pulumi", version: tools.pulumiPython });
  });

  it("goes up, previews with no change, updates and is destroyed", () => {
    project.pulumi("config", "set", "name", "tester");
    project.pulumi("up", "--yes", "--skip-preview");
    expect(lastChanges(project)).toEqual({ create: 2 });
    const outputs = JSON.parse(project.pulumi("stack", "output", "--json", "--show-secrets"));
    expect(outputs).toMatchObject({ greeting: "hello tester from python", secret: "s3cr3t" });
    expect(outputs.component).toMatch(/::svc:test:Component::c$/);
    // the secret output is a secret: masked without --show-secrets, encrypted in the state
    expect(JSON.parse(project.pulumi("stack", "output", "--json")).secret).toBe("[secret]");
    expect(project.pulumi("stack", "export")).not.toContain("s3cr3t");

    expect(previewChanges(project)).toEqual({ same: 2 });

    project.pulumi("config", "set", "name", "again");
    project.pulumi("up", "--yes", "--skip-preview");
    expect(JSON.parse(project.pulumi("stack", "output", "greeting", "--json"))).toBe("hello again from python");

    project.pulumi("destroy", "--yes", "--skip-preview");
    expect(lastChanges(project)).toEqual({ delete: 2 });
  }, 240_000);
});
