/**
 * The one rule that keeps `user:password@` of a URL out of text that leaves a process: every error message, log
 * line, event and diagnostic of the sdk (through redact()), the provider, the plugin and the emulator. A base URL or a
 * webhook URL may carry credentials in its userinfo; the host is enough to say where something went.
 */

/**
 * A URL's scheme, then its userinfo up to the last `@` before the host ends (`/`, `?`, `#`, whitespace, a quote):
 * a password may itself hold an unencoded `@`, which WHATWG parsing also takes as part of the userinfo.
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'`<>\\]*@/gi;

/** `text` with the userinfo of every URL in it removed: `https://u:p@host/x` becomes `https://host/x`. */
export function stripUserinfo(text: string): string {
  return text.replace(USERINFO, "$1");
}
