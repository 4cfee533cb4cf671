/**
 * Malformed requests on the wire: missing, unknown and mistyped fields for each resource type and for the
 * provider's settings get a clear answer naming the field (a CheckFailure, or an error), before any call to the
 * platform; never a crash (the server keeps answering) nor an unhandled rejection (vitest fails the file on one).
 */
import type * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFINITIONS } from "../../../provider/definitions";
import {
  APP_TOKEN,
  checkConfigRequest,
  checkRequest,
  configureRequest,
  createRequest,
  diffConfigRequest,
  deleteRequest,
  diffRequest,
  EMAIL_TEMPLATE,
  failuresOf,
  HTTP_TEMPLATE,
  type Props,
  readRequest,
  secret,
  startWire,
  updateRequest,
  type WireHarness,
} from "./wireHarness";

/** Valid inputs of each type (what a program would write). */
const VALID: Record<string, Props> = {
  [APP_TOKEN]: { description: "malformed" },
  [HTTP_TEMPLATE]: { event: "entry.ready", name: "Malformed hook", url: "https://hooks.example.com/m", signSecret: secret("fake-signing-secret-0001") },
  [EMAIL_TEMPLATE]: { event: "entry.ready", name: "Malformed mail", subject: "s", body: "b", fromEmail: "video@example.com", to: [{ email: "a@example.com" }] },
};
/** The fields each type requires (the app token has none: every field has a default). */
const REQUIRED: Record<string, string[]> = {
  [APP_TOKEN]: [],
  [HTTP_TEMPLATE]: ["name", "url", "signSecret"],
  [EMAIL_TEMPLATE]: ["name", "subject", "body", "fromEmail", "to"],
};
/** Wrong for every input field: no field takes an object with an unknown key holding a list. */
const MISTYPED = { unexpected: [1] };

const names = (failures: { property: string; reason: string }[], field: string) =>
  failures.some((f) => f.property === field || f.reason.startsWith(`${field}:`) || f.reason.startsWith(`${field} `) || f.reason.includes(`"${field}"`));

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: grpc.ServiceError) => error,
  );

describe("malformed requests on the wire", () => {
  let wire: WireHarness;
  beforeAll(async () => {
    wire = await startWire();
  });
  afterEach(() => wire.resetApiCalls());
  afterAll(() => wire?.stop());

  const check = async (type: string, news: Props) => failuresOf(await wire.call<provproto.CheckResponse>("check", checkRequest(type, news)));

  for (const definition of DEFINITIONS) {
    const type = `svc:index:${definition.type}`;
    describe(definition.type, () => {
      it("Check accepts the valid inputs", async () => {
        expect(await check(type, VALID[type]!)).toEqual([]);
      });

      it("Check names each missing required field", async () => {
        const failures = await check(type, {});
        for (const field of REQUIRED[type]!) expect(names(failures, field), `${field} in ${JSON.stringify(failures)}`).toBe(true);
        if (REQUIRED[type]!.length === 0) expect(failures).toEqual([]);
        // A request with no `news` at all is the same as empty inputs.
        const bare = failuresOf(await wire.call<provproto.CheckResponse>("check", new provproto.CheckRequest().setUrn(`urn:pulumi:test::wire::${type}::bare`)));
        expect(bare).toEqual(failures);
      });

      it("Check names an unknown field", async () => {
        const failures = await check(type, { ...VALID[type], colour: "blue" });
        expect(failures).toEqual([expect.objectContaining({ property: "colour", reason: expect.stringMatching(/unknown property "colour"/) })]);
      });

      it("Check names every mistyped field, and secret ones without the property", async () => {
        for (const [field, input] of Object.entries(definition.inputs)) {
          const failures = await check(type, { ...VALID[type], [field]: MISTYPED });
          expect(names(failures, field), `${field}: ${JSON.stringify(failures)}`).toBe(true);
          if (input.secret) expect(failures.every((f) => f.property === "")).toBe(true);
        }
      });

      it("Create and Update refuse mistyped, unknown and missing fields before any call, naming them", async () => {
        for (const [field, bad] of [
          ...Object.keys(definition.inputs).map((field) => [field, { ...VALID[type], [field]: MISTYPED }] as const),
          ["colour", { ...VALID[type], colour: "blue" }] as const,
          ...REQUIRED[type]!.map((field) => [field, Object.fromEntries(Object.entries(VALID[type]!).filter(([k]) => k !== field))] as const),
        ]) {
          const created = await errorOf(wire.call("create", createRequest(type, bad)));
          expect(created.details).toMatch(new RegExp(`^Create of ${type} refused before any call: .*${field}`));
          const updated = await errorOf(wire.call("update", updateRequest(type, "some-id", VALID[type]!, bad)));
          expect(updated.details).toMatch(new RegExp(`^Update of ${type} refused before any call: .*${field}`));
        }
        expect(wire.apiCalls()).toEqual({});
      });

      it("Read, Update and Delete without an id name the id, before any call", async () => {
        for (const [method, request] of [
          ["read", readRequest(type, "")],
          ["update", updateRequest(type, "", VALID[type]!, VALID[type]!)],
          ["delete", deleteRequest(type, "")],
        ] as const) {
          const error = await errorOf(wire.call(method, request));
          expect(error.details).toMatch(/: id is required/);
        }
        expect(wire.apiCalls()).toEqual({});
      });

      it("Diff and Read take mistyped state without crashing", async () => {
        const state = Object.fromEntries(Object.keys(definition.inputs).map((field) => [field, MISTYPED]));
        const diff = await wire.call<provproto.DiffResponse>("diff", diffRequest(type, "some-id", state, VALID[type]!));
        expect(diff.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
        // The state names no usable connection: the read goes to the configured account and finds nothing there.
        const { connection: _unusable, ...withoutConnection } = state;
        const read = await wire.call<provproto.ReadResponse>("read", readRequest(type, "no-such-object", withoutConnection));
        expect(read.getId()).toBe("");
      });
    });
  }

  it("names the type of a request for a resource the plugin does not serve, and of one with none", async () => {
    const error = await errorOf(wire.call("check", checkRequest("svc:index:Nope", {})));
    expect(error.details).toMatch(/unknown resource type svc:index:Nope; this plugin serves svc:index:AppToken, /);
    const none = await errorOf(wire.call("create", new provproto.CreateRequest()));
    expect(none.details).toMatch(/unknown resource type ; this plugin serves/);
  });
});

describe("malformed provider settings on the wire", () => {
  let wire: WireHarness;
  beforeAll(async () => {
    wire = await startWire({ configure: false });
  });
  afterAll(() => wire?.stop());

  const account = () => ({ baseUrl: wire.emulator.baseUrl, partnerId: wire.emulator.partnerId, adminSecret: secret(wire.emulator.adminSecret) });
  const checkConfig = async (news: Props) => failuresOf(await wire.call<provproto.CheckResponse>("checkConfig", checkConfigRequest(news)));
  const configureError = (args: Props) => errorOf(wire.call("configure", configureRequest(args)));

  const cases: [string, () => Props, (failures: { property: string; reason: string }[]) => void, RegExp][] = [
    [
      "an unknown setting",
      () => ({ ...account(), colour: "blue" }),
      (f) => expect(f).toEqual([expect.objectContaining({ property: "colour", reason: expect.stringMatching(/unknown setting "colour"/) })]),
      /unknown setting "colour"/,
    ],
    [
      "a mistyped partner id",
      () => ({ ...account(), partnerId: "forty-two" }),
      (f) => expect(f).toEqual([{ property: "partnerId", reason: "partnerId: expected a whole number, got text that is not one" }]),
      /partnerId: expected a whole number/,
    ],
    [
      "a mistyped base URL",
      () => ({ ...account(), baseUrl: { host: "x" } }),
      (f) => expect(f).toEqual([{ property: "baseUrl", reason: "baseUrl: expected text, got an object" }]),
      /baseUrl: expected text, got an object/,
    ],
    [
      "a mistyped switch",
      () => ({ ...account(), allowInsecureHttp: [true] }),
      (f) => expect(f).toEqual([{ property: "allowInsecureHttp", reason: "allowInsecureHttp: expected true or false, got a list" }]),
      /allowInsecureHttp: expected true or false/,
    ],
    [
      "a mistyped secret, named only in the reason",
      () => ({ ...account(), adminSecret: secret(12345) }),
      (f) => expect(f).toEqual([{ property: "", reason: "adminSecret: expected text, got a number" }]),
      /adminSecret: expected text/,
    ],
    [
      "a missing base URL",
      () => ({ partnerId: wire.emulator.partnerId, adminSecret: secret(wire.emulator.adminSecret) }),
      // Never SVC_BASE_URL beside the provider's own partner and credentials: it may be another platform's.
      (f) =>
        expect(f).toEqual([expect.objectContaining({ property: "", reason: expect.stringMatching(/^No platform URL: .*so `svc:baseUrl` must be set too/) })]),
      /No platform URL: .*so `svc:baseUrl` must be set too/,
    ],
    [
      "missing credentials",
      () => ({ baseUrl: wire.emulator.baseUrl, partnerId: wire.emulator.partnerId }),
      (f) =>
        expect(f).toEqual([
          expect.objectContaining({ reason: expect.stringMatching(/^No credentials for the account `svc:baseUrl` and `svc:partnerId` names/) }),
        ]),
      /No credentials/,
    ],
  ];

  for (const [what, settings, expectFailures, configureMessage] of cases) {
    it(`CheckConfig and Configure name ${what}`, async () => {
      expectFailures(await checkConfig(settings()));
      const error = await configureError(settings());
      expect(error.details).toMatch(/^invalid provider configuration: /);
      expect(error.details).toMatch(configureMessage);
      expect(error.details).not.toContain(wire.emulator.adminSecret);
    });
  }

  it("DiffConfig takes mistyped and unknown settings without crashing, and names what changed", async () => {
    const olds = account();
    const diff = await wire.call<provproto.DiffResponse>("diffConfig", diffConfigRequest(olds, { ...olds, partnerId: { nested: [1] }, colour: "blue" }));
    expect(diff.getDiffsList()).toEqual(["partnerId"]);
    expect(diff.getReplacesList()).toEqual(["partnerId"]);
  });

  it("CheckConfig and Configure accept the account's settings, and a partner id as text (older engines)", async () => {
    expect(await checkConfig(account())).toEqual([]);
    expect(await checkConfig({ ...account(), partnerId: String(wire.emulator.partnerId), allowInsecureHttp: "false", version: "0.1.0" })).toEqual([]);
    expect(await checkConfig({ ...account(), allowInsecureHttp: true })).toEqual([]);
    const configured = await wire.call<provproto.ConfigureResponse>("configure", configureRequest(account()));
    expect(configured.getAcceptsecrets()).toBe(true);
    expect(wire.apiCalls()).toEqual({});
  });
});
