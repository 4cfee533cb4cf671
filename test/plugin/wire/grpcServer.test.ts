/**
 * The plugin's gRPC server (plugin/grpcServer.ts) against grpc-js's client, the implementation Pulumi's own Node
 * hosts use, on what the provider methods' tests do not reach: a status text outside ASCII, status details, an
 * oversized request refused as it arrives, a call the client cancels mid-way (the server goes on answering), a
 * request that is not gRPC, and a close that lets a call in flight answer.
 */
import * as http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningGrpcServer, type ServedMethod, serveGrpc } from "../../../plugin/grpcServer";
import { GrpcError, Status } from "../../../plugin/grpcWire";

const echo: ServedMethod = { handle: (request, answer) => answer(null, request) };

/** A method that answers when told to (`release`), to hold a call in flight. */
function held(): ServedMethod & { release(): void; started: Promise<void> } {
  let release = () => {};
  let started = () => {};
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  return {
    started: startedPromise,
    release: () => release(),
    handle(request, answer) {
      release = () => answer(null, request);
      started();
    },
  };
}

describe("the plugin's gRPC server, called by grpc-js", () => {
  let server: RunningGrpcServer | undefined;
  let client: grpc.Client | undefined;

  afterEach(async () => {
    client?.close();
    await server?.close();
  });

  async function start(methods: Record<string, ServedMethod>, maxReceiveMessageBytes = 1024) {
    server = await serveGrpc(new Map(Object.entries(methods)), { maxReceiveMessageBytes });
    client = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  }

  function call(path: string, request: Uint8Array, options: { onCall?: (call: grpc.ClientUnaryCall) => void } = {}) {
    return new Promise<{ error: grpc.ServiceError | null; value?: Buffer }>((resolve) => {
      const made = client!.makeUnaryRequest(
        path,
        (value: Uint8Array) => Buffer.from(value),
        (value: Buffer) => value,
        request,
        (error, value) => resolve({ error, value }),
      );
      options.onCall?.(made);
    });
  }

  it("answers a message, and an error's code, text (outside ASCII too) and details as sent", async () => {
    const details = new Uint8Array([0, 1, 2, 250, 255]);
    await start({
      "/t.S/Echo": echo,
      "/t.S/Fail": { handle: (_r, answer) => answer(new GrpcError(Status.UNKNOWN, "échec: 100% «raté»\nligne 2 \u{1F600}", details)) },
      "/t.S/Throw": {
        handle() {
          throw new Error("thrown");
        },
      },
    });
    const echoed = await call("/t.S/Echo", new Uint8Array([1, 2, 3]));
    expect(echoed.error).toBeNull();
    expect([...echoed.value!]).toEqual([1, 2, 3]);
    const failed = await call("/t.S/Fail", new Uint8Array());
    expect(failed.error?.code).toBe(grpc.status.UNKNOWN);
    expect(failed.error?.details).toBe("échec: 100% «raté»\nligne 2 \u{1F600}");
    const sentDetails = failed.error?.metadata.get("grpc-status-details-bin")[0] as Buffer | undefined;
    expect([...(sentDetails ?? [])]).toEqual([...details]);
    const thrown = await call("/t.S/Throw", new Uint8Array());
    expect(thrown.error?.code).toBe(grpc.status.UNKNOWN);
    expect(thrown.error?.details).toBe("thrown");
    const unknown = await call("/t.S/Nope", new Uint8Array());
    expect(unknown.error?.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(unknown.error?.details).toMatch(/\/t\.S\/Nope/);
  });

  it("refuses a request above the limit with RESOURCE_EXHAUSTED, and serves the next", async () => {
    await start({ "/t.S/Echo": echo }, 1024);
    const big = await call("/t.S/Echo", new Uint8Array(200_000));
    expect(big.error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(big.error?.details).toMatch(/larger than max \(200000 vs\. 1024\)/);
    const small = await call("/t.S/Echo", new Uint8Array(1024));
    expect(small.error).toBeNull();
    expect(small.value?.length).toBe(1024);
  });

  it("drops the answer of a call the client cancelled, and goes on serving", async () => {
    const slow = held();
    await start({ "/t.S/Slow": slow, "/t.S/Echo": echo });
    let cancel = () => {};
    const cancelled = call("/t.S/Slow", new Uint8Array([9]), { onCall: (made) => (cancel = () => made.cancel()) });
    await slow.started;
    cancel();
    expect((await cancelled).error?.code).toBe(grpc.status.CANCELLED);
    slow.release();
    const after = await call("/t.S/Echo", new Uint8Array([7]));
    expect([...after.value!]).toEqual([7]);
  });

  it("answers what is not gRPC with HTTP's own status", async () => {
    await start({ "/t.S/Echo": echo });
    const session = http2.connect(`http://127.0.0.1:${server!.port}`);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": "/t.S/Echo", "content-type": "application/json" });
        stream.on("response", (headers) => resolve(Number(headers[":status"])));
        stream.on("error", reject);
        stream.end("{}");
      });
      expect(status).toBe(415);
    } finally {
      session.close();
    }
  });

  it("closes gracefully: a call in flight still gets its answer", async () => {
    const slow = held();
    await start({ "/t.S/Slow": slow });
    const inFlight = call("/t.S/Slow", new Uint8Array([5]));
    await slow.started;
    const closed = server!.close();
    slow.release();
    const answered = await inFlight;
    expect(answered.error).toBeNull();
    expect([...answered.value!]).toEqual([5]);
    client!.close();
    await closed;
    server = undefined;
  });
});
