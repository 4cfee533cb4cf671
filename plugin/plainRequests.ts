/**
 * The requests a refresh sends once per resource (Read, then Diff) read from their bytes with their Structs as plain
 * values straight from the wire (plainStructs.ts), the rest of each message by google-protobuf as any request. A
 * request is its protocol class like any other: a Struct message is built from its bytes only if something asks
 * for it (its getter, serializeBinary, toObject). Handlers take the plain values with `plainStruct`, the same values
 * as the getter's toJavaScript() gives. Bytes that are not the common case are read by google-protobuf alone.
 */
import { BinaryReader, type Message } from "google-protobuf";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { NotPlain, plainOrUndefined, readStruct, WireReader } from "./plainStructs";
import type { Props } from "./properties";

interface PlainStruct {
  /** The Struct's bytes, until something asks for the message. */
  bytes: Buffer | undefined;
  /** The plain value, until it is handed out or the message is changed. */
  plain: Props | undefined;
}

/** A request class's Struct fields: field number -> the name of its accessors (`Properties`: getProperties...). */
type StructFields = Readonly<Record<number, string>>;

interface MessageClass<M extends Message> {
  new (): M;
  deserializeBinary(bytes: Uint8Array): M;
  deserializeBinaryFromReader(message: M, reader: BinaryReader): M;
}

/** A request read here: its Structs by field number. */
interface WithPlainStructs {
  plainStructs: Map<number, PlainStruct>;
}

/** `Base` with the Struct fields' accessors building each message from its bytes at its first use. */
function plainClass<M extends Message>(Base: MessageClass<M>, fields: StructFields): new (structs: Map<number, PlainStruct>) => M & WithPlainStructs {
  const Plain = class extends (Base as unknown as new () => object) {
    constructor(readonly plainStructs: Map<number, PlainStruct>) {
      super();
    }
  };
  const base = Base.prototype as unknown as Record<string, (this: Message, ...args: unknown[]) => unknown>;
  for (const [number, name] of Object.entries(fields)) {
    const field = Number(number);
    const get = base[`get${name}`]!;
    const set = base[`set${name}`]!;
    const has = base[`has${name}`]!;
    Object.defineProperties(Plain.prototype, {
      [`get${name}`]: {
        value(this: Message & WithPlainStructs) {
          const struct = this.plainStructs.get(field);
          if (struct?.bytes !== undefined) {
            const bytes = struct.bytes;
            struct.bytes = undefined;
            set.call(this, structproto.Struct.deserializeBinary(bytes));
          }
          return get.call(this);
        },
      },
      [`set${name}`]: {
        value(this: Message & WithPlainStructs, value: unknown) {
          this.plainStructs.delete(field);
          return set.call(this, value);
        },
      },
      [`clear${name}`]: {
        value(this: Message & WithPlainStructs) {
          this.plainStructs.delete(field);
          return set.call(this, undefined);
        },
      },
      [`has${name}`]: {
        value(this: Message & WithPlainStructs) {
          return this.plainStructs.get(field)?.bytes !== undefined || has.call(this);
        },
      },
    });
  }
  return Plain as unknown as new (
    structs: Map<number, PlainStruct>,
  ) => M & WithPlainStructs;
}

/** A reader of `Base`'s bytes, as Base.deserializeBinary reads them (errors included). */
function plainReader<M extends Message>(Base: MessageClass<M>, fields: StructFields): (bytes: Uint8Array) => M {
  const Plain = plainClass(Base, fields);
  const numbers = new Set(Object.keys(fields).map(Number));
  return (bytes) => {
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const split = plainOrUndefined(() => splitStructs(buf, numbers));
    if (!split) return Base.deserializeBinary(bytes);
    const request = new Plain(split.structs);
    Base.deserializeBinaryFromReader(request, new BinaryReader(split.rest));
    return request;
  };
}

/**
 * The plain value of the Struct at `field` of `request`, as `message()?.toJavaScript() ?? {}` gives it (`message` is
 * the field's getter, for a request not read here or a Struct already built). Handed out once: the caller may change it.
 */
export function plainStruct(request: Message, field: number, message: () => structproto.Struct | undefined): Props {
  const struct = (request as Partial<WithPlainStructs>).plainStructs?.get(field);
  if (struct?.plain) {
    const plain = struct.plain;
    struct.plain = undefined;
    return plain;
  }
  return (message()?.toJavaScript() ?? {}) as Props;
}

/** The Structs at `fields` as plain values (each at most once: google-protobuf keeps the last of several, left to it) and the other fields' bytes. */
function splitStructs(buf: Buffer, fields: ReadonlySet<number>): { structs: Map<number, PlainStruct>; rest: Buffer } {
  const reader = new WireReader(buf);
  const pieces: Buffer[] = [];
  const structs = new Map<number, PlainStruct>();
  while (!reader.done) {
    const fieldStart = reader.pos;
    const tag = reader.varint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 0) throw new NotPlain();
    if (fields.has(field)) {
      if (wireType !== 2 || structs.has(field)) throw new NotPlain();
      const [start, end] = reader.delimited();
      structs.set(field, { plain: readStruct(buf, start, end), bytes: buf.subarray(start, end) });
    } else {
      reader.skip(wireType);
      pieces.push(buf.subarray(fieldStart, reader.pos));
    }
  }
  return { structs, rest: Buffer.concat(pieces) };
}

/** ReadRequest's Structs: `properties = 3` (the state), `inputs = 4`. */
export const READ_FIELDS = { properties: 3, inputs: 4 } as const;
/** DiffRequest's Structs: `olds = 3` (the state), `news = 4`, `old_inputs = 6`. */
export const DIFF_FIELDS = { olds: 3, news: 4, oldInputs: 6 } as const;

export const decodeReadRequest = plainReader(provproto.ReadRequest, { [READ_FIELDS.properties]: "Properties", [READ_FIELDS.inputs]: "Inputs" });
export const decodeDiffRequest = plainReader(provproto.DiffRequest, {
  [DIFF_FIELDS.olds]: "Olds",
  [DIFF_FIELDS.news]: "News",
  [DIFF_FIELDS.oldInputs]: "OldInputs",
});
