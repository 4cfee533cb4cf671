/**
 * The v2 session string (ks), built and opened exactly as the real platform does (docs/emulator.md, Sessions):
 *   base64url("v2|" + partnerId + "|" + AES-128-CBC(key = sha1(adminSecret)[0..16], IV = 16 zero bytes,
 *             zero-byte padding; plaintext = sha1(rand16 + fields) + rand16 + fields))
 * where fields is a query string of the privileges plus `_e` (expiry, unix seconds), `_t` (type), `_u` (user id).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { SessionType } from "../../contract/platform";

export interface KsFields {
  partnerId: number;
  type: SessionType;
  userId: string;
  /** Unix seconds. */
  expiry: number;
  privileges: Record<string, string>;
}

const RESERVED = new Set(["_e", "_t", "_u"]);
const IV = Buffer.alloc(16);

const sha1 = (data: Buffer | string): Buffer => createHash("sha1").update(data).digest();
const keyOf = (adminSecret: string): Buffer => sha1(adminSecret).subarray(0, 16);

export function encodeKs(adminSecret: string, f: KsFields, rand: Buffer = randomBytes(16)): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f.privileges)) if (!RESERVED.has(k)) q.append(k, v);
  q.append("_e", String(f.expiry));
  q.append("_t", String(f.type));
  q.append("_u", f.userId);
  const body = Buffer.concat([rand, Buffer.from(q.toString(), "utf8")]);
  const plain = Buffer.concat([sha1(body), body]);
  const padded = Buffer.concat([plain, Buffer.alloc((16 - (plain.length % 16)) % 16)]);
  const cipher = createCipheriv("aes-128-cbc", keyOf(adminSecret), IV);
  cipher.setAutoPadding(false);
  const encrypted = Buffer.concat([cipher.update(padded), cipher.final()]);
  return Buffer.concat([Buffer.from(`v2|${f.partnerId}|`, "utf8"), encrypted]).toString("base64url");
}

/** Reads the partner id from the clear header of a v2 ks, or undefined when the string is not one. */
export function ksPartnerId(ks: string): number | undefined {
  const raw = fromBase64(ks);
  if (!raw) return undefined;
  const header = raw.subarray(0, 32).toString("latin1");
  const m = /^v2\|(\d+)\|/.exec(header);
  return m ? Number(m[1]) : undefined;
}

/** Decrypts and checks a v2 ks; undefined when it is garbled or its sha1 does not match. Expiry is not checked here. */
export function decodeKs(ks: string, adminSecret: string): KsFields | undefined {
  const raw = fromBase64(ks);
  if (!raw) return undefined;
  const m = /^v2\|(\d+)\|/.exec(raw.subarray(0, 32).toString("latin1"));
  if (!m) return undefined;
  const encrypted = raw.subarray(m[0].length);
  if (encrypted.length === 0 || encrypted.length % 16 !== 0) return undefined;
  let plain: Buffer;
  try {
    const decipher = createDecipheriv("aes-128-cbc", keyOf(adminSecret), IV);
    decipher.setAutoPadding(false);
    plain = Buffer.concat([decipher.update(encrypted), decipher.final()]);
  } catch {
    return undefined;
  }
  let end = plain.length;
  while (end > 0 && plain[end - 1] === 0) end--;
  if (end < 36) return undefined;
  const signature = plain.subarray(0, 20);
  const body = plain.subarray(20, end);
  if (!sha1(body).equals(signature)) return undefined;
  const q = new URLSearchParams(body.subarray(16).toString("utf8"));
  const type = Number(q.get("_t"));
  const expiry = Number(q.get("_e"));
  if ((type !== SessionType.USER && type !== SessionType.ADMIN) || !Number.isFinite(expiry)) return undefined;
  const privileges: Record<string, string> = {};
  for (const [k, v] of q) if (!RESERVED.has(k)) privileges[k] = v;
  return { partnerId: Number(m[1]), type, userId: q.get("_u") ?? "", expiry, privileges };
}

function fromBase64(ks: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_\-+/]+=*$/.test(ks)) return undefined;
  return Buffer.from(ks.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), "base64url");
}

/** "a,b:c" -> {a: "", b: "c"}; the privileges string form the platform takes and shows. */
export function parsePrivileges(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? "").split(",")) {
    const item = part.trim();
    if (!item) continue;
    const i = item.indexOf(":");
    if (i < 0) out[item] = "";
    else out[item.slice(0, i)] = item.slice(i + 1);
  }
  return out;
}

export function formatPrivileges(p: Record<string, string>): string {
  return Object.entries(p)
    .map(([k, v]) => (v === "" ? k : `${k}:${v}`))
    .join(",");
}

/** A non-secret fingerprint of a ks: names it in args and keys the ended-session table. */
export function ksFingerprint(ks: string): string {
  return createHash("sha256").update(ks).digest("hex");
}
