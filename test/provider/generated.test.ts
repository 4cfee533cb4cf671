/**
 * What is derived from the resource definitions and checked in (the dynamic classes' field table, the plugin's
 * schema, docs/resources.md) is exactly what `npm run generate` writes now: a definition changed without
 * regenerating fails here, naming the file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageSchema } from "../../plugin/schema";
import { DEFINITIONS } from "../../provider/definitions";
import { fieldsOf } from "../../provider/definitions/define";
import { FIELD_TABLE } from "../../provider/generated/fieldTable";
import { generatedFiles } from "../../scripts/generatedFiles";

const root = join(__dirname, "..", "..");

describe("files derived from the definitions", () => {
  it.each(generatedFiles().map(([path, text]) => [path, text] as const))("%s is current (npm run generate)", (path, text) => {
    expect(readFileSync(join(root, path), "utf8") === text, `${path} differs from its definitions: run npm run generate`).toBe(true);
  });

  it("the field table, the schema and the definitions agree on every field and every secret", () => {
    const schema = packageSchema(DEFINITIONS);
    for (const definition of DEFINITIONS) {
      const fields = fieldsOf(definition);
      const table = FIELD_TABLE[definition.type as keyof typeof FIELD_TABLE];
      expect(table.inputs).toEqual(fields.inputKeys);
      expect(table.secrets).toEqual(fields.secrets);
      const resource = schema.resources[`svc:index:${definition.type}`]!;
      expect(Object.keys(resource.inputProperties)).toEqual(fields.inputKeys);
      const secretProps = Object.entries(resource.properties)
        .filter(([, p]) => p.secret)
        .map(([k]) => k);
      expect(secretProps.sort()).toEqual([...fields.secrets].sort());
      for (const [key, property] of Object.entries(resource.properties)) {
        expect(property.description, `${definition.type}.${key} has a description with an example`).toMatch(/\S[\s\S]*Example: `/);
      }
      expect(resource.description).toContain("## Example Usage");
    }
  });
});
