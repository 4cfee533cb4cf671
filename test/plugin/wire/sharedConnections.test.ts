/**
 * The shared mode on the wire (plugin/sharedServer.ts, in this process): each connection is its own provider. Two
 * clients on connections of their own (as the engine dials one per provider instance) configured for two accounts
 * create in their own account; Cancel on one leaves the other working; a connection that was never configured is
 * refused the methods that act on an account instead of falling back on the environment's; a connection that closes
 * with a create in flight (the engine's second Ctrl-C) rolls it back as a process's SIGINT does, and only its own.
 */
import * as http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { DEFINITIONS } from "../../../provider/definitions";
import { frame, GRPC_CONTENT_TYPE } from "../../../plugin/grpcWire";
import { PROVIDER_METHODS } from "../../../plugin/providerMethods";
import { resourceRuntime } from "../../../plugin/resourceRuntime";
import { serveShared, type SharedServer } from "../../../plugin/sharedServer";
import * as sdk from "../../../sdk";
import { APP_TOKEN, checkRequest, configureRequest, createRequest, empty, secret, WIRE_PLUGIN_VERSION } from "./wireHarness";

type Client = provrpc.ResourceProviderClient;

describe("the shared process: one provider per connection", () => {
  let emulator: RunningEmulator;
  let shared: SharedServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    shared = await serveShared(
      (session, version) => resourceRuntime(DEFINITIONS, session, version),
      WIRE_PLUGIN_VERSION,
      () => sdk,
    );
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await shared.stop();
    await emulator.close();
  });

  /** A client on a connection of its own (grpc-js shares one per address unless told not to). */
  const connect = (): Client => {
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${shared.port}`, grpc.credentials.createInsecure(), {
      "grpc.use_local_subchannel_pool": 1,
    });
    clients.push(client);
    return client;
  };
  const call = <T>(client: Client, method: string, request: unknown) =>
    new Promise<T>((resolve, reject) => {
      const unary = (client as unknown as Record<string, (req: unknown, cb: (e: grpc.ServiceError | null, r: T) => void) => void>)[method];
      unary?.call(client, request, (error, response) => (error ? reject(error) : resolve(response)));
    });
  const newAccount = () => {
    const p = emulator.ctx.createPartner();
    return { partnerId: p.id, settings: { baseUrl: emulator.baseUrl, partnerId: p.id, adminSecret: secret(p.adminSecret) } };
  };
  const createToken = async (client: Client, description: string) => {
    const checked = await call<provproto.CheckResponse>(client, "check", checkRequest(APP_TOKEN, { description }));
    return call<provproto.CreateResponse>(client, "create", createRequest(APP_TOKEN, checked.getInputs()?.toJavaScript() ?? {}));
  };
  const descriptionsOn = (partnerId: number) =>
    emulator.ctx.store
      .listDocs<{ status: number; description: string }>("appToken", partnerId)
      .filter((d) => d.status === 2)
      .map((d) => d.description);

  it("refuses an unconfigured connection's resource calls, naming why", async () => {
    const before = shared.connectionsServed();
    const client = connect();
    await expect(call(client, "check", checkRequest(APP_TOKEN, { description: "nobody's" }))).rejects.toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      details: expect.stringContaining("was not configured"),
    });
    expect(shared.connectionsServed()).toBe(before + 1);
  });

  it("serves each connection's own account, and Cancel on one leaves the others working", async () => {
    const [one, two] = [newAccount(), newAccount()];
    const [first, second] = [connect(), connect()];
    await call(first, "configure", configureRequest(one.settings));
    await call(second, "configure", configureRequest(two.settings));
    await Promise.all([createToken(first, "first's"), createToken(second, "second's")]);
    expect(descriptionsOn(one.partnerId)).toEqual(["first's"]);
    expect(descriptionsOn(two.partnerId)).toEqual(["second's"]);

    await call(first, "cancel", empty());
    await expect(createToken(first, "after cancel")).rejects.toBeDefined();
    await createToken(second, "second's again");
    expect(descriptionsOn(one.partnerId)).toEqual(["first's"]);
    expect(descriptionsOn(two.partnerId).sort()).toEqual(["second's", "second's again"]);
  });

  it("a connection closed with a create in flight rolls back what it made, and leaves the other connections' creates", { timeout: 30_000 }, async () => {
    const [closing, staying] = [newAccount(), newAccount()];
    const kept = connect();
    await call(kept, "configure", configureRequest(staying.settings));
    await createToken(kept, "kept");
    // A connection of its own, on node:http2 so that the test can drop it as the engine does (no goodbye).
    const session = http2.connect(`http://127.0.0.1:${shared.port}`);
    session.on("error", () => {});
    const unary = (path: string, message: Uint8Array) => {
      const stream = session.request({ ":method": "POST", ":path": path, "content-type": GRPC_CONTENT_TYPE, te: "trailers" });
      stream.on("error", () => {});
      stream.resume();
      stream.end(frame(message));
      return new Promise<void>((resolve) => stream.on("close", () => resolve()));
    };
    await unary(PROVIDER_METHODS.configure.path, configureRequest(closing.settings).serializeBinary());
    // The platform makes the token, then answers 20 s late: the create is in flight when the connection goes.
    emulator.ctx.traffic.setFaults(closing.partnerId, { next: ["slow"], slowMs: 20_000, pathIncludes: "/appToken/action/add" });
    void unary(PROVIDER_METHODS.create.path, createRequest(APP_TOKEN, { description: "in flight" }).serializeBinary());
    await expect.poll(() => descriptionsOn(closing.partnerId), { timeout: 10_000 }).toEqual(["in flight"]);
    session.destroy();
    await expect.poll(() => descriptionsOn(closing.partnerId), { timeout: 15_000 }).toEqual([]);
    expect(descriptionsOn(staying.partnerId)).toEqual(["kept"]);
    await createToken(kept, "kept after");
    expect(descriptionsOn(staying.partnerId).sort()).toEqual(["kept", "kept after"]);
  });
});
