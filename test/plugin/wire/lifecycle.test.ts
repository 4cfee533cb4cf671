/**
 * The plugin's answers the engine relies on, on the wire: a Read of an object that is gone is an empty id (refresh
 * drops it), a Read by id alone (import) of one says which account it searched (without a URL's userinfo), a Delete
 * of an object already gone succeeds, concurrent Creates on one server each get their own object, and what the
 * plugin does not serve is UNIMPLEMENTED with a message that says what.
 */
import * as grpc from "@grpc/grpc-js";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provprotoValues from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APP_TOKEN,
  callPath,
  checkRequest,
  createRequest,
  deleteRequest,
  EMAIL_TEMPLATE,
  empty,
  HTTP_TEMPLATE,
  type Props,
  readRequest,
  secret,
  startWire,
  valuesOf,
  type WireHarness,
} from "./wireHarness";

const INPUTS: Record<string, Props> = {
  [APP_TOKEN]: { description: "lifecycle" },
  [HTTP_TEMPLATE]: { event: "entry.ready", name: "Lifecycle hook", url: "https://hooks.example.com/l", signSecret: secret("fake-signing-secret-0003") },
  [EMAIL_TEMPLATE]: { event: "entry.ready", name: "Lifecycle mail", subject: "s", body: "b", fromEmail: "video@example.com", to: [{ email: "a@example.com" }] },
};
/** An id of each kind that the emulator's account does not have. */
const MISSING: Record<string, string> = { [APP_TOKEN]: "0_nosuchtok", [HTTP_TEMPLATE]: "999999", [EMAIL_TEMPLATE]: "999998" };

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: grpc.ServiceError) => error,
  );

describe("plugin lifecycle on the wire", () => {
  let wire: WireHarness;
  beforeAll(async () => {
    wire = await startWire();
  });
  afterAll(() => wire?.stop());

  const checked = async (type: string) => valuesOf((await wire.call<provproto.CheckResponse>("check", checkRequest(type, INPUTS[type]!))).getInputs());
  const create = async (type: string, name?: string) => {
    const inputs = await checked(type);
    const created = await wire.call<provproto.CreateResponse>("create", createRequest(type, inputs, { name }));
    return { id: created.getId(), inputs, outs: valuesOf(created.getProperties()) };
  };

  for (const type of [APP_TOKEN, HTTP_TEMPLATE, EMAIL_TEMPLATE]) {
    describe(type, () => {
      it("Read of an object deleted outside Pulumi (refresh) answers an empty id", async () => {
        const { id, inputs, outs } = await create(type);
        await wire.call("delete", deleteRequest(type, id, outs));
        const read = await wire.call<provproto.ReadResponse>("read", readRequest(type, id, outs, inputs));
        expect(read.getId()).toBe("");
        expect(read.hasProperties()).toBe(false);
        const never = await wire.call<provproto.ReadResponse>("read", readRequest(type, MISSING[type]!, outs, inputs));
        expect(never.getId()).toBe("");
      });

      it("Delete of an id twice succeeds, and the object is gone", async () => {
        const { id, outs } = await create(type);
        await wire.call("delete", deleteRequest(type, id, outs));
        await wire.call("delete", deleteRequest(type, id, outs));
        const read = await wire.call<provproto.ReadResponse>("read", readRequest(type, id, outs));
        expect(read.getId()).toBe("");
      });

      it("Read by id alone (import) of a missing object names the account searched", async () => {
        const error = await errorOf(wire.call("read", readRequest(type, MISSING[type]!)));
        expect(
          error.details.startsWith(
            `${type.replace("svc:index:", "")} "${MISSING[type]}" was not found in partner ${wire.emulator.partnerId} at ${wire.emulator.baseUrl} (or it is deleted); `,
          ),
        ).toBe(true);
        expect(error.details).toMatch(/nothing was read$/);
      });
    });
  }

  it("Read by id alone names the account without the userinfo of its URL", async () => {
    const { baseUrl } = wire.emulator;
    const withUserinfo = baseUrl.replace("http://", "http://fake-user:fake-password@");
    await wire.configure({ ...wire.settings, baseUrl: withUserinfo });
    try {
      const error = await errorOf(wire.call("read", readRequest(APP_TOKEN, MISSING[APP_TOKEN]!)));
      expect(error.details).not.toMatch(/fake-user|fake-password/);
      expect(error.details).toContain(`partner ${wire.emulator.partnerId}`);
    } finally {
      await wire.configure();
    }
  });

  it("ten concurrent Creates on one server all succeed, with ten distinct ids", async () => {
    for (const type of [APP_TOKEN, HTTP_TEMPLATE]) {
      const inputs = await checked(type);
      // Each request its own object: a description (token) or a name (template) that ends with its number.
      const numbered = (i: number) => (type === APP_TOKEN ? { ...inputs, description: `concurrent ${i}` } : { ...inputs, name: `Concurrent hook ${i}` });
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) => wire.call<provproto.CreateResponse>("create", createRequest(type, numbered(i), { name: `c${i}` }))),
      );
      const ids = created.map((response) => response.getId());
      expect(new Set(ids).size).toBe(10);
      for (const id of ids) expect(id).not.toBe("");
      // Each is the object its request described.
      for (const [i, response] of created.entries()) {
        const outs = valuesOf(response.getProperties());
        if (type === APP_TOKEN) expect(outs.description).toBe(`concurrent ${i}`);
        else expect(outs.name).toMatch(new RegExp(` ${i}$`));
      }
    }
  });

  it("an unknown resource type is an error naming it and the types served", async () => {
    const error = await errorOf(wire.call("create", createRequest("svc:index:Nope", {})));
    expect(error.code).toBe(grpc.status.UNKNOWN);
    expect(error.details).toBe(
      "unknown resource type svc:index:Nope; this plugin serves svc:index:AppToken, svc:index:HttpNotificationTemplate, svc:index:EmailNotificationTemplate",
    );
  });

  it("what the plugin does not serve is UNIMPLEMENTED with a clear message", async () => {
    const invoke = await errorOf(wire.call("invoke", new provprotoValues.InvokeRequest().setTok("svc:index:getThing")));
    expect(invoke.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(invoke.details).toBe("unknown function svc:index:getThing: the svc package has no functions");
    for (const [method, request, name] of [
      ["call", new provprotoValues.CallRequest(), "Call"],
      ["construct", new provprotoValues.ConstructRequest(), "Construct"],
      ["parameterize", new provprotoValues.ParameterizeRequest(), "Parameterize"],
      ["getMapping", new provprotoValues.GetMappingRequest(), "GetMapping"],
    ] as const) {
      const error = await errorOf(wire.call(method, request));
      expect(error.code).toBe(grpc.status.UNIMPLEMENTED);
      expect(error.details).toBe(`${name} is not implemented by pulumi-resource-svc`);
    }
    // A method this protocol version does not have at all (a newer engine's): grpc-js names it.
    const unknown = await errorOf(callPath(wire, "/pulumirpc.ResourceProvider/NoSuchMethod"));
    expect(unknown.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(unknown.details).toMatch(/NoSuchMethod/);
    // The server still answers after all of that.
    const info = await wire.call<{ getVersion(): string }>("getPluginInfo", empty());
    expect(info.getVersion()).toBe("0.0.0-wire");
  });
});
