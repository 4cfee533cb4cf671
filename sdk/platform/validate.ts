/** zod validation with errors that name the field: inputs before a call, responses after it. */
import type { z } from "zod";
import { describeIssues } from "../../contract/issues";
import { SvcResponseError, SvcValidationError } from "../core/errors";

/** Validate caller input; throws SvcValidationError("appTokens.add: x is required") before any call. */
export function validateInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SvcValidationError(`${where}: ${describeIssues(result.error.issues, { input: value, max: 3 })}`);
}

/** Validate a response body; throws SvcResponseError("appToken.get response: hashType is required"). */
export function validateResponse<S extends z.ZodType>(schema: S, value: unknown, label: { service: string; action: string; requestId?: string }): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SvcResponseError(`${label.service}.${label.action} response: ${describeIssues(result.error.issues, { input: value, max: 3 })}`, label);
}
