/** zod validation with errors that name the field: inputs before a call, responses after it. */
import type { z } from "zod";
import { SvcResponseError, SvcValidationError } from "../errors";

/** Validate caller input; throws SvcValidationError("appTokens.add: field "x" ...") before any call. */
export function validateInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SvcValidationError(`${where}: ${describeIssues(result.error.issues, value)}`);
}

/** Validate a response body; throws SvcResponseError("appToken.get response: field "hashType" is required"). */
export function validateResponse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  label: { service: string; action: string; requestId?: string },
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SvcResponseError(`${label.service}.${label.action} response: ${describeIssues(result.error.issues, value)}`, label);
}

function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  return issues.slice(0, 3).map((issue) => describeIssue(issue, input)).join("; ");
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = issue.path.length ? `field "${issue.path.map(String).join(".")}"` : "value";
  if (issue.code === "unrecognized_keys") return `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  if (issue.path.length && valueAt(input, issue.path) === undefined) return `${field} is required`;
  // zod messages describe the expectation ("Invalid input: expected number, received string"), never the value.
  return `${field}: ${issue.message}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
