/**
 * The one rule for the platform's base URL (the api_v3 root), read by every connection check: the sdk client's
 * options, the provider's `connection` input and its stack-config resolver. An http(s) URL; a trailing slash is
 * ignored.
 */
import { z } from "zod";

export const BASE_URL_EXPECTATION = "an http(s) URL such as https://host/api_v3";

export const BaseUrl = z.url({ protocol: /^https?$/, error: `must be ${BASE_URL_EXPECTATION}` });
export type BaseUrl = z.infer<typeof BaseUrl>;

export function isBaseUrl(value: string): boolean {
  return BaseUrl.safeParse(value).success;
}

/** The form calls are built on: no trailing slash, so `baseUrl + "/service/..."` has one. */
export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "");
}
