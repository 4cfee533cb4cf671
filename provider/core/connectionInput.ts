/**
 * How a resource reaches the platform. Usually from stack config (`svc:*`, read by the dynamic provider's
 * configure), with environment variables as fallback; a resource may pass an explicit `connection` to reach a
 * second account. Credentials are secrets: the resource wrappers wrap this object in pulumi.secret(). A connection
 * that names an account (baseUrl or partnerId) brings its own credentials: see connection.ts for the rules. Its
 * fields are the provider's settings (settings.ts) but the per-process ones, each optional, each the zod schema of
 * its setting's rule (settingRules.ts).
 */
import { z } from "zod";
import { BaseUrl } from "../../contract/baseUrlSchema";
import type { ValueOf, ValueRule } from "./settingRules";
import { CONNECTION_KEYS, type ConnectionKey, SETTINGS, type SettingKey } from "./settings";

/** The zod schema of a rule: what followsRule (settingRules.ts) checks, with zod's messages and JSON schema. */
export function schemaOf<R extends ValueRule>(rule: R): z.ZodType<ValueOf<R>> {
  return zodOf(rule) as unknown as z.ZodType<ValueOf<R>>;
}

function zodOf(rule: ValueRule): z.ZodType {
  switch (rule.kind) {
    case "url":
      return BaseUrl;
    case "text":
      return z.string().min(1);
    case "oneOf":
      return z.enum(rule.options);
    case "whole": {
      // From 1 as `positive()`: its message (">0") and JSON schema are the ones users have seen.
      const from = rule.min === 1 ? z.number().int().positive() : z.number().int().min(rule.min);
      return rule.max === undefined ? from : from.max(rule.max);
    }
    case "boolean":
      return z.boolean();
  }
}

/** A setting's zod schema. */
export const settingSchema = <K extends SettingKey>(key: K) => schemaOf(SETTINGS[key].value as (typeof SETTINGS)[K]["value"]);

type Shape = { [K in ConnectionKey]: z.ZodOptional<z.ZodType<ValueOf<(typeof SETTINGS)[K]["value"]>>> };

export const ConnectionInput = z.strictObject(Object.fromEntries(CONNECTION_KEYS.map((key) => [key, settingSchema(key).optional()])) as Shape);
export type ConnectionInput = z.infer<typeof ConnectionInput>;
