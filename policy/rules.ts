/**
 * The pack's rules as plain functions of a resource's inputs: each returns the violation's message, or undefined when
 * the resource keeps the rule. No message ever quotes a secret (a signing secret is only checked for presence).
 * index.ts registers them with @pulumi/policy.
 */
import type { SvcType } from "./resources";

export type Props = Record<string, unknown>;

/** Stacks whose name starts with "prod" (prod, prod-eu, production). */
export const isProdStack = (stack: string): boolean => /^prod/i.test(stack);

/** An ADMIN app token in a prod* stack must expire: `expiry` a unix time, not 0 (never). */
export function adminTokenExpiry(type: SvcType, props: Props, stack: string): string | undefined {
  if (type !== "AppToken" || !isProdStack(stack) || props.sessionType !== "ADMIN") return undefined;
  const expiry = props.expiry;
  if (typeof expiry === "number" && expiry > 0) return undefined;
  return `an ADMIN app token in stack ${stack} must expire: set expiry to a unix time (it is ${expiry === undefined ? "not set" : String(expiry)}, which never expires)`;
}

/** Loopback hosts, where a plain http webhook never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** A webhook's URL is https, or http to a loopback address (local testing). */
export function webhookHttps(type: SvcType, props: Props): string | undefined {
  if (type !== "HttpNotificationTemplate" || props.url === undefined) return undefined;
  const url = typeof props.url === "string" && URL.canParse(props.url) ? new URL(props.url) : undefined;
  if (url?.protocol === "https:") return undefined;
  if (url?.protocol === "http:" && isLoopback(url.hostname)) return undefined;
  const shown = url ? `${url.protocol}//${url.host}` : "a value that is not a URL";
  return `webhook URLs must be https outside loopback (this one is ${shown})`;
}

/** Every webhook template declares its signing secret, so receivers can verify deliveries. */
export function templateSignSecret(type: SvcType, props: Props): string | undefined {
  if (type !== "HttpNotificationTemplate") return undefined;
  const secret = props.signSecret;
  if (typeof secret === "string" && secret !== "") return undefined;
  return "every webhook template must declare signSecret (from a secret config value), so receivers can verify its deliveries";
}

/** An email template's fromEmail is in one of the allowed domains (the pack's config); none allowed refuses every one. */
export function emailFromDomain(type: SvcType, props: Props, allowedDomains: readonly string[]): string | undefined {
  if (type !== "EmailNotificationTemplate" || props.fromEmail === undefined) return undefined;
  const parts = String(props.fromEmail).split("@");
  // One "@" and a domain after it: anything else is not an address (and no domain can vouch for it).
  const domain = parts.length === 2 && parts[0] !== "" ? parts[1]!.toLowerCase() : undefined;
  const allowed = allowedDomains.map((d) => d.toLowerCase());
  if (domain && allowed.includes(domain)) return undefined;
  if (allowed.length === 0) return "email fromEmail must be in an allowed domain, and none is configured: set allowedDomains in the pack's config";
  return `email fromEmail must be in an allowed domain (${allowed.join(", ")}); ${domain ? `this one is in ${domain}` : "this one is not an address with a domain"}`;
}
