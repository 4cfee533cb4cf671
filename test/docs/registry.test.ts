/**
 * The registry pages (docs/registry/) and the templates against their sources: the example of _index.md in each
 * language is, byte for byte, the program of that language's template (which test/release/ runs against the
 * emulator); the settings table of installation-configuration.md names every provider setting with its variable and
 * secrecy; the templates, the generated SDKs and the docs name package.json's version and download URL.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../provider/core/connection";

const root = join(__dirname, "..", "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const pkg = JSON.parse(read("package.json")) as { version: string; pulumiSvc: { pluginDownloadURL: string } };
/** The engine's placeholder for the version in a download URL. */
const VERSION_PLACEHOLDER = ["$", "{VERSION}"].join("");
const releaseUrl = pkg.pulumiSvc.pluginDownloadURL.replace(VERSION_PLACEHOLDER, pkg.version);

/** The fenced code blocks of a markdown text in `language`. */
const codeBlocks = (markdown: string, language: string): string[] =>
  [...markdown.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\``, "g"))].map((m) => m[1]!);

describe("docs/registry", () => {
  const index = read("docs/registry/_index.md");

  it("_index.md's example in each language is its template's program", () => {
    expect(codeBlocks(index, "typescript")).toEqual([read("templates/svc-typescript/index.ts").trimEnd()]);
    expect(codeBlocks(index, "python")).toEqual([read("templates/svc-python/__main__.py").trimEnd()]);
    expect(codeBlocks(index, "go")).toEqual([read("templates/svc-go/main.go").trimEnd()]);
    const yamlProgram = read("templates/svc-yaml/Pulumi.yaml");
    expect(codeBlocks(index, "yaml")).toEqual([yamlProgram.slice(yamlProgram.indexOf("resources:")).trimEnd()]);
  });

  it("installation-configuration.md's table has every setting, its variable and whether it is secret", () => {
    const page = read("docs/registry/installation-configuration.md");
    for (const setting of Object.values(SETTINGS)) {
      const row = page.split("\n").find((line) => line.startsWith(`| \`${setting.config}\` |`));
      expect(row, setting.config).toBeDefined();
      expect(row).toContain(`| \`${setting.env}\` |`);
      expect(row!.split("|")[3]!.trim()).toBe("secret" in setting && setting.secret ? "yes" : "");
    }
    const rows = page.split("\n").filter((line) => /^\| `svc:/.test(line));
    expect(rows).toHaveLength(Object.keys(SETTINGS).length);
  });
});

describe("one version and one download URL everywhere", () => {
  it("the templates name package.json's version and URL", () => {
    const yaml = read("templates/svc-yaml/Pulumi.yaml");
    expect(yaml).toContain(`version: ${pkg.version}\n`);
    expect(yaml).toContain(`pluginDownloadURL: ${releaseUrl}\n`);
    expect(read("templates/svc-python/requirements.txt")).toContain(`pulumi_svc==${pkg.version}\n`);
    expect(read("templates/svc-go/go.mod")).toContain(`github.com/pulumi-svc/pulumi-svc/sdk/go v${pkg.version}\n`);
    for (const template of ["svc-typescript", "svc-typescript-dynamic"]) {
      const deps = (JSON.parse(read(`templates/${template}/package.json`)) as { dependencies: Record<string, string> }).dependencies;
      expect(deps["pulumi-svc"]).toBe(`${releaseUrl}/pulumi-svc-${pkg.version}.tgz`);
    }
  });

  it("the schema and the generated SDKs name them", () => {
    const schema = JSON.parse(read("plugin/schema.json")) as { version: string; pluginDownloadURL: string };
    expect(schema).toMatchObject({ version: pkg.version, pluginDownloadURL: pkg.pulumiSvc.pluginDownloadURL });
    for (const path of ["sdk-gen/python/pulumi_svc/pulumi-plugin.json", "sdk-gen/go/svc/pulumi-plugin.json"]) {
      expect(JSON.parse(read(path)), path).toMatchObject({ name: "svc", version: pkg.version, server: pkg.pulumiSvc.pluginDownloadURL });
    }
    expect(read("sdk-gen/python/pyproject.toml")).toContain(`version = "${pkg.version}"`);
  });

  it("the docs' install commands name this version", () => {
    const page = read("docs/registry/installation-configuration.md");
    const versions = new Set([...page.matchAll(/\bv?(\d+\.\d+\.\d+)\b/g)].map((m) => m[1]));
    expect([...versions]).toEqual([pkg.version]);
  });
});
