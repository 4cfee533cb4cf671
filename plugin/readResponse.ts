/**
 * A Read's answer with its two Structs (the state and the inputs) written straight as bytes (structBytes.ts), the
 * same bytes google-protobuf writes for `new ReadResponse().setId(id).setProperties(toStruct(properties))
 * .setInputs(toStruct(inputs))`. It is a provproto.ReadResponse like any other: a Struct message is built only if
 * something asks for it (its getter, toObject). A value structBytes leaves to toStruct makes the answer as before.
 */
import type * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { toStruct } from "./answers";
import { plainOrUndefined, WireReader } from "./plainStructs";
import type { Props } from "./properties";
import { structBytes } from "./structBytes";

/** ReadResponse's Structs: `properties = 2`, `inputs = 3`. */
const PROPERTIES = 2;
const INPUTS = 3;

interface WrittenStruct {
  value: Props;
  bytes: Buffer;
}

const base = provproto.ReadResponse.prototype;

class WrittenReadResponse extends provproto.ReadResponse {
  /** The Structs written as bytes by field number, until something asks for the message or sets another. */
  private readonly written = new Map<number, WrittenStruct>();
  /** While google-protobuf writes the other fields: a written Struct is left out (its getter gives nothing), not built. */
  private writingOthers = false;

  constructor(id: string, properties: WrittenStruct, inputs: WrittenStruct) {
    super();
    this.setId(id);
    this.written.set(PROPERTIES, properties).set(INPUTS, inputs);
  }

  override getProperties(): structproto.Struct | undefined {
    this.build(PROPERTIES, (struct) => base.setProperties.call(this, struct));
    return super.getProperties();
  }
  override setProperties(value?: structproto.Struct): provproto.ReadResponse {
    this.written.delete(PROPERTIES);
    return super.setProperties(value);
  }
  override clearProperties(): provproto.ReadResponse {
    return this.setProperties(undefined);
  }
  override hasProperties(): boolean {
    return this.written.has(PROPERTIES) || super.hasProperties();
  }

  override getInputs(): structproto.Struct | undefined {
    this.build(INPUTS, (struct) => base.setInputs.call(this, struct));
    return super.getInputs();
  }
  override setInputs(value?: structproto.Struct): provproto.ReadResponse {
    this.written.delete(INPUTS);
    return super.setInputs(value);
  }
  override clearInputs(): provproto.ReadResponse {
    return this.setInputs(undefined);
  }
  override hasInputs(): boolean {
    return this.written.has(INPUTS) || super.hasInputs();
  }

  /** google-protobuf's bytes of the other fields, with the written Structs put in field order among them. */
  override serializeBinary(): Uint8Array {
    if (this.written.size === 0) return super.serializeBinary();
    this.writingOthers = true;
    let others: Buffer;
    try {
      others = Buffer.from(super.serializeBinary());
    } finally {
      this.writingOthers = false;
    }
    const pieces = plainOrUndefined(() => fieldPieces(others));
    // google-protobuf wrote something this reader does not take apart: every Struct as a message, then its bytes.
    if (!pieces) {
      this.getProperties();
      this.getInputs();
      return super.serializeBinary();
    }
    for (const [field, { bytes }] of this.written) pieces.push({ field, bytes: Buffer.concat([lengthDelimitedTag(field, bytes.length), bytes]) });
    // Stable: google-protobuf writes fields in ascending order, and so do these.
    pieces.sort((a, b) => a.field - b.field);
    return Buffer.concat(pieces.map((piece) => piece.bytes));
  }

  private build(field: number, set: (struct: structproto.Struct) => void): void {
    const written = this.written.get(field);
    if (!written || this.writingOthers) return;
    this.written.delete(field);
    set(toStruct(written.value));
  }
}

/** A length-delimited field's tag and length. */
function lengthDelimitedTag(field: number, length: number): Buffer {
  const bytes = [(field << 3) | 2];
  let n = length;
  while (n >= 0x80) {
    bytes.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** A message's bytes, field by field. */
function fieldPieces(buf: Buffer): { field: number; bytes: Buffer }[] {
  const reader = new WireReader(buf);
  const pieces: { field: number; bytes: Buffer }[] = [];
  while (!reader.done) {
    const start = reader.pos;
    const tag = reader.varint32();
    reader.skip(tag & 7);
    pieces.push({ field: tag >>> 3, bytes: buf.subarray(start, reader.pos) });
  }
  return pieces;
}

/** The answer of a Read that found its object: its id, state and inputs (secrets already wrapped). */
export function readResponse(id: string, properties: Props, inputs: Props): provproto.ReadResponse {
  const propertiesBytes = structBytes(properties);
  const inputsBytes = propertiesBytes && structBytes(inputs);
  if (!propertiesBytes || !inputsBytes) return new provproto.ReadResponse().setId(id).setProperties(toStruct(properties)).setInputs(toStruct(inputs));
  return new WrittenReadResponse(id, { value: properties, bytes: propertiesBytes }, { value: inputs, bytes: inputsBytes });
}
