/**
 * Adding a resource is its definition and one registry entry, then `npm run generate`. Here, in a copy of the tree
 * (its sources, the real layout), a test-only fourth resource (fixtures/addedResource/label.ts) goes to
 * provider/definitions/label.ts and gets its entry in RESOURCES; `npm run generate`'s script then writes the rest.
 * The copy is type-checked and linted as the repository is; the schema, the policy pack's resource list, takeover's
 * listing and program, and the examples in every language all take the new resource from its definition; its classes
 * are registered with Pulumi's mocked runtime, as the dynamic resource and as the plugin's. The files that changed
 * outside what the generator owns are the hand-written ones: docs/design.md says how many.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shimText } from "../../provider/resources/shim";
import { repoRoot } from "../../scripts/engineEnv";
import { recordRegistrations, registeredOnce } from "./mockedRuntime";

/** The parts of the tree the package's code is in, and the files the generator and the checks read. */
const SOURCES = ["contract", "sdk", "provider", "plugin", "policy", "docs", "package.json", "tsconfig.json", "biome.json", ".gitignore"];
const SCRIPTS = ["generate.mjs", "generate.ts", "generatedFiles.ts", "engineEnv.ts"];
/** What `npm run generate` owns: a change there is written, not hand-written. */
const GENERATED = [/^provider\/generated\//, /^provider\/runtime\/providers\.ts$/, /^plugin\/schema\.json$/, /^docs\/resources\.md$/];

const tree = mkdtempSync(join(tmpdir(), "pulumi-svc-added-resource-"));
afterAll(() => rmSync(tree, { recursive: true, force: true }));
for (const path of SOURCES) cpSync(join(repoRoot, path), join(tree, path), { recursive: true });
for (const file of SCRIPTS) cpSync(join(repoRoot, "scripts", file), join(tree, "scripts", file));
symlinkSync(join(repoRoot, "node_modules"), join(tree, "node_modules"));

function filesUnder(root: string, dir = root): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") continue;
    if (statSync(path).isDirectory()) for (const [p, text] of filesUnder(root, path)) files.set(p, text);
    else files.set(relative(root, path), readFileSync(path, "utf8"));
  }
  return files;
}
const before = filesUnder(tree);

// What the new resource's author writes: the definition file, and its entry in RESOURCES.
const definitionFile = readFileSync(join(__dirname, "fixtures/addedResource/label.ts"), "utf8").replaceAll("../../../../provider/definitions/", "./");
writeFileSync(join(tree, "provider/definitions/label.ts"), definitionFile);
const registryFile = join(tree, "provider/definitions/index.ts");
const registry = readFileSync(registryFile, "utf8");
writeFileSync(
  registryFile,
  registry
    .replace('import { httpNotificationTemplate } from "./httpNotificationTemplate";', '$&\nimport { label } from "./label";')
    .replace("  EmailNotificationTemplate: emailNotificationTemplate,\n", "$&  Label: label,\n"),
);

const node = process.execPath;
const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);
const run = (file: string, args: string[]) => execFileSync(file, args, { cwd: tree, encoding: "utf8", stdio: "pipe" });
// `npm run generate`'s script, run from the copy (it finds its repository from its own folder).
const generateOutput = run(node, ["scripts/generate.mjs"]);

const after = filesUnder(tree);
const changed = [...after.keys()].filter((path) => before.get(path) !== after.get(path) && !path.startsWith("dist/")).sort();
const handWritten = changed.filter((path) => !GENERATED.some((pattern) => pattern.test(path)));

/** The generated class as this test sees it (the program below is what checks its types). */
interface LabelClass {
  new (name: string, args: Record<string, unknown>): pulumi.CustomResource;
  isInstance(obj: unknown): boolean;
  get(name: string, id: string): pulumi.CustomResource;
}

const PROGRAM = `import type * as pulumi from "@pulumi/pulumi";
import * as svc from "./provider";
import * as native from "./provider/native";

const label = new svc.Label("release", { text: "release", color: "RED", apiKey: "label-signing-key", tags: { team: "video" } });
const id: pulumi.Output<string> = label.labelId;
const createdAt: pulumi.Output<number> = label.createdAt;
const text: pulumi.Output<string> = label.text;
// @ts-expect-error text is required
new svc.Label("no-text", { apiKey: "label-signing-key" });
// @ts-expect-error apiKey is required of a new label
new svc.Label("no-key", { text: "t" });
// @ts-expect-error PURPLE is not a color
new svc.Label("purple", { text: "t", apiKey: "label-signing-key", color: "PURPLE" });
// @ts-expect-error weight is a number
new svc.Label("heavy", { text: "t", apiKey: "label-signing-key", weight: "2" });
const existing: svc.Label = svc.Label.get("existing", "label-1");
// The plugin's class: an imported label may leave apiKey out.
const imported: native.Label = new native.Label("imported", { text: "t" });
const importedArgs: native.ImportedLabelArgs = { text: "t" };
// The package's resources are generated beside it, unchanged.
new svc.AppToken("token", { description: "d" });
export { id, createdAt, text, existing, imported, importedArgs };
`;

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six"];

describe("a fourth resource: its definition and one registry entry, in the tree's own layout", () => {
  it("is 2 hand-written files; the rest is generated, and docs/design.md says the same number", () => {
    expect(generateOutput).toContain("file(s) written");
    expect(handWritten).toEqual(["provider/definitions/index.ts", "provider/definitions/label.ts"]);
    expect(changed).toEqual(
      expect.arrayContaining([
        "provider/generated/label.ts",
        "provider/generated/native.ts",
        "provider/generated/fieldTable.ts",
        "plugin/schema.json",
        "docs/resources.md",
      ]),
    );
    const design = readFileSync(join(repoRoot, "docs/design.md"), "utf8");
    const said = /Adding a resource is (\w+) hand-written files/.exec(design)?.[1];
    expect(said, "docs/design.md: 'Adding a resource is <n> hand-written files'").toBe(NUMBER_WORDS[handWritten.length]);
  });

  it("generates its classes beside the package's, which come out as checked in, and its dynamic provider", () => {
    const text = (path: string) => after.get(path) ?? "";
    expect(text("provider/generated/resources.ts")).toContain('export { Label, type LabelArgs } from "./label";');
    expect(text("provider/generated/native.ts")).toContain("export class Label extends NativeResource");
    expect(text("provider/generated/fieldTable.ts")).toContain('"runtimeExport": "label"');
    expect(text("provider/runtime/providers.ts")).toContain("export const label = new DefinitionHandlers(RESOURCES.Label, session);");
    expect(text("provider/generated/appToken.ts")).toBe(readFileSync(join(repoRoot, "provider/generated/appToken.ts"), "utf8"));
  });

  it("type-checks and lints as the repository does, with a program that uses it (required inputs, enum values, typed outputs)", () => {
    writeFileSync(join(tree, "program.ts"), PROGRAM);
    writeFileSync(
      join(tree, "tsconfig.added.json"),
      JSON.stringify({ extends: "./tsconfig.json", include: ["contract", "sdk", "provider", "plugin", "policy", "program.ts"] }),
    );
    const typeCheck = () => run(node, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.added.json", "--noEmit"]);
    expect(typeCheck).not.toThrow();
    const lint = () => run(bin("biome"), ["check", "--vcs-enabled=false", "provider", "plugin", "policy"]);
    expect(lint).not.toThrow();
  }, 240_000);

  it("is in the plugin's schema, with its example program in every language, written from its definition", async () => {
    const schema = JSON.parse(after.get("plugin/schema.json")!) as { resources: Record<string, { description: string; inputProperties: object }> };
    const resource = schema.resources["svc:index:Label"]!;
    expect(Object.keys(resource.inputProperties)).toEqual(expect.arrayContaining(["text", "color", "weight", "apiKey", "tags"]));
    const { examplesOf } = (await import(join(tree, "plugin/examples.ts"))) as typeof import("../../plugin/examples");
    const { DEFINITIONS } = (await import(join(tree, "provider/definitions/index.ts"))) as typeof import("../../provider/definitions");
    const example = examplesOf(DEFINITIONS).Label!;
    expect(example.typescript).toContain('const release = new svc.Label("release", {');
    expect(example.typescript).toContain('apiKey: config.requireSecret("labelKey"),');
    expect(example.python).toContain('release = svc.Label("release",');
    expect(example.go).toContain('release, err := svc.NewLabel(ctx, "release", &svc.LabelArgs{');
    expect(example.go).toContain('Tags:   pulumi.StringMap{"team": pulumi.String("video")},');
    expect(example.yaml).toContain("    type: svc:index:Label");
    for (const language of ["typescript", "python", "go", "yaml"] as const) expect(resource.description).toContain(example[language]);
  });

  it("is one of the policy pack's resources, by either type token and by its shim's runtime export", async () => {
    const policy = (await import(join(tree, "policy/resources.ts"))) as typeof import("../../policy/resources");
    expect(policy.SVC_TYPES).toContain("Label");
    expect(policy.svcTypeOf("svc:index:Label", {})).toBe("Label");
    expect(policy.svcTypeOf("pulumi-nodejs:dynamic/svc:Label", {})).toBe("Label");
    expect(policy.svcTypeOf("pulumi-nodejs:dynamic:Resource", { __provider: shimText("label") })).toBe("Label");
  });

  it("is listed and written by takeover: its id grammar, its resource names, its count", async () => {
    const { DEFINITIONS } = (await import(join(tree, "provider/definitions/index.ts"))) as typeof import("../../provider/definitions");
    const listing = (await import(join(tree, "provider/cli/takeoverListing.ts"))) as typeof import("../../provider/cli/takeoverListing");
    const code = (await import(join(tree, "provider/cli/takeoverCode.ts"))) as typeof import("../../provider/cli/takeoverCode");
    const label = DEFINITIONS.find((d) => d.type === "Label")!;
    const ctx = {} as Parameters<typeof label.create>[0];
    await label.create(ctx, { text: "Release notes", color: "RED", weight: 0, apiKey: "label-signing-key" });
    await label.create(ctx, { text: "label-2", color: "BLUE", weight: 1, apiKey: "label-signing-key" });
    const found = await listing.listCandidates(ctx, 101, { ids: [], names: new Map() }, { definitions: [label] });
    expect(found.candidates.map((c) => [c.id, c.name])).toEqual([
      ["label-2", "label-label-2"],
      ["label-1", "release-notes"],
    ]);
    expect(code.importFile(found.candidates).resources.map((r) => r.type)).toEqual(["svc:index:Label", "svc:index:Label"]);
    const program = code.programCode(found.candidates, { partnerId: 101, baseUrl: "http://127.0.0.1:1", importFile: "import.json" });
    expect(program).toContain("0 app token(s), 0 webhook(s), 0 email template(s), 2 label(s).");
    expect(program).toContain("new svc.Label(");
    const forged = { ...found.candidates[0]!, id: "2001" };
    expect(() => code.importFile([forged])).toThrow("the id the platform sent is not a label id");
  });

  describe("registered with the mocked runtime", () => {
    let registered: pulumi.runtime.MockResourceArgs[] = [];
    beforeAll(async () => {
      registered = await recordRegistrations();
    });

    it("the dynamic class: its type token, its runtime export's shim, its inputs and outputs; a missing required input names itself", async () => {
      const { Label } = (await import(join(tree, "provider/generated/resources.ts"))) as { Label: LabelClass };
      const label = new Label("release", { text: "release", apiKey: "label-signing-key" });
      await registeredOnce(label);
      const args = registered.find((r) => r.name === "release")!;
      expect(args.type).toBe("pulumi-nodejs:dynamic/svc:Label");
      expect(args.inputs.__provider).toBe(shimText("label"));
      expect(args.inputs.text).toBe("release");
      // The secret input goes to the engine as a secret.
      expect(args.inputs.apiKey).toEqual({ [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value: "label-signing-key" });
      expect(pulumi.Output.isInstance((label as unknown as Record<string, unknown>).labelId)).toBe(true);
      expect(args.inputs).not.toHaveProperty("connection");
      expect(Label.isInstance(label)).toBe(true);
      expect(() => new Label("no-key", { text: "t" })).toThrow("Missing required property 'apiKey' of Label no-key");
      expect(() => Label.get("existing", "label-1")).not.toThrow();
    });

    it("the native class: registered as svc:index:Label", async () => {
      const native = (await import(join(tree, "provider/generated/native.ts"))) as { Label: LabelClass };
      const label = new native.Label("native-label", { text: "t" });
      await registeredOnce(label);
      expect(registered.find((r) => r.name === "native-label")!.type).toBe("svc:index:Label");
    });
  });
});
