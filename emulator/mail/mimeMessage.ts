/**
 * Reads a received message (RFC 5322 + MIME) into what the mailbox shows: headers, subject, addresses and the
 * decoded text or HTML body. It covers what a mail library writes for notification mail: UTF-8, 7bit/8bit,
 * quoted-printable and base64 bodies, RFC 2047 encoded words in headers, and multipart/alternative or /mixed
 * (the first text/plain and text/html parts). Written here rather than taking a MIME parser dependency: the sink
 * only reads what the emulator's own sender wrote, and the decoder is independent code from that sender.
 * Multipart nesting is bounded (MAX_MIME_DEPTH): a deeper message is refused with MimeDepthError rather than
 * recursing as deep as the sender likes.
 */

/**
 * Multipart containers nested in one another, at most. Mail libraries write two or three (mixed > related >
 * alternative); ten leaves room for forwarded messages and keeps the decoder's recursion (and its re-splitting of
 * the body at every level) bounded.
 */
export const MAX_MIME_DEPTH = 10;

export class MimeDepthError extends Error {
  constructor() {
    super(`MIME parts nested deeper than ${MAX_MIME_DEPTH} levels of multipart`);
    this.name = "MimeDepthError";
  }
}

export interface ParsedMessage {
  /** Header names lowercased; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  cc: string;
  replyTo: string;
  messageId: string;
  /** X-Priority: "1 (Highest)", "3 (Normal)", "5 (Lowest)". */
  priority: string;
  text?: string;
  html?: string;
}

export function parseMessage(raw: Buffer | string): ParsedMessage {
  const { headers, body } = splitEntity(typeof raw === "string" ? raw : raw.toString("latin1"));
  const parsed: ParsedMessage = {
    headers,
    subject: headers.subject ?? "",
    from: headers.from ?? "",
    to: headers.to ?? "",
    cc: headers.cc ?? "",
    replyTo: headers["reply-to"] ?? "",
    messageId: headers["message-id"] ?? "",
    priority: headers["x-priority"] ?? "",
  };
  collectBodies(headers, body, parsed, 0);
  return parsed;
}

/** Headers (unfolded, encoded words decoded) and the raw body of one entity. Works on latin1 text so bytes survive. */
function splitEntity(entity: string): { headers: Record<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(entity);
  const head = match ? entity.slice(0, match.index) : entity;
  const body = match ? entity.slice(match.index + match[0].length) : "";
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = decodeWords(utf8(line.slice(colon + 1).trim()));
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { headers, body };
}

/** `depth`: how many multipart containers enclose this entity. */
function collectBodies(headers: Record<string, string>, body: string, out: ParsedMessage, depth: number): void {
  const type = (headers["content-type"] ?? "text/plain").toLowerCase();
  if (type.startsWith("multipart/")) {
    if (depth >= MAX_MIME_DEPTH) throw new MimeDepthError();
    const boundary = /boundary="?([^";]+)"?/i.exec(headers["content-type"] ?? "")?.[1];
    if (!boundary) return;
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith("--")) break;
      const entity = splitEntity(part.replace(/^\r?\n/, ""));
      collectBodies(entity.headers, entity.body, out, depth + 1);
    }
    return;
  }
  const content = decodeBody(body, headers["content-transfer-encoding"]);
  if (type.startsWith("text/html")) out.html ??= content;
  else if (type.startsWith("text/plain")) out.text ??= content;
}

function decodeBody(body: string, encoding = "7bit"): string {
  switch (encoding.trim().toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return decodeQuotedPrintable(body);
    default:
      return utf8(body).replace(/\r\n/g, "\n").replace(/\n$/, "");
  }
}

function decodeQuotedPrintable(body: string): string {
  const softBreaksRemoved = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksRemoved.length; i++) {
    const c = softBreaksRemoved[i] as string;
    const hex = softBreaksRemoved.slice(i + 1, i + 3);
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(c.charCodeAt(0) & 0xff);
    }
  }
  return Buffer.from(bytes).toString("utf8").replace(/\r\n/g, "\n").replace(/\n$/, "");
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`); whitespace between two adjacent words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

/** latin1 text (one char per byte) back to the UTF-8 it carries. */
function utf8(latin1: string): string {
  return Buffer.from(latin1, "latin1").toString("utf8");
}
