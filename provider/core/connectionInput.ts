/**
 * How a resource reaches the platform. Usually from stack config (`svc:*`, read by the dynamic provider's
 * configure), with environment variables as fallback; a resource may pass an explicit `connection` to reach a
 * second account. Credentials are secrets: the resource wrappers wrap this object in pulumi.secret(). A connection
 * that names an account (baseUrl or partnerId) brings its own credentials: see connection.ts for the rules. Its
 * fields are the provider's settings (settings.ts) but the per-process ones, each optional.
 */
import { z } from "zod";
import { CONNECTION_KEYS, type ConnectionKey, SETTINGS } from "./settings";

type Shape = { [K in ConnectionKey]: z.ZodOptional<(typeof SETTINGS)[K]["schema"]> };

export const ConnectionInput = z.strictObject(Object.fromEntries(CONNECTION_KEYS.map((key) => [key, SETTINGS[key].schema.optional()])) as Shape);
export type ConnectionInput = z.infer<typeof ConnectionInput>;
