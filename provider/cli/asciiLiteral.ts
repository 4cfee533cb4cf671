/**
 * Values written into generated code, and untrusted text shown in a message, as printable ASCII only. JSON.stringify
 * escapes quotes, backslashes and control characters; what it leaves raw (U+2028/U+2029, which end a line comment,
 * bidirectional overrides that make code read differently from what it does, any other non-ASCII character) is
 * escaped here too, so a literal can never end a line, a comment or a string early, and a reviewer sees what runs.
 */

const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/g;

/** JSON text of `value` with every character outside printable ASCII as a \uXXXX escape (valid JSON and TypeScript). */
export function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new Error(`asciiJson: ${typeof value} has no JSON form`);
  return json.replace(NOT_PRINTABLE_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A TypeScript literal for a value read from the platform: strings, finite numbers, booleans, and arrays and plain
 * objects of those. Anything else (undefined inside an array, NaN, a class instance) has no faithful literal.
 */
export function tsLiteral(value: unknown): string {
  assertLiteral(value, "value");
  return asciiJson(value);
}

function assertLiteral(value: unknown, path: string): void {
  if (typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number" && Number.isFinite(value)) return;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) assertLiteral(item, `${path}[${i}]`);
    return;
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) assertLiteral(item, `${path}.${key}`);
    return;
  }
  throw new Error(`${path} cannot be written as a literal (${value === null ? "null" : typeof value})`);
}

/** Text for a line comment: as is when it is printable ASCII (nothing in it can end the comment), else quoted and escaped. */
export function commentText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : asciiJson(text);
}

/** A value from the platform shown in a message: quoted, escaped, and cut after `max` characters. */
export function untrusted(text: string, max = 60): string {
  const chars = Array.from(text);
  if (chars.length <= max) return asciiJson(text);
  return `${asciiJson(chars.slice(0, max).join(""))}... (${chars.length} characters)`;
}

/** A value from the platform in a line of output: as is when it is short printable ASCII, else as `untrusted` shows it. */
export function displayed(text: string, max = 60): string {
  return text.length <= max && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(text) ? text : untrusted(text, max);
}

/**
 * A double-quoted string literal, printable ASCII only, that Python, Go and YAML all read back as `text`: `\"`, `\\`,
 * `\n`, `\r`, `\t`, `\uXXXX` for other characters of the Basic Multilingual Plane and `\UXXXXXXXX` above it (the three
 * languages read a JSON-style surrogate pair as two invalid characters, so JSON's escapes do not serve here). Text with
 * a lone surrogate has no such literal and is refused (the takeover grammar refuses it before this).
 */
export function quotedCodePoints(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code >= 0x20 && code <= 0x7e) out += char;
    else if (code >= 0xd800 && code <= 0xdfff) throw new Error(`${untrusted(text)} holds a lone surrogate: it has no literal`);
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}
