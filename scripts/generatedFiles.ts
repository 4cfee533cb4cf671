/** The files derived from the resource definitions and checked in, as [path from the repo root, text]. */
import { packageSchema } from "../plugin/schema";
import { DEFINITIONS } from "../provider/definitions";
import { resourcesPage } from "../provider/definitions/docsTables";
import { fieldTableModule } from "../provider/definitions/fieldTable";

export function generatedFiles(): [string, string][] {
  return [
    ["provider/resources/fieldTable.ts", fieldTableModule(DEFINITIONS)],
    ["plugin/schema.json", `${JSON.stringify(packageSchema(DEFINITIONS), null, 2)}\n`],
    ["docs/resources.md", resourcesPage(DEFINITIONS)],
  ];
}
