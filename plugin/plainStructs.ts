/**
 * A google.protobuf.Struct read straight from its protobuf bytes into the plain value Struct.toJavaScript() gives
 * (keys in sorted order, the last of a repeated key winning), without google-protobuf's message objects: a refresh
 * reads two Structs per resource (the state and the inputs of each Read), and building the messages, then the
 * plain values from them, was a tenth of a Read's CPU in the plugin (docs/bench.md). Only the common case is read
 * here; anything else (bytes that are not a well-formed Struct, a Value with no kind or more than one, a key
 * `__proto__`, text that is not UTF-8, a field google-protobuf would skip) gives undefined, and the caller decodes
 * the usual way, so what a handler sees never depends on which way ran.
 */
import { isUtf8 } from "node:buffer";

/** Too deep to be a state: left to google-protobuf (which has its own limits), so this never overflows the stack. */
const MAX_DEPTH = 64;

/** A mismatch with the common case: the caller falls back to google-protobuf. */
export class NotPlain extends Error {}

/** A reader of protobuf's wire format over one buffer (https://protobuf.dev/programming-guides/encoding/). */
export class WireReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end: number = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** A varint of at most 32 significant bits (tags, lengths, enums, bools): anything longer is not the common case. */
  varint32(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.pos >= this.end) throw new NotPlain();
      const byte = this.buf[this.pos++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) {
        if (value > 0x7fffffff) throw new NotPlain();
        return value;
      }
    }
    throw new NotPlain();
  }

  /** The bounds of a length-delimited field's bytes, the reader moved past them. */
  delimited(): [number, number] {
    const length = this.varint32();
    const start = this.pos;
    if (start + length > this.end) throw new NotPlain();
    this.pos = start + length;
    return [start, this.pos];
  }

  text(): string {
    const [start, end] = this.delimited();
    const { buf } = this;
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (buf[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    // Text beyond ASCII is checked first: google-protobuf's decoding of bytes that are not UTF-8 is its own.
    if (!ascii && !isUtf8(buf.subarray(start, end))) throw new NotPlain();
    return buf.toString(ascii ? "latin1" : "utf8", start, end);
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new NotPlain();
    const value = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return value;
  }

  /** Past a field of any wire type but the deprecated groups. */
  skip(wireType: number): void {
    if (wireType === 0) this.varint64();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.delimited();
    else if (wireType === 5) this.pos += 4;
    else throw new NotPlain();
    if (this.pos > this.end) throw new NotPlain();
  }

  private varint64(): void {
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new NotPlain();
      if (this.buf[this.pos++]! < 0x80) return;
    }
    throw new NotPlain();
  }
}

/** Runs `read`; undefined when the bytes are not the common case. */
export function plainOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
}

/** The Struct in buf[start, end) as Struct.toJavaScript() would give it; throws NotPlain for the uncommon case. */
export function readStruct(buf: Buffer, start: number, end: number, depth = 0): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new NotPlain();
  const reader = new WireReader(buf, start, end);
  const keys: string[] = [];
  const values: unknown[] = [];
  let sorted = true;
  while (!reader.done) {
    const tag = reader.varint32();
    // Struct has one field: `map<string, Value> fields = 1`, each entry a message { key = 1, value = 2 }.
    if (tag !== ((1 << 3) | 2)) throw new NotPlain();
    const [entryStart, entryEnd] = reader.delimited();
    const entry = new WireReader(buf, entryStart, entryEnd);
    let key: string | undefined;
    let value: unknown;
    let hasValue = false;
    while (!entry.done) {
      const entryTag = entry.varint32();
      if (entryTag === ((1 << 3) | 2) && key === undefined) key = entry.text();
      else if (entryTag === ((2 << 3) | 2) && !hasValue) {
        const [valueStart, valueEnd] = entry.delimited();
        value = readValue(buf, valueStart, valueEnd, depth + 1);
        hasValue = true;
      } else throw new NotPlain();
    }
    if (key === undefined || !hasValue || key === "__proto__") throw new NotPlain();
    if (keys.length > 0 && !(keys[keys.length - 1]! < key)) sorted = false;
    keys.push(key);
    values.push(value);
  }
  // google-protobuf's map gives its entries in sorted key order, the last of a repeated key winning.
  const result: Record<string, unknown> = {};
  if (sorted) {
    for (let i = 0; i < keys.length; i++) result[keys[i]!] = values[i];
    return result;
  }
  const last = new Map<string, unknown>();
  for (let i = 0; i < keys.length; i++) last.set(keys[i]!, values[i]);
  for (const key of [...last.keys()].sort()) result[key] = last.get(key);
  return result;
}

/** A google.protobuf.Value with exactly one kind set. */
function readValue(buf: Buffer, start: number, end: number, depth: number): unknown {
  const reader = new WireReader(buf, start, end);
  if (reader.done) throw new NotPlain();
  const tag = reader.varint32();
  let value: unknown;
  switch (tag) {
    case (1 << 3) | 0: // null_value (any enum number is NULL_VALUE's kind)
      reader.varint32();
      value = null;
      break;
    case (2 << 3) | 1: // number_value
      value = reader.double();
      break;
    case (3 << 3) | 2: // string_value
      value = reader.text();
      break;
    case (4 << 3) | 0: // bool_value
      value = reader.varint32() !== 0;
      break;
    case (5 << 3) | 2: {
      // struct_value
      const [s, e] = reader.delimited();
      value = readStruct(buf, s, e, depth + 1);
      break;
    }
    case (6 << 3) | 2: {
      // list_value: `repeated Value values = 1`
      const [s, e] = reader.delimited();
      const list = new WireReader(buf, s, e);
      const items: unknown[] = [];
      while (!list.done) {
        if (list.varint32() !== ((1 << 3) | 2)) throw new NotPlain();
        const [itemStart, itemEnd] = list.delimited();
        items.push(readValue(buf, itemStart, itemEnd, depth + 1));
      }
      value = items;
      break;
    }
    default:
      throw new NotPlain();
  }
  if (!reader.done) throw new NotPlain();
  return value;
}
