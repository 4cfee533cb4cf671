/**
 * The shared process's connections to the engine's log service (plugin/engineLogPool.ts): the connections attached to
 * one engine address share one http2 connection to it, each line still on its own resource's URN, and that
 * connection closes when the last of them closes. The pool's leases on their own first, then on the wire against a
 * fake engine (node:http2, counting its sessions) with two providers of two accounts.
 */
import * as http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { DEFINITIONS } from "../../../provider/definitions";
import { EngineLog } from "../../../plugin/engineLog";
import { EngineLogPool } from "../../../plugin/engineLogPool";
import { frame, GRPC_CONTENT_TYPE, unframe } from "../../../plugin/grpcWire";
import { resourceRuntime } from "../../../plugin/resourceRuntime";
import { serveShared, type SharedServer } from "../../../plugin/sharedServer";
import * as sdk from "../../../sdk";
import { APP_TOKEN, checkRequest, configureRequest, createRequest, secret, urnOf, WIRE_PLUGIN_VERSION } from "./wireHarness";

describe("EngineLogPool", () => {
  /** A pool whose logs are real EngineLogs (to nowhere: none is called), recording which it opened and closed. */
  const recordingPool = () => {
    const opened: string[] = [];
    const closed: string[] = [];
    const pool = new EngineLogPool((address) => {
      opened.push(address);
      const log = new EngineLog(address);
      const close = log.close.bind(log);
      log.close = () => {
        closed.push(address);
        close();
      };
      return log;
    });
    return { pool, opened, closed };
  };

  it("leases one log per address, and closes it at the end of its last lease", () => {
    const { pool, opened, closed } = recordingPool();
    const [a1, a2, b] = [pool.lease("127.0.0.1:1"), pool.lease("127.0.0.1:1"), pool.lease("127.0.0.1:2")];
    expect(a1.log).toBe(a2.log);
    expect(b.log).not.toBe(a1.log);
    expect(opened).toEqual(["127.0.0.1:1", "127.0.0.1:2"]);
    a1.release();
    a1.release(); // a second release of the same lease ends nothing more
    expect(closed).toEqual([]);
    a2.release();
    expect(closed).toEqual(["127.0.0.1:1"]);
    expect(pool.addresses()).toEqual(["127.0.0.1:2"]);
    // A lease after the last one ended opens the address again.
    const again = pool.lease("127.0.0.1:1");
    expect(again.log).not.toBe(a1.log);
    expect(opened).toEqual(["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:1"]);
    again.release();
    b.release();
    expect(pool.addresses()).toEqual([]);
  });
});

/** A `pulumirpc.Engine` on node:http2 that records the lines it is sent and counts the connections it is dialed on. */
async function fakeEngine() {
  const lines: { urn: string; message: string }[] = [];
  let sessions = 0;
  let openSessions = 0;
  const server = http2.createServer();
  server.on("session", (session) => {
    sessions++;
    openSessions++;
    session.on("close", () => openSessions--);
  });
  server.on("stream", (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      if (headers[":path"] === "/pulumirpc.Engine/Log") {
        const request = engproto.LogRequest.deserializeBinary(unframe(Buffer.concat(chunks)));
        lines.push({ urn: request.getUrn(), message: request.getMessage() });
      }
      stream.respond({ ":status": 200, "content-type": GRPC_CONTENT_TYPE }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      stream.end(frame(new Uint8Array()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    lines,
    sessions: () => sessions,
    openSessions: () => openSessions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Client = provrpc.ResourceProviderClient;

describe("the shared process's connections to the engine's log service", () => {
  let emulator: RunningEmulator;
  let engine: Awaited<ReturnType<typeof fakeEngine>>;
  let shared: SharedServer;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    engine = await fakeEngine();
    shared = await serveShared(
      (session, version) => resourceRuntime(DEFINITIONS, session, version),
      WIRE_PLUGIN_VERSION,
      () => sdk,
    );
  });
  afterAll(async () => {
    await shared?.stop();
    await engine?.close();
    await emulator?.close();
  });

  const call = <T>(client: Client, method: string, request: unknown) =>
    new Promise<T>((resolve, reject) => {
      const unary = (client as unknown as Record<string, (req: unknown, cb: (e: grpc.ServiceError | null, r: T) => void) => void>)[method];
      unary?.call(client, request, (error, response) => (error ? reject(error) : resolve(response)));
    });
  /** A provider instance as the engine makes one: its own connection, attached, configured for an account of its own. */
  const provider = async () => {
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${shared.port}`, grpc.credentials.createInsecure(), {
      "grpc.use_local_subchannel_pool": 1,
    });
    const partner = emulator.ctx.createPartner();
    await call(client, "attach", new plugproto.PluginAttach().setAddress(engine.address));
    await call(client, "configure", configureRequest({ baseUrl: emulator.baseUrl, partnerId: partner.id, adminSecret: secret(partner.adminSecret) }));
    return client;
  };
  const createToken = async (client: Client, name: string) => {
    const checked = await call<provproto.CheckResponse>(client, "check", checkRequest(APP_TOKEN, { description: name }));
    const request = createRequest(APP_TOKEN, checked.getInputs()?.toJavaScript() ?? {}, { name });
    return call<provproto.CreateResponse>(client, "create", request);
  };
  const summariesOn = (name: string) => engine.lines.filter((line) => line.urn === urnOf(APP_TOKEN, name) && line.message.startsWith("create:"));

  it("share one connection to the engine, each line on its own resource, closed with the last of them", { timeout: 30_000 }, async () => {
    const [first, second] = [await provider(), await provider()];
    await Promise.all([createToken(first, "first"), createToken(second, "second")]);
    // Each create's summary ("create: N API requests, ...") is on its own URN, sent before its answer.
    expect(summariesOn("first")).toHaveLength(1);
    expect(summariesOn("second")).toHaveLength(1);
    expect(engine.sessions()).toBe(1);

    // One provider's end leaves the connection to the other's lines.
    first.close();
    await expect.poll(() => shared.connectionsServed()).toBe(2);
    await createToken(second, "second again");
    expect(summariesOn("second again")).toHaveLength(1);
    expect(engine.sessions()).toBe(1);

    // The last one's end closes it.
    second.close();
    await expect.poll(() => engine.openSessions(), { timeout: 10_000 }).toBe(0);
  });
});
