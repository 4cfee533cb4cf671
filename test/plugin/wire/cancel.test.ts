/**
 * The plugin's Cancel at the wire: SvcProviderServer driven directly (requests and replies as its gRPC server hands
 * them over, no engine, no socket), against the emulator in this process. Cancel arrives while a Create, an Update or a
 * Delete waits for the platform's answer (the emulator's `slow` fault commits, then holds the answer): each call
 * answers promptly, and a Create the platform committed deletes what it made (an answer the engine may lose at a
 * second Ctrl-C must record nothing). A Create past the operation deadline comes back as ErrorResourceInitFailed with
 * the id and the properties, its token value wrapped as a secret, so the engine records the object.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { type GrpcError, Status } from "../../../plugin/grpcWire";
import { SvcProviderServer } from "../../../plugin/server";
import { ProviderProcess } from "../../../provider/core/providerProcess";
import { DEFINITIONS } from "../../../provider/definitions";
import { SvcClient } from "../../../sdk";

const TOKEN_TYPE = "svc:index:AppToken";
const URN = `urn:pulumi:test::project::${TOKEN_TYPE}::cancelled`;
const SIG_KEY = "4dabf18193072939515e22adb298388d";

type Outcome = { error: GrpcError | null; value: unknown };

/** A unary call on the server, as its gRPC server makes it: the request in, the reply's error or value out. */
function unary<Req>(server: SvcProviderServer, method: "configure" | "check" | "create" | "update" | "delete" | "cancel", request: Req): Promise<Outcome> {
  return new Promise((resolve) => {
    const handler = (server as unknown as Record<string, (call: { request: Req }, callback: (error: unknown, value?: unknown) => void) => void>)[method]!;
    handler.call(server, { request }, (error, value) => resolve({ error: (error as Outcome["error"]) ?? null, value }));
  });
}

const struct = (value: Record<string, unknown>) => structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);

/** The ErrorResourceInitFailed a partial create carries in its status details, or undefined. */
function initFailure(error: Outcome["error"]): { id: string; properties: Record<string, unknown>; reasons: string[] } | undefined {
  const bin = error?.statusDetails;
  if (!bin) return undefined;
  const status = statusproto.Status.deserializeBinary(bin);
  const any = status.getDetailsList().find((d) => d.getTypeName() === "pulumirpc.ErrorResourceInitFailed");
  if (!any) return undefined;
  const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
  return { id: detail.getId(), properties: detail.getProperties()?.toJavaScript() ?? {}, reasons: detail.getReasonsList() };
}

describe("Cancel at the wire of the plugin", () => {
  let emulator: RunningEmulator;
  let admin: SvcClient;
  let server: SvcProviderServer;
  /** Every server of the test (a plugin process each), closed after it. */
  const servers: SvcProviderServer[] = [];
  /** A plugin server (its own provider process: `session`), configured for the emulator's account. */
  const configuredServer = async (session?: ProviderProcess, extra: Record<string, string> = {}): Promise<SvcProviderServer> => {
    const made = new SvcProviderServer(DEFINITIONS, "0.0.0-test", undefined, session);
    servers.push(made);
    const args = { baseUrl: emulator.baseUrl, partnerId: String(emulator.partnerId), adminSecret: emulator.adminSecret, ...extra };
    const configured = await unary(made, "configure", new provproto.ConfigureRequest().setArgs(struct(args)));
    expect(configured.error).toBeNull();
    return made;
  };

  beforeEach(async () => {
    emulator = await startEmulator({ quiet: true });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    server = await configuredServer();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((each) => each.session.close()));
    await admin.close();
    await emulator.close();
  });

  const activeWith = async (description: string) => (await admin.appTokens.iterate({ statusEqual: 2 }).toArray()).filter((t) => t.description === description);
  const checkedInputs = async (description: string) => {
    const checked = await unary(
      server,
      "check",
      new provproto.CheckRequest().setUrn(URN).setType(TOKEN_TYPE).setNews(struct({ description })).setOlds(struct({})),
    );
    expect(checked.error).toBeNull();
    return (checked.value as provproto.CheckResponse).getInputs()!;
  };
  const createToken = async (description: string) => {
    const created = await unary(
      server,
      "create",
      new provproto.CreateRequest()
        .setUrn(URN)
        .setType(TOKEN_TYPE)
        .setProperties(await checkedInputs(description)),
    );
    expect(created.error).toBeNull();
    const response = created.value as provproto.CreateResponse;
    return { id: response.getId(), properties: response.getProperties()! };
  };
  const cancel = async () => expect((await unary(server, "cancel", {})).error).toBeNull();

  it("mid-Create, after the platform committed: the token is deleted and the call fails, recording nothing", async () => {
    emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: "/appToken/action/add" });
    const creating = unary(
      server,
      "create",
      new provproto.CreateRequest()
        .setUrn(URN)
        .setType(TOKEN_TYPE)
        .setProperties(await checkedInputs("mid-create")),
    );
    await vi.waitFor(async () => expect(await activeWith("mid-create")).toHaveLength(1), { timeout: 10_000, interval: 20 });
    const [made] = await activeWith("mid-create");
    await cancel();
    const { error } = await creating;

    expect(error?.code).toBe(Status.UNKNOWN);
    expect(initFailure(error)).toBeUndefined();
    expect(error?.details).toMatch(/deleted, so nothing is left behind/);
    expect(error?.details).not.toContain(made?.token as string);
    expect(await activeWith("mid-create")).toEqual([]);
  });

  it("a Create past the operation deadline after the platform committed: ErrorResourceInitFailed with the id, the properties and the token as a secret", async () => {
    server = await configuredServer(new ProviderProcess({ operationDeadlineMs: 1_500 }));
    emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: "/appToken/action/add" });
    const { error } = await unary(
      server,
      "create",
      new provproto.CreateRequest()
        .setUrn(URN)
        .setType(TOKEN_TYPE)
        .setProperties(await checkedInputs("deadline")),
    );

    const [onServer] = await activeWith("deadline");
    expect(error?.code).toBe(Status.UNKNOWN);
    const failure = initFailure(error);
    expect(failure?.id).toBe(onServer?.id);
    expect(failure?.properties).toMatchObject({
      tokenId: onServer?.id,
      description: "deadline",
      token: { [SIG_KEY]: expect.any(String), value: onServer?.token },
    });
    expect(failure?.reasons.join(" ")).toMatch(/interrupted/);
    expect(error?.details).not.toContain(onServer?.token as string);
  });

  it("mid-Create, before the platform acted: a plain error, no object", async () => {
    // A request cut in flight is looked for until its timeout: a short one keeps the test short.
    server = await configuredServer(undefined, { requestTimeoutMs: "1000" });
    emulator.ctx.faults.set({ next: Array(200).fill("error"), pathIncludes: "/appToken/action/add" });
    const creating = unary(
      server,
      "create",
      new provproto.CreateRequest()
        .setUrn(URN)
        .setType(TOKEN_TYPE)
        .setProperties(await checkedInputs("mid-create-none")),
    );
    await vi.waitFor(() => expect(emulator.ctx.faults.get().injected.error).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 20 });
    await cancel();
    const { error } = await creating;
    expect(error?.code).toBe(Status.UNKNOWN);
    expect(initFailure(error)).toBeUndefined();
    expect(await activeWith("mid-create-none")).toEqual([]);
  });

  it("mid-Update: the call ends with an error naming the cancellation; the next run's update converges", async () => {
    const { id, properties } = await createToken("before update");
    emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: "/appToken/action/update" });
    const news = await checkedInputs("after update");
    const updating = unary(server, "update", new provproto.UpdateRequest().setUrn(URN).setType(TOKEN_TYPE).setId(id).setOlds(properties).setNews(news));
    await vi.waitFor(() => expect(emulator.ctx.faults.get().injected.slow).toBe(1), { timeout: 10_000, interval: 20 });
    await cancel();
    const { error } = await updating;
    expect(error?.code).toBe(Status.UNKNOWN);
    expect(error?.details).toMatch(/cancel/);
    expect(initFailure(error)).toBeUndefined();

    // The engine keeps the old state; the next run (a new plugin process) applies the update again.
    const next = await configuredServer();
    const again = await unary(next, "update", new provproto.UpdateRequest().setUrn(URN).setType(TOKEN_TYPE).setId(id).setOlds(properties).setNews(news));
    expect(again.error).toBeNull();
    expect((await admin.appTokens.get(id)).description).toBe("after update");
  });

  it("mid-Delete: the call ends with an error (the engine keeps the resource); deleting again succeeds, nothing is left", async () => {
    const { id, properties } = await createToken("deleted");
    emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: "/appToken/action/delete" });
    const deleting = unary(server, "delete", new provproto.DeleteRequest().setUrn(URN).setType(TOKEN_TYPE).setId(id).setProperties(properties));
    await vi.waitFor(() => expect(emulator.ctx.faults.get().injected.slow).toBe(1), { timeout: 10_000, interval: 20 });
    await cancel();
    const { error } = await deleting;
    expect(error?.code).toBe(Status.UNKNOWN);
    expect(error?.details).toMatch(/cancel/);

    const next = await configuredServer();
    const again = await unary(next, "delete", new provproto.DeleteRequest().setUrn(URN).setType(TOKEN_TYPE).setId(id).setProperties(properties));
    expect(again.error).toBeNull();
    expect(await activeWith("deleted")).toEqual([]);
  });
});
