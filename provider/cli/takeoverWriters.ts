/**
 * The languages `pulumi-svc takeover --language` writes, each with its default file: TypeScript (takeoverCode.ts),
 * and Python, Go and YAML, whose writers render the checked declarations (takeoverDeclarations.ts) from the plugin's
 * schema (takeoverSchema.ts).
 */
import { programCode } from "./takeoverCode";
import { checkedDeclarations, type ProgramHeader } from "./takeoverDeclarations";
import { goProgram } from "./takeoverGo";
import type { Candidate } from "./takeoverListing";
import { pythonProgram } from "./takeoverPython";
import { schemaView } from "./takeoverSchema";
import { yamlProgram } from "./takeoverYaml";

export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where each language's program goes unless --code says otherwise. */
export const DEFAULT_CODE_FILE: Record<Language, string> = { typescript: "index.ts", python: "__main__.py", go: "main.go", yaml: "Main.yaml" };

export function programFor(language: Language, candidates: readonly Candidate[], header: ProgramHeader, options: { goPackage?: string } = {}): string {
  if (language === "typescript") return programCode(candidates, header);
  const declarations = checkedDeclarations(candidates);
  const schema = schemaView();
  if (language === "python") return pythonProgram(schema, declarations, header);
  if (language === "go") return goProgram(schema, declarations, header, options.goPackage);
  return yamlProgram(schema, declarations, header);
}
