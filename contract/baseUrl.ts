/**
 * The one rule for the platform's base URL (the api_v3 root), read by every connection check: the sdk client's
 * options, the provider's `connection` input and its settings resolver. An http(s) URL; a trailing slash is
 * ignored. Plain http is refused outside loopback unless the caller opted in (insecureHttpProblem): every call
 * carries a credential (the admin secret, an app token's hash, a session string).
 */
import { z } from "zod";
import { isLoopbackHost } from "./webhookUrl";

export const BASE_URL_EXPECTATION = "an http(s) URL such as https://host/api_v3";

/** The shape only; whether plain http may be used is insecureHttpProblem's to say (it needs the opt-in). */
export const BaseUrl = z.url({ protocol: /^https?$/, error: `must be ${BASE_URL_EXPECTATION}` });
export type BaseUrl = z.infer<typeof BaseUrl>;

export function isBaseUrl(value: string): boolean {
  return BaseUrl.safeParse(value).success;
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
