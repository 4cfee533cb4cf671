/**
 * What a setting's value may be, as data (the settings table gives each setting one rule, settings.ts), and the
 * check of a value against it without zod: the plugin checks its settings at Configure before it loads zod. The zod
 * schema of each setting (the `connection` input's fields, their JSON schema) is made from the same rule
 * (connectionInput.ts); test/provider/settingRules.test.ts holds the two to one table of good and bad values.
 */
import { isBaseUrl } from "../../contract/baseUrl";

export type ValueRule =
  /** An http(s) URL (contract/baseUrl.ts). */
  | { readonly kind: "url" }
  /** Text of at least one character. */
  | { readonly kind: "text" }
  /** One of these texts. */
  | { readonly kind: "oneOf"; readonly options: readonly [string, ...string[]] }
  /** A whole number from `min`, up to `max` when given. */
  | { readonly kind: "whole"; readonly min: number; readonly max?: number }
  | { readonly kind: "boolean" };

/** The value a rule admits, as a TypeScript type. */
export type ValueOf<R extends ValueRule> = R extends { kind: "oneOf"; options: readonly (infer O)[] }
  ? O
  : R extends { kind: "whole" }
    ? number
    : R extends { kind: "boolean" }
      ? boolean
      : string;

/** Whether `value` follows `rule` (the values as the `connection` input takes them: numbers as numbers). */
export function followsRule(rule: ValueRule, value: unknown): boolean {
  switch (rule.kind) {
    case "url":
      return isBaseUrl(value);
    case "text":
      return typeof value === "string" && value.length >= 1;
    case "oneOf":
      return typeof value === "string" && rule.options.includes(value);
    case "whole":
      return Number.isInteger(value) && (value as number) >= rule.min && (rule.max === undefined || (value as number) <= rule.max);
    case "boolean":
      return typeof value === "boolean";
  }
}
