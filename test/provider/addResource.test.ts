/**
 * Adding a resource is its definition and one registry entry, then `npm run generate`: here a test-only fourth
 * resource (fixtures/addedResource/label.ts, registered in fixtures/addedResource/registry.ts) is generated, with
 * the package's three, into a folder of its own, and its classes are used as a program uses them: type-checked
 * (its Args, required inputs, enum values and outputs), then registered with Pulumi's mocked runtime, as the dynamic
 * resource and as the plugin's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classFiles } from "../../provider/codegen/classModules";
import { shimText } from "../../provider/resources/shim";
import { repoRoot } from "../../scripts/engineEnv";
import { RESOURCES } from "./fixtures/addedResource/registry";
import { recordRegistrations, registeredOnce } from "./mockedRuntime";

const out = mkdtempSync(join(tmpdir(), "pulumi-svc-added-resource-"));
// The generated modules import @pulumi/pulumi as a program's do: from the repository's node_modules.
symlinkSync(join(repoRoot, "node_modules"), join(out, "node_modules"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const files = classFiles(Object.values(RESOURCES), { out, source: repoRoot, registry: "test/provider/fixtures/addedResource/registry.ts" });
for (const [path, text] of files) {
  mkdirSync(dirname(join(out, path)), { recursive: true });
  writeFileSync(join(out, path), text);
}

/** The generated class as this test sees it (the program above is what checks its types). */
interface LabelClass {
  new (name: string, args: Record<string, unknown>): pulumi.CustomResource;
  isInstance(obj: unknown): boolean;
  get(name: string, id: string): pulumi.CustomResource;
}

const PROGRAM = `import type * as pulumi from "@pulumi/pulumi";
import * as svc from "./provider/resources";
import * as native from "./provider/native/resources";

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

describe("a fourth resource: its definition and one registry entry", () => {
  it("generates its dynamic class file, and its native class, exports and field table row beside the package's", () => {
    const paths = files.map(([path]) => path);
    expect(paths).toContain("provider/resources/label.ts");
    const text = (path: string) => files.find(([p]) => p === path)![1];
    expect(text("provider/resources/index.ts")).toContain('export { Label, type LabelArgs } from "./label";');
    expect(text("provider/native/resources.ts")).toContain("export class Label extends NativeResource");
    expect(text("provider/resources/fieldTable.ts")).toContain('"kind": "label"');
    // The package's own classes come out as checked in, but for the paths of their imports.
    const afterImports = (source: string) => source.slice(source.indexOf("\n/** The inputs of"));
    const checkedIn = readFileSync(join(repoRoot, "provider/resources/appToken.ts"), "utf8");
    expect(afterImports(text("provider/resources/appToken.ts"))).toBe(afterImports(checkedIn));
  });

  it("type-checks a program that uses it (required inputs, enum values, typed outputs)", () => {
    const program = join(out, "program.ts");
    writeFileSync(program, PROGRAM);
    const config = ts.getParsedCommandLineOfConfigFile(
      join(repoRoot, "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    const compiled = ts.createProgram([program], { ...config!.options, noEmit: true, rootDir: "/" });
    const messages = ts.getPreEmitDiagnostics(compiled).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(messages).toEqual([]);
  }, 120_000);

  describe("registered with the mocked runtime", () => {
    let registered: pulumi.runtime.MockResourceArgs[] = [];
    beforeAll(async () => {
      registered = await recordRegistrations();
    });

    it("the dynamic class: its type token, its kind's shim, its inputs and outputs; a missing required input names itself", async () => {
      const { Label } = (await import(join(out, "provider/resources/index.ts"))) as { Label: LabelClass };
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
      const native = (await import(join(out, "provider/native/resources.ts"))) as { Label: LabelClass };
      const label = new native.Label("native-label", { text: "t" });
      await registeredOnce(label);
      expect(registered.find((r) => r.name === "native-label")!.type).toBe("svc:index:Label");
    });
  });
});
