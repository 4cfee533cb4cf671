/**
 * A YAML program through the engine, as users run it (`pulumi up` in a project folder), on the YAML language host
 * built from pulumi-yaml v1.25.0 by scripts/ensure-languages.sh.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engineEnv";
import { type CliProject, cliProject, lastChanges, previewChanges } from "./project";

describe("a YAML program", () => {
  let project: CliProject;
  beforeAll(() => {
    project = cliProject(join(repoRoot, "test", "languages", "fixtures", "yaml"));
  }, 60_000);
  afterAll(() => project?.cleanup());

  it("goes up with its outputs, previews with no change, takes config and is destroyed", () => {
    project.pulumi("up", "--yes", "--skip-preview");
    expect(lastChanges(project)).toEqual({ create: 1 });
    const outputs = JSON.parse(project.pulumi("stack", "output", "--json", "--show-secrets"));
    expect(outputs).toEqual({
      greeting: "hello world from yaml",
      secret: "s3cr3t",
      joined: "a,b,c",
      encoded: Buffer.from("hello world from yaml").toString("base64"),
    });
    expect(JSON.parse(project.pulumi("stack", "output", "--json")).secret).toBe("[secret]");
    expect(project.pulumi("stack", "export")).not.toContain("s3cr3t");

    expect(previewChanges(project)).toEqual({ same: 1 });

    project.pulumi("config", "set", "name", "tester");
    project.pulumi("up", "--yes", "--skip-preview");
    expect(JSON.parse(project.pulumi("stack", "output", "greeting", "--json"))).toBe("hello tester from yaml");

    project.pulumi("destroy", "--yes", "--skip-preview");
    expect(lastChanges(project)).toEqual({ delete: 1 });
  }, 240_000);
});
