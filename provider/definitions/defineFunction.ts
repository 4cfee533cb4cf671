/**
 * One definition per provider function (an invoke: a lookup a program makes instead of hard-coding an id), beside
 * the resources: its arguments (zod schema, description, named type), its result fields (type, secrecy) and the
 * lookup itself. The package schema's `functions`, the plugin's Invoke, the TypeScript functions of
 * `pulumi-svc/native` and docs/functions.md are derived from it.
 */
import { z } from "zod";
import { describeIssues } from "../../contract/issues";
import { ProviderError } from "../core/errors";
import { ACCOUNT_NAME, ACCOUNT_NAME_EXPECTATION } from "../core/namedAccounts";
import type { OperationContext } from "../core/operationContext";
import type { OutputField } from "./define";
import type { SchemaTypeName } from "./schemaTypes";

export interface ArgumentField {
  schema: z.ZodType;
  description: string;
  example: unknown;
  typeName?: SchemaTypeName;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of definitions holds each with its own types
export interface FunctionDefinition<Args extends Record<string, unknown> = any, Result extends Record<string, unknown> = any> {
  /** The function's name: `svc:index:<name>` in the schema, `svc.<name>` in a program. */
  name: string;
  description: string;
  /** A TypeScript example (`pulumi-svc/native`) for the schema's description. */
  example: string;
  inputs: Record<string, ArgumentField>;
  outputs: Record<string, OutputField>;
  /** The lookup, on checked arguments (defaults filled in); an error names the account and what was searched. */
  invoke(ctx: OperationContext, args: Args): Promise<Result>;
}

/** The `account` argument every function takes: the named account to search (the provider's own when left out). */
export const ACCOUNT_ARGUMENT = {
  schema: z.string().regex(ACCOUNT_NAME, ACCOUNT_NAME_EXPECTATION).optional(),
  description: "The name of the account to search: one of the provider's named accounts (`accounts`). Left out, the provider's own account.",
  example: "reseller-eu",
} as const satisfies ArgumentField;

/** Declares a function; the identity function, so that the definition's types are checked where it is written. */
export function defineFunction<Args extends Record<string, unknown>, Result extends Record<string, unknown>>(
  definition: FunctionDefinition<Args, Result>,
): FunctionDefinition<Args, Result> {
  return definition;
}

/** The result fields the schema marks secret (the plugin wraps them, the SDKs keep them secret). */
export function secretResults(definition: FunctionDefinition): string[] {
  return Object.keys(definition.outputs).filter((key) => definition.outputs[key]?.secret);
}

/** The arguments, checked against the definition before any API call: every bad one named, with what was expected. */
export function checkArguments(definition: FunctionDefinition, args: Record<string, unknown>): Record<string, unknown> {
  const problems: string[] = [];
  const checked: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    if (!(key in definition.inputs) && args[key] !== undefined && args[key] !== null)
      problems.push(`unknown argument "${key}"; expected one of: ${Object.keys(definition.inputs).join(", ")}`);
  }
  for (const [key, field] of Object.entries(definition.inputs)) {
    const parsed = field.schema.safeParse(args[key] ?? undefined);
    if (parsed.success) {
      if (parsed.data !== undefined) checked[key] = parsed.data;
    } else problems.push(describeIssues(parsed.error.issues, { path: [key] }));
  }
  if (problems.length > 0) throw new ProviderError(`${definition.name}: ${problems.join("; ")}; nothing was searched`);
  return checked;
}
