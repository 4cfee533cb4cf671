/**
 * The plugin's gRPC server, on node:http2 alone: every call of Pulumi's provider protocol is unary (List, the one
 * streaming method, is answered UNIMPLEMENTED), so the server is small. Loading grpc-js instead costs each plugin
 * process about 17 MiB and 50 ms of CPU before its first Configure (docs/plugin.md, "What one process costs").
 *
 * A call: the request's headers (POST, the method's path, content-type application/grpc...), its body (one message,
 * 5-byte prefixed, grpcWire.ts); the answer: headers, one message, trailers `grpc-status: 0`; or, on an error,
 * headers and trailers in one block (gRPC's "trailers-only" answer) with the status, its text and any details.
 * A peer that resets its stream (the engine's client cancelled, or it went away) gets no answer: the handler runs to
 * its end and its answer is dropped. A request larger than the limit is refused as it arrives, before it is held.
 * A deadline (`grpc-timeout`) is the caller's to keep: its client resets the stream when the deadline passes.
 */
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { announcedLength, encodeGrpcMessage, frame, GRPC_CONTENT_TYPE, GrpcError, Status, unframe } from "./grpcWire";

/** One method as the server runs it: the request read from its bytes, handled, the answer's bytes (or an error). */
export interface ServedMethod {
  handle(request: Uint8Array, answer: (error: Error | null, response?: Uint8Array) => void): void;
}

export interface GrpcServerOptions {
  /** The largest request message taken, in bytes (RESOURCE_EXHAUSTED above it). */
  maxReceiveMessageBytes: number;
}

export interface RunningGrpcServer {
  port: number;
  /** Stops taking connections and lets the calls in flight answer (graceful: each connection gets a GOAWAY). */
  close(): Promise<void>;
}

/** Serves `methods` (by path, e.g. `/pulumirpc.ResourceProvider/Check`) on 127.0.0.1, on a port of the system's. */
export async function serveGrpc(methods: ReadonlyMap<string, ServedMethod>, options: GrpcServerOptions): Promise<RunningGrpcServer> {
  // Session memory: node's default (10 MiB) refuses new streams while a large request is buffered; grpc-js lifts it too.
  const server = http2.createServer({ maxSessionMemory: Number.MAX_SAFE_INTEGER });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
    // A peer's protocol error ends its connection only; the process and the other connections go on.
    session.on("error", () => session.destroy());
  });
  server.on("stream", (stream, headers) => serveCall(stream, headers, methods, options));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.close();
      }),
  };
}

function serveCall(
  stream: http2.ServerHttp2Stream,
  headers: http2.IncomingHttpHeaders,
  methods: ReadonlyMap<string, ServedMethod>,
  options: GrpcServerOptions,
) {
  // A reset by the peer (RST_STREAM) surfaces as an error of the stream: its answer is dropped, the server goes on.
  stream.on("error", () => {});
  const path = headers[":path"] ?? "";
  const contentType = String(headers["content-type"] ?? "");
  if (headers[":method"] !== "POST" || !contentType.startsWith("application/grpc")) {
    // Not a gRPC call at all: HTTP's own answer (as the spec says: 415 for another content type).
    if (!stream.destroyed) stream.respond({ ":status": headers[":method"] !== "POST" ? 405 : 415 }, { endStream: true });
    return;
  }
  const method = methods.get(path);
  const chunks: Buffer[] = [];
  let received = 0;
  let refused = false;
  let announced: number | undefined;
  const refuse = (reason: string) => {
    refused = true;
    chunks.length = 0;
    answer(stream, new GrpcError(Status.RESOURCE_EXHAUSTED, reason));
  };
  stream.on("data", (chunk: Buffer) => {
    if (refused) return;
    received += chunk.length;
    chunks.push(chunk);
    announced ??= announcedLength(chunks.length === 1 ? chunk : Buffer.concat(chunks));
    if (announced !== undefined && announced > options.maxReceiveMessageBytes)
      refuse(`Received message larger than max (${announced} vs. ${options.maxReceiveMessageBytes})`);
    else if (received > options.maxReceiveMessageBytes + 5) refuse(`Received more than one message of at most ${options.maxReceiveMessageBytes} bytes`);
  });
  stream.on("end", () => {
    if (refused) return;
    if (!method) return answer(stream, new GrpcError(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`));
    let request: Uint8Array;
    try {
      request = unframe(Buffer.concat(chunks, received));
    } catch (error) {
      return answer(stream, error as Error);
    }
    try {
      method.handle(request, (error, response) => answer(stream, error, response));
    } catch (error) {
      answer(stream, error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** The answer of one call: the response message with status OK, or the error's status; nothing to a closed stream. */
function answer(stream: http2.ServerHttp2Stream, error: Error | null, response?: Uint8Array): void {
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  if (error || !response) {
    const status = error instanceof GrpcError ? error : new GrpcError(Status.UNKNOWN, error?.message ?? "the handler gave no answer");
    const trailers: http2.OutgoingHttpHeaders = {
      ":status": 200,
      "content-type": GRPC_CONTENT_TYPE,
      "grpc-status": String(status.code),
      "grpc-message": encodeGrpcMessage(status.details),
    };
    if (status.statusDetails) trailers["grpc-status-details-bin"] = Buffer.from(status.statusDetails).toString("base64");
    stream.respond(trailers, { endStream: true });
    return;
  }
  stream.respond({ ":status": 200, "content-type": GRPC_CONTENT_TYPE }, { waitForTrailers: true });
  stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(Status.OK) }));
  stream.end(frame(response));
}
