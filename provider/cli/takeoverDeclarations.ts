/**
 * What every takeover program declares, whatever its language: each candidate's type token, id, resource name and
 * the inputs to write (takeoverCode's declaredInputs), checked against the platform's grammar (takeoverGrammar.ts)
 * before a writer sees them, and the comment lines every program starts with (only checked ids, counts and escaped
 * text: commentText). The writers (takeoverPython.ts, takeoverGo.ts, takeoverYaml.ts) only render these.
 */
import { stripUserinfo } from "../../contract/urlUserinfo";
import { commentText } from "./asciiLiteral";
import { declaredInputs, type ProgramHeader } from "./takeoverCode";
import { checkIdentity, checkInputs } from "./takeoverGrammar";
import type { ResourceDefinition } from "../definitions/define";
import { typeToken } from "../resources/typeToken";
import { type Candidate, countsText } from "./takeoverListing";

export interface Declaration {
  definition: ResourceDefinition;
  type: string;
  /** `svc:index:<type>`: the schema's resource token. */
  token: string;
  id: string;
  name: string;
  inputs: Record<string, unknown>;
  /** The resource has a write-once signSecret that takeover cannot read back (so never writes). */
  hasSignSecret: boolean;
}

export type { ProgramHeader };

/** Throws, naming the object, when an id, a name or an input does not match the platform's grammar. */
export function checkedDeclarations(candidates: readonly Candidate[]): Declaration[] {
  return candidates.map((candidate) => {
    const type = candidate.definition.type;
    checkIdentity(candidate.definition, candidate.id, candidate.name);
    const inputs = declaredInputs(candidate);
    checkInputs(candidate.definition, candidate.id, inputs);
    return {
      definition: candidate.definition,
      type,
      token: typeToken(type),
      id: candidate.id,
      name: candidate.name,
      inputs,
      hasSignSecret: "signSecret" in candidate.definition.inputs,
    };
  });
}

/** The opening comment of every program, as lines without the comment marker. */
export function headerLines(declarations: readonly Declaration[], header: ProgramHeader): string[] {
  if (!Number.isSafeInteger(header.partnerId)) throw new Error("the partner id is not a whole number");
  const lines = [
    `Written by \`pulumi-svc takeover\` from partner ${header.partnerId} at ${commentText(stripUserinfo(header.baseUrl))}: ${countsText(declarations.map((d) => d.definition))}.`,
    `Adopt them with \`pulumi import --file ${commentText(header.importFile)} --generate-code=false\`; after that \`pulumi preview\` shows no change.`,
    "Every input is the value read from the account. Token values are never written here: each token's `token` output",
    "holds it, as a secret, once imported.",
  ];
  if (declarations.some((d) => d.hasSignSecret)) {
    lines.push(
      "signSecret is write-once on the platform and cannot be read back, so the webhooks below leave it out: the platform",
      "keeps the secret it has, and the preview stays clean. To manage one, add signSecret from a secret config value; the",
      "next `pulumi up` then writes that value to the platform (deliveries are signed with it from then on).",
    );
  }
  return lines;
}
