/**
 * Unary gRPC calls from the plugin to one peer (the engine's log service, engineLog.ts) on node:http2, as the server
 * (grpcServer.ts) answers them: one connection, opened at the first call and again after it closes; each call a
 * stream with the request's message, ending at the peer's status or at its deadline (the stream is then reset).
 */
import * as http2 from "node:http2";
import { decodeGrpcMessage, frame, GRPC_CONTENT_TYPE, GrpcError, Status, unframe } from "./grpcWire";

export class GrpcUnaryCaller {
  private session?: http2.ClientHttp2Session;

  /** `address`: host:port, as the engine passes it to its plugins. */
  constructor(private readonly address: string) {}

  /** The response message's bytes, or a GrpcError (the peer's status, DEADLINE_EXCEEDED, or UNAVAILABLE). */
  call(path: string, request: Uint8Array, deadlineMs: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = this.connection().request({
          ":method": "POST",
          ":path": path,
          "content-type": GRPC_CONTENT_TYPE,
          te: "trailers",
          "grpc-timeout": `${Math.max(1, Math.ceil(deadlineMs))}m`,
        });
      } catch (error) {
        reject(new GrpcError(Status.UNAVAILABLE, error instanceof Error ? error.message : String(error)));
        return;
      }
      const timer = setTimeout(() => {
        reject(new GrpcError(Status.DEADLINE_EXCEEDED, `no answer from ${this.address} within ${deadlineMs} ms`));
        stream.close(http2.constants.NGHTTP2_CANCEL);
      }, deadlineMs);
      const chunks: Buffer[] = [];
      let status: number | undefined;
      let message = "";
      const takeStatus = (headers: http2.IncomingHttpHeaders) => {
        if (headers["grpc-status"] === undefined) return;
        status = Number(headers["grpc-status"]);
        message = decodeGrpcMessage(String(headers["grpc-message"] ?? ""));
      };
      stream.on("response", takeStatus);
      stream.on("trailers", takeStatus);
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error) => reject(new GrpcError(Status.UNAVAILABLE, error.message)));
      stream.on("close", () => {
        clearTimeout(timer);
        if (status === undefined) return reject(new GrpcError(Status.UNAVAILABLE, `${this.address} closed the call without a status`));
        if (status !== Status.OK) return reject(new GrpcError(status, message));
        try {
          resolve(unframe(Buffer.concat(chunks)));
        } catch (error) {
          reject(error);
        }
      });
      stream.end(frame(request));
    });
  }

  close(): void {
    this.session?.close();
    this.session = undefined;
  }

  private connection(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = http2.connect(`http://${this.address}`);
    // A failed connection fails the calls on it (their streams' errors); the next call opens a new one.
    session.on("error", () => {});
    session.on("close", () => {
      if (this.session === session) this.session = undefined;
    });
    // Calls in flight keep the process up; an idle connection to the engine does not.
    session.unref();
    this.session = session;
    return session;
  }
}
