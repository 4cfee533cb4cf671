/**
 * A plain value written straight as the bytes of the google.protobuf.Struct that toStruct (answers.ts) builds, byte
 * for byte as google-protobuf serializes it (entries in sorted key order, each Value with its one kind), without
 * building the messages: a refresh answers two Structs per resource, and building then serializing them was the
 * largest part of a Read's own CPU in the plugin once its request was read from plain bytes (docs/bench.md). Two
 * walks: the first measures every message (a length comes before its bytes), the second writes into one buffer.
 * What is not the common case (an object that is not plain, a string with a lone surrogate, a key `__proto__`, a
 * BigInt) gives undefined: the caller builds the Struct as before (and gets its error, for a BigInt).
 */
import type { Props } from "./properties";

class NotCommon extends Error {}

/** The bytes of toStruct(value), or undefined for what only toStruct handles. */
export function structBytes(value: Props): Buffer | undefined {
  const plan: Plan = { sizes: [], keys: [], next: 0, nextKeys: 0 };
  let size: number;
  try {
    size = measureStruct(value, plan);
  } catch (error) {
    if (error instanceof NotCommon) return undefined;
    throw error;
  }
  const out = { buf: Buffer.allocUnsafe(size), pos: 0 };
  writeStruct(value, plan, out);
  return out.buf;
}

/** What the first walk found, in the order the second walk needs it: message and text sizes, each Struct's keys. */
interface Plan {
  sizes: number[];
  keys: string[][];
  next: number;
  nextKeys: number;
}

interface Out {
  buf: Buffer;
  pos: number;
}

const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);
/** A field of a message: its tag, its length, its bytes. */
const fieldSize = (size: number): number => 1 + varintSize(size) + size;

/** Left out of an object, null in a list (as JSON, as toStruct). */
const leftOut = (value: unknown): boolean => value === undefined || typeof value === "function" || typeof value === "symbol";

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/** google-protobuf writes a lone surrogate as its own three bytes, Node as U+FFFD's: left to google-protobuf. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textSize(text: string): number {
  if (LONE_SURROGATE.test(text)) throw new NotCommon();
  return Buffer.byteLength(text, "utf8");
}

function measureStruct(object: Record<string, unknown>, plan: Plan): number {
  const keys = Object.keys(object)
    .filter((key) => !leftOut(object[key]))
    .sort();
  plan.keys.push(keys);
  let size = 0;
  for (const key of keys) {
    if (key === "__proto__") throw new NotCommon();
    const slot = plan.sizes.length;
    const keyBytes = textSize(key);
    plan.sizes.push(0, keyBytes, 0);
    const valueBytes = measureValue(object[key], plan);
    const entry = fieldSize(keyBytes) + fieldSize(valueBytes);
    plan.sizes[slot] = entry;
    plan.sizes[slot + 2] = valueBytes;
    size += fieldSize(entry);
  }
  return size;
}

/** The size of a google.protobuf.Value holding `value`. */
function measureValue(value: unknown, plan: Plan): number {
  switch (typeof value) {
    case "string": {
      const bytes = textSize(value);
      plan.sizes.push(bytes);
      return fieldSize(bytes);
    }
    case "number":
      return Number.isFinite(value) ? 9 : 2;
    case "boolean":
      return 2;
    case "object": {
      if (value === null) return 2;
      const slot = plan.sizes.length;
      plan.sizes.push(0);
      let size = 0;
      if (Array.isArray(value)) {
        for (const item of value) {
          const itemSlot = plan.sizes.length;
          plan.sizes.push(0);
          const itemBytes = leftOut(item) ? 2 : measureValue(item, plan);
          plan.sizes[itemSlot] = itemBytes;
          size += fieldSize(itemBytes);
        }
      } else if (isPlainObject(value)) size = measureStruct(value as Record<string, unknown>, plan);
      else throw new NotCommon();
      plan.sizes[slot] = size;
      return fieldSize(size);
    }
    default:
      // A BigInt: toStruct's error. Left out (undefined, a function, a symbol) never gets here.
      throw new NotCommon();
  }
}

function writeVarint(out: Out, n: number): void {
  while (n >= 0x80) {
    out.buf[out.pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out.buf[out.pos++] = n;
}

function writeText(out: Out, text: string, bytes: number): void {
  writeVarint(out, bytes);
  out.pos += out.buf.write(text, out.pos, bytes, "utf8");
}

function writeStruct(object: Record<string, unknown>, plan: Plan, out: Out): void {
  for (const key of plan.keys[plan.nextKeys++]!) {
    const entry = plan.sizes[plan.next++]!;
    const keyBytes = plan.sizes[plan.next++]!;
    const valueBytes = plan.sizes[plan.next++]!;
    out.buf[out.pos++] = 0x0a; // fields = 1: the map entry
    writeVarint(out, entry);
    out.buf[out.pos++] = 0x0a; // key = 1
    writeText(out, key, keyBytes);
    out.buf[out.pos++] = 0x12; // value = 2
    writeVarint(out, valueBytes);
    writeValue(object[key], plan, out);
  }
}

/** A Value's fields: null_value = 1, number_value = 2, string_value = 3, bool_value = 4, struct_value = 5, list_value = 6. */
function writeValue(value: unknown, plan: Plan, out: Out): void {
  switch (typeof value) {
    case "string":
      out.buf[out.pos++] = 0x1a;
      writeText(out, value, plan.sizes[plan.next++]!);
      return;
    case "number":
      if (!Number.isFinite(value)) break;
      out.buf[out.pos++] = 0x11;
      // JSON writes -0 as 0.
      out.pos = out.buf.writeDoubleLE(value === 0 ? 0 : value, out.pos);
      return;
    case "boolean":
      out.buf[out.pos++] = 0x20;
      out.buf[out.pos++] = value ? 1 : 0;
      return;
    case "object": {
      if (value === null) break;
      const size = plan.sizes[plan.next++]!;
      if (Array.isArray(value)) {
        out.buf[out.pos++] = 0x32;
        writeVarint(out, size);
        for (const item of value) {
          out.buf[out.pos++] = 0x0a; // values = 1
          writeVarint(out, plan.sizes[plan.next++]!);
          writeValue(leftOut(item) ? null : item, plan, out);
        }
      } else {
        out.buf[out.pos++] = 0x2a;
        writeVarint(out, size);
        writeStruct(value as Record<string, unknown>, plan, out);
      }
      return;
    }
  }
  // null, a number that is not finite, left out in a list: NULL_VALUE.
  out.buf[out.pos++] = 0x08;
  out.buf[out.pos++] = 0x00;
}
