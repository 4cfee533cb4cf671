/**
 * A Read request read from its bytes with its two Structs (the state and the inputs) as plain values straight from
 * the wire (plainStructs.ts), the rest of the message by google-protobuf as any request. The request is a
 * provproto.ReadRequest like any other: its Structs are built from their bytes only if something asks for them
 * (getProperties, getInputs, serializeBinary). A Read's handler takes the plain values with readProperties and
 * readInputs, the same values as getProperties()?.toJavaScript() gives. Bytes that are not the common case are
 * read by google-protobuf alone, as before.
 */
import { BinaryReader } from "google-protobuf";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { NotPlain, plainOrUndefined, readStruct, WireReader } from "./plainStructs";
import type { Props } from "./properties";

/** ReadRequest's fields that hold a Struct: `properties = 3`, `inputs = 4`. */
const PROPERTIES = 3;
const INPUTS = 4;

interface PlainStruct {
  /** The Struct's bytes, until something asks for the message. */
  bytes: Buffer | undefined;
  /** The plain value, until the message is changed. */
  plain: Props | undefined;
}

/** A ReadRequest whose Structs were read as plain values; each Struct message is built at its first use. */
class PlainReadRequest extends provproto.ReadRequest {
  constructor(
    readonly plainProperties: PlainStruct,
    readonly plainInputs: PlainStruct,
  ) {
    super();
  }

  override getProperties(): structproto.Struct | undefined {
    this.build(this.plainProperties, (struct) => super.setProperties(struct));
    return super.getProperties();
  }
  override setProperties(value?: structproto.Struct): provproto.ReadRequest {
    this.plainProperties.bytes = this.plainProperties.plain = undefined;
    return super.setProperties(value);
  }
  override clearProperties(): provproto.ReadRequest {
    return this.setProperties(undefined);
  }
  override hasProperties(): boolean {
    return this.plainProperties.bytes !== undefined || super.hasProperties();
  }

  override getInputs(): structproto.Struct | undefined {
    this.build(this.plainInputs, (struct) => super.setInputs(struct));
    return super.getInputs();
  }
  override setInputs(value?: structproto.Struct): provproto.ReadRequest {
    this.plainInputs.bytes = this.plainInputs.plain = undefined;
    return super.setInputs(value);
  }
  override clearInputs(): provproto.ReadRequest {
    return this.setInputs(undefined);
  }
  override hasInputs(): boolean {
    return this.plainInputs.bytes !== undefined || super.hasInputs();
  }

  private build(field: PlainStruct, set: (struct: structproto.Struct) => void): void {
    if (field.bytes === undefined) return;
    const bytes = field.bytes;
    field.bytes = undefined;
    set(structproto.Struct.deserializeBinary(bytes));
  }
}

/** The request in `bytes`, as provproto.ReadRequest.deserializeBinary reads it (errors included). */
export function decodeReadRequest(bytes: Uint8Array): provproto.ReadRequest {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const split = plainOrUndefined(() => splitStructs(buf));
  if (!split) return provproto.ReadRequest.deserializeBinary(bytes);
  const request = new PlainReadRequest(split.properties, split.inputs);
  provproto.ReadRequest.deserializeBinaryFromReader(request, new BinaryReader(split.rest));
  return request;
}

/** The state a Read request carries, as getProperties()?.toJavaScript() ?? {} gives it. */
export function readProperties(request: provproto.ReadRequest): Props {
  if (request instanceof PlainReadRequest && request.plainProperties.plain) return takePlain(request.plainProperties);
  return (request.getProperties()?.toJavaScript() ?? {}) as Props;
}

/** The inputs a Read request carries, as getInputs()?.toJavaScript() ?? {} gives them. */
export function readInputs(request: provproto.ReadRequest): Props {
  if (request instanceof PlainReadRequest && request.plainInputs.plain) return takePlain(request.plainInputs);
  return (request.getInputs()?.toJavaScript() ?? {}) as Props;
}

/** The plain value, handed out once (the caller may change it; a second call builds a fresh one from the message). */
function takePlain(field: PlainStruct): Props {
  const plain = field.plain!;
  field.plain = undefined;
  return plain;
}

/**
 * The request's Structs as plain values and its other fields' bytes, in their order. Each Struct field at most once
 * (google-protobuf keeps the last of several: left to it).
 */
function splitStructs(buf: Buffer): { properties: PlainStruct; inputs: PlainStruct; rest: Buffer } {
  const reader = new WireReader(buf);
  const pieces: Buffer[] = [];
  const properties: PlainStruct = { bytes: undefined, plain: undefined };
  const inputs: PlainStruct = { bytes: undefined, plain: undefined };
  while (!reader.done) {
    const fieldStart = reader.pos;
    const tag = reader.varint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 0) throw new NotPlain();
    if (field === PROPERTIES || field === INPUTS) {
      const into = field === PROPERTIES ? properties : inputs;
      if (wireType !== 2 || into.bytes !== undefined) throw new NotPlain();
      const [start, end] = reader.delimited();
      into.plain = readStruct(buf, start, end);
      into.bytes = buf.subarray(start, end);
    } else {
      reader.skip(wireType);
      pieces.push(buf.subarray(fieldStart, reader.pos));
    }
  }
  return { properties, inputs, rest: Buffer.concat(pieces) };
}
