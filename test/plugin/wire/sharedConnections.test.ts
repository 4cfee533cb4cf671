/**
 * The shared mode on the wire (plugin/sharedServer.ts, in this process): each connection is its own provider. Two
 * clients on connections of their own (as the engine dials one per provider instance) configured for two accounts
 * create in their own account; Cancel on one leaves the other working; a connection that was never configured is
 * refused the methods that act on an account instead of falling back on the environment's.
 */
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { DEFINITIONS } from "../../../provider/definitions";
import { serveShared, type SharedServer } from "../../../plugin/sharedServer";
import { APP_TOKEN, checkRequest, configureRequest, createRequest, empty, secret, WIRE_PLUGIN_VERSION } from "./wireHarness";

type Client = provrpc.ResourceProviderClient;

describe("the shared process: one provider per connection", () => {
  let emulator: RunningEmulator;
  let shared: SharedServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    shared = await serveShared(DEFINITIONS, WIRE_PLUGIN_VERSION);
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
});
