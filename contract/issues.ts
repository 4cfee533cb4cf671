/**
 * The one way a zod failure becomes text, for the sdk (inputs and responses), the provider's check and the
 * emulator: `path: expectation` per issue, `path is required` for a missing value, `unknown field(s) "x"` for a
 * strict object's extra keys. zod messages describe the expectation, never the value, so no secret is echoed.
 */
import type { z } from "zod";

export interface IssueFormat {
  /** The value that was parsed: lets a missing field read "is required" instead of zod's type message. */
  input?: unknown;
  /** Prepended to every issue's path (the field a per-field schema was applied to). */
  path?: readonly PropertyKey[];
  /** At most this many issues (default: all). */
  max?: number;
  /** Joins the issues (default "; "). */
  separator?: string;
}

export function describeIssues(issues: readonly z.core.$ZodIssue[], format: IssueFormat = {}): string {
  const shown = format.max === undefined ? issues : issues.slice(0, format.max);
  return shown.map((issue) => describeIssue(issue, format)).join(format.separator ?? "; ");
}

function describeIssue(issue: z.core.$ZodIssue, format: IssueFormat): string {
  const path = [...(format.path ?? []), ...issue.path].map(String).join(".");
  const where = path === "" ? "" : `${path}: `;
  if (issue.code === "unrecognized_keys") return `${where}unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  if ("input" in format && issue.path.length > 0 && valueAt(format.input, issue.path) === undefined) return `${path} is required`;
  return `${where}${issue.message}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
