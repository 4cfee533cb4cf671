/**
 * The one rule that keeps `user:password@` of a URL out of text that leaves a process: every error message, log
 * line, event and diagnostic of the sdk (through redact()), the provider, the plugin and the emulator. A base URL or a
 * webhook URL may carry credentials in its userinfo; the host is enough to say where something went.
 *
 * The userinfo is found by the URL parser's own rule (WHATWG URL, as `new URL` applies it), not by a pattern of
 * allowed characters: after `scheme://`, the authority runs to the first `/`, `?` or `#` (or `\` in a special
 * scheme such as http), and the userinfo is everything up to its last `@`. The parser accepts any character there
 * (`'`, `"`, a space, a backtick, `<`, `>`) and percent-encodes it, so this cuts them all. In free text that may also
 * cut words that follow a URL up to an e-mail address's `@` before the next `/`: more is cut, never less.
 * One pass over the text (linear in its length: a platform's answer may be megabytes).
 */

/** Schemes whose authority also ends at a backslash (WHATWG's special schemes). */
const SPECIAL_SCHEMES = new Set(["http", "https", "ws", "wss", "ftp", "file"]);

const isSchemeChar = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2d || code === 0x2e;

/** `text` with the userinfo of every URL in it removed: `https://u:p@host/x` becomes `https://host/x`. */
export function stripUserinfo(text: string): string {
  let out = "";
  let copied = 0;
  let from = 0;
  for (let marker = text.indexOf("://", from); marker >= 0; marker = text.indexOf("://", from)) {
    let schemeStart = marker;
    while (schemeStart > copied && isSchemeChar(text.charCodeAt(schemeStart - 1))) schemeStart--;
    const special = SPECIAL_SCHEMES.has(text.slice(schemeStart, marker).toLowerCase());
    const authorityStart = marker + 3;
    let end = authorityStart;
    let lastAt = -1;
    for (; end < text.length; end++) {
      const char = text[end];
      if (char === "/" || char === "?" || char === "#" || (special && char === "\\")) break;
      if (char === "@") lastAt = end;
    }
    if (lastAt >= 0) {
      out += text.slice(copied, authorityStart);
      copied = lastAt + 1;
    }
    // The authority may end at the `/` of a next URL's `://` ("at ftp://..."): look again from its colon.
    from = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
