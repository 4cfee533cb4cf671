/** Which URLs a webhook template may point at (the template schemas of the contract apply it). */

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]", "::1"]);

/** A loopback host: localhost, ::1 or 127.0.0.0/8. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The spec wants an HTTPS endpoint. Plain http is accepted only on a loopback address, so a receiver on this
 * machine can be tested against the local emulator; the real platform could not reach it anyway.
 */
export function isAllowedWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

export const WEBHOOK_URL_EXPECTATION = "an https:// URL (plain http only on a loopback address such as http://127.0.0.1)";
