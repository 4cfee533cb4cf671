/**
 * The base URL rule (baseUrl.ts) as a zod schema, for the sdk client's options and the provider's `connection` input:
 * zod's `z.url` with the rule's protocol pattern, so its JSON schema says `format: uri`. isBaseUrl (baseUrl.ts) is the
 * same check without zod; test/contract/baseUrl.test.ts holds the two to one table of values.
 */
import { z } from "zod";
import { BASE_URL_EXPECTATION, BASE_URL_PROTOCOL } from "./baseUrl";

export const BaseUrl = z.url({ protocol: BASE_URL_PROTOCOL, error: `must be ${BASE_URL_EXPECTATION}` });
export type BaseUrl = z.infer<typeof BaseUrl>;
