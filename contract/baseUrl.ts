/**
 * The one rule for the platform's base URL (the api_v3 root), read by every connection check: the sdk client's
 * options, the provider's `connection` input and its settings resolver. An http(s) URL; a trailing slash is
 * ignored. Plain http is refused outside loopback unless the caller opted in (insecureHttpProblem): every call
 * carries a credential (the admin secret, an app token's hash, a session string). Its zod schema, for the sdk's
 * options and the provider's `connection` input, is baseUrlSchema.ts.
 */
import { isLoopbackHost } from "./webhookUrl";

export const BASE_URL_EXPECTATION = "an http(s) URL such as https://host/api_v3";

/** The schemes a base URL may have (without the colon): zod's `z.url` takes the same pattern (baseUrlSchema.ts). */
export const BASE_URL_PROTOCOL = /^https?$/;

/**
 * The shape only (whether plain http may be used is insecureHttpProblem's to say: it needs the opt-in), checked
 * without zod, so that the plugin checks its settings at Configure without loading it. It is zod's `z.url` with
 * BASE_URL_PROTOCOL, step by step: the text trimmed, written `http://` or `https://` (any case), parsed by the
 * WHATWG URL parser, its scheme matching; baseUrlSchema.ts builds that zod schema and test/contract/baseUrl.test.ts
 * holds both to one table of good and bad values.
 */
export function isBaseUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const trimmed = value.trim();
  if (!/^https?:\/\//i.test(trimmed)) return false;
  const url = URL.parse(trimmed);
  return url !== null && BASE_URL_PROTOCOL.test(url.protocol.slice(0, -1));
}

/** The form calls are built on: no trailing slash, so `baseUrl + "/service/..."` has one. */
export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "");
}

/**
 * Why `baseUrl` may not be used, or undefined when it may: plain `http://` to a host outside loopback
 * (127.0.0.0/8, ::1, localhost) without the opt-in. `optIn` says how the caller opts in, in its own terms (an sdk
 * option, a stack setting). The URL is named by its origin, which never holds the userinfo.
 */
export function insecureHttpProblem(baseUrl: string, allowInsecureHttp: boolean, optIn: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined; // not a URL at all: the shape check (BaseUrl) says so
  }
  if (url.protocol !== "http:" || isLoopbackHost(url.hostname) || allowInsecureHttp) return undefined;
  return (
    `${url.origin} is plain http to a host outside loopback: the credentials every call carries (the admin secret, ` +
    `an app token's hash, a session string) would travel unencrypted, readable and changeable by anyone on the way. ` +
    `Use https://, or, only on a network you trust, opt in with ${optIn}`
  );
}
