/**
 * gRPC's wire format over HTTP/2, the part both ends of the plugin speak (its server, grpcServer.ts, and its call to
 * the engine's log service, grpcUnaryCall.ts), per https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md:
 * each message is a 5-byte prefix (a compressed flag, then the length, big-endian) and the protobuf bytes; a call
 * ends with trailers `grpc-status` (a code below) and `grpc-message` (percent-encoded text). No compression: neither
 * the engine nor the plugin asks for it, and a compressed message is refused.
 */

/** The status codes the plugin sends or reads (https://grpc.github.io/grpc/core/md_doc_statuscodes.html). */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  FAILED_PRECONDITION: 9,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

export const GRPC_CONTENT_TYPE = "application/grpc+proto";
const PREFIX_BYTES = 5;

/**
 * A failed call as a handler reports it: the status code, the text the peer reads (`details`, as grpc-js names it),
 * and optionally a serialized `google.rpc.Status` sent as `grpc-status-details-bin` (the engine reads a partial
 * create's id and properties from there).
 */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    readonly statusDetails?: Uint8Array,
  ) {
    super(details);
    this.name = "GrpcError";
  }
}

/** One message as it goes on the wire: its 5-byte prefix, then its bytes. */
export function frame(message: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(PREFIX_BYTES + message.length);
  framed.writeUInt8(0, 0);
  framed.writeUInt32BE(message.length, 1);
  framed.set(message, PREFIX_BYTES);
  return framed;
}

/**
 * The one message of a unary call's body (all its DATA frames, joined): a GrpcError if the body is not exactly one
 * uncompressed message.
 */
export function unframe(body: Buffer): Uint8Array {
  if (body.length < PREFIX_BYTES) throw new GrpcError(Status.INTERNAL, "a unary call carries exactly one message; none came");
  if (body.readUInt8(0) !== 0) throw new GrpcError(Status.UNIMPLEMENTED, "compressed messages are not supported by pulumi-resource-svc");
  const length = body.readUInt32BE(1);
  if (body.length !== PREFIX_BYTES + length)
    throw new GrpcError(Status.INTERNAL, `a unary call carries exactly one message; got ${body.length} bytes for a message of ${length}`);
  return body.subarray(PREFIX_BYTES);
}

/** The length a message's prefix announces, once the first 5 bytes are in (to refuse an oversized one early). */
export function announcedLength(firstBytes: Buffer): number | undefined {
  return firstBytes.length >= PREFIX_BYTES ? firstBytes.readUInt32BE(1) : undefined;
}

/**
 * `grpc-message`'s encoding: grpc-js encodes it with encodeURI and decodes it with decodeURI, which every conforming
 * peer reads (the spec's percent-encoding of what is outside printable ASCII, and of `%`). A lone surrogate (which
 * encodeURI refuses) becomes U+FFFD first.
 */
export function encodeGrpcMessage(text: string): string {
  return encodeURI(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"));
}

export function decodeGrpcMessage(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
