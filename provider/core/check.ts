/**
 * check for dynamic providers, driven by a zod object schema: every field is validated on its own so that all bad
 * fields are reported at once (with the field's name and what was expected), unknown values pass through untouched,
 * and defaults are filled in so that diff compares like with like.
 */
import type { z } from "zod";
import { describeIssues } from "../../contract/issues";
import type { ClientCache } from "./clients";
import { choiceOf } from "./namedAccounts";
import { isUnknown } from "./unknowns";

export interface CheckFailure {
  property: string;
  reason: string;
}
export interface CheckResult {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
}

/** Keys the engine or the dynamic provider host own; never validated, always passed through. */
const RESERVED = /^__/;

/**
 * The engine prints a failure's property value next to its reason, so failures of secret fields are reported
 * without a property (the reason still names the field) and the value never reaches a log.
 */
export function checkFields(shape: Record<string, z.ZodType>, news: Record<string, unknown>, secretFields: readonly string[] = []): CheckResult {
  const inputs: Record<string, unknown> = {};
  const failures: CheckFailure[] = [];
  for (const [key, value] of Object.entries(news)) {
    if (RESERVED.test(key)) inputs[key] = value;
    else if (!(key in shape)) failures.push({ property: key, reason: `unknown property "${key}"; expected one of: ${Object.keys(shape).join(", ")}` });
  }
  for (const [key, schema] of Object.entries(shape)) {
    const value = news[key];
    if (isUnknown(value)) {
      inputs[key] = value;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) {
      if (parsed.data !== undefined) inputs[key] = parsed.data;
    } else {
      failures.push({ property: secretFields.includes(key) ? "" : key, reason: describeIssues(parsed.error.issues, { path: [key] }) });
    }
  }
  return { inputs, failures };
}

/**
 * Adds a failure for each field required of a create (`requiredOnCreate`: optional in the schema only because
 * `pulumi import` cannot read it back) that a create's inputs lack. `olds` empty is a create; an imported resource
 * has the inputs its read gave. A secret field is named in the reason only, never as the property (as checkFields).
 */
export function checkRequiredOnCreate(
  result: CheckResult,
  fields: Record<string, { requiredOnCreate?: boolean; description: string }>,
  olds: Record<string, unknown>,
  secretFields: readonly string[] = [],
): void {
  if (Object.keys(olds).length > 0) return;
  for (const [key, field] of Object.entries(fields)) {
    if (!field.requiredOnCreate || result.inputs[key] !== undefined || result.failures.some((f) => f.property === key || f.reason.startsWith(`${key}:`)))
      continue;
    result.failures.push({ property: secretFields.includes(key) ? "" : key, reason: `${key}: required when the resource is created (${field.description})` });
  }
}

/**
 * Adds a failure when the account the resource would use cannot be resolved (missing stack config, an `account`
 * name the provider does not know), so `pulumi preview` reports it instead of the first create failing halfway
 * through an `up`. A failure about a named account names the `account` property (a name, never a secret).
 */
export function checkConnection(result: CheckResult, connections: Pick<ClientCache, "connectionProblem">): void {
  const { connection, account } = result.inputs;
  if (isUnknown(connection) || isUnknown(account)) return;
  if (result.failures.some((f) => f.reason.startsWith("connection") || f.reason.startsWith("account"))) return;
  if (account !== undefined && connection !== undefined) {
    result.failures.push({
      property: "account",
      reason: "account: set `account` or `connection`, not both (`connection` is deprecated: name the account in the provider's `accounts`)",
    });
    return;
  }
  const message = connections.connectionProblem(choiceOf(result.inputs));
  if (!message) return;
  result.failures.push(account !== undefined ? { property: "account", reason: `account: ${message}` } : { property: "", reason: `connection: ${message}` });
}
