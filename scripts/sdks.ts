/**
 * The SDKs of the native plugin, generated from plugin/schema.json by pulumi-svc-codegen (Pulumi's own Node.js,
 * Python and Go generators at the engine's version, built by scripts/ensure-languages.sh) and checked in under
 * sdk-gen/: `npm run generate:sdks` rewrites them; test/languages/sdks.test.ts fails, naming the file, when the
 * checked-in SDKs differ from what this writes.
 *
 * The Node.js generator's output is not kept: TypeScript programs use `pulumi-svc/native`, whose classes
 * `npm run generate` writes from the definitions beside the dynamic ones (one set per provider, not a third).
 *
 * Beside the generators' output, two files make the folders usable as they are:
 * - sdk-gen/go/go.mod: the Go module `github.com/pulumi-svc/pulumi-svc/sdk/go` (the schema's importBasePath without
 *   its package folder `svc`), requiring the engine's sdk/v3. The module is not published: a program uses it with a
 *   `replace` directive pointing at the folder (examples/go/go.mod).
 * - sdk-gen/python/README.md: the pyproject names it (`readme`), and the generator writes it into the package only.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { languageTools, repoRoot } from "./engineEnv";

export const SDK_DIR = join(repoRoot, "sdk-gen");
export const SCHEMA = join(repoRoot, "plugin", "schema.json");
/** The Go module of sdk-gen/go. */
export const GO_MODULE = "github.com/pulumi-svc/pulumi-svc/sdk/go";

/** The sdk/v3 version Go programs build against: the engine's (test/languages/go/go.mod is kept equal to it). */
export function goSdkVersion(): string {
  const goMod = readFileSync(join(repoRoot, "test", "languages", "go", "go.mod"), "utf8");
  const version = /github\.com\/pulumi\/pulumi\/sdk\/v3 v(\d+\.\d+\.\d+)/.exec(goMod)?.[1];
  if (!version) throw new Error("test/languages/go/go.mod does not require github.com/pulumi/pulumi/sdk/v3");
  return version;
}

/** Writes the SDKs into outDir (emptied first): outDir/{python,go}. */
export function generateSdks(outDir: string, codegen = languageTools().codegen): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  execFileSync(codegen, [SCHEMA, outDir], { stdio: ["ignore", "pipe", "pipe"] });
  const schema = JSON.parse(readFileSync(SCHEMA, "utf8")) as { language: { go: { importBasePath: string } } };
  if (schema.language.go.importBasePath !== `${GO_MODULE}/svc`)
    throw new Error(`plugin/schema.json's go importBasePath is ${schema.language.go.importBasePath}, expected ${GO_MODULE}/svc`);
  writeFileSync(join(outDir, "go", "go.mod"), `module ${GO_MODULE}\n\ngo 1.22\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${goSdkVersion()}\n`);
  copyFileSync(join(outDir, "python", "pulumi_svc", "README.md"), join(outDir, "python", "README.md"));
  rmSync(join(outDir, "nodejs"), { recursive: true, force: true });
}

/**
 * What installing or building an SDK in place leaves beside it (the generators' own .gitignore files name it):
 * `pip install ./sdk-gen/python` builds in the folder (build/, *.egg-info), Python writes __pycache__, `npm run
 * build` of the Node.js SDK writes bin/. Not the generators' output, so neither drift nor a stale file.
 */
const BUILD_ARTEFACT = /^(build|dist|bin|node_modules|__pycache__|\.mypy_cache)$|\.egg-info$|\.pyc$/;

/** Every file under dir, as paths relative to it, sorted (build artefacts left out). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (BUILD_ARTEFACT.test(name)) continue;
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** The differences between two SDK trees: files only in one, and files whose text differs. */
export function sdkDrift(expectedDir: string, actualDir: string): string[] {
  const expected = filesUnder(expectedDir);
  const actual = new Set(filesUnder(actualDir));
  const drift: string[] = [];
  for (const file of expected) {
    if (!actual.has(file)) drift.push(`${file}: missing`);
    else if (readFileSync(join(expectedDir, file), "utf8") !== readFileSync(join(actualDir, file), "utf8")) drift.push(`${file}: differs`);
    actual.delete(file);
  }
  for (const file of actual) drift.push(`${file}: not generated (a stale file)`);
  return drift;
}

if (require.main === module) {
  generateSdks(SDK_DIR);
  const counts = ["python", "go"].map((lang) => `${lang} ${filesUnder(join(SDK_DIR, lang)).length} files`);
  console.log(`wrote ${relative(repoRoot, SDK_DIR)}/ from plugin/schema.json: ${counts.join(", ")}`);
}
