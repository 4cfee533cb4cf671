/** The files derived from the resource definitions and checked in, as [path from the repo root, text]. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageSchema } from "../plugin/schema";
import { DEFINITIONS, FUNCTIONS } from "../provider/definitions";
import { repoRoot } from "./engineEnv";
import { resourcesPage } from "../provider/codegen/docsTables";
import { classFiles } from "../provider/codegen/classModules";
import { RUNTIME_PROVIDERS_FILE, runtimeProvidersModule } from "../provider/codegen/runtimeProviders";

/** The package's version: the schema's (the generated SDKs ask the engine for the plugin of that version). */
const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

export function generatedFiles(): [string, string][] {
  return [
    ...classFiles(DEFINITIONS, { out: repoRoot, source: repoRoot, registry: "provider/definitions/index.ts" }),
    [RUNTIME_PROVIDERS_FILE, runtimeProvidersModule(DEFINITIONS)],
    ["plugin/schema.json", `${JSON.stringify(packageSchema(DEFINITIONS, version), null, 2)}\n`],
    ["docs/resources.md", resourcesPage(DEFINITIONS, FUNCTIONS)],
  ];
}
