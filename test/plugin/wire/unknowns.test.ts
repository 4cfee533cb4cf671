/**
 * Unknown values in preview: the engine sends a value it does not know yet (an output of a resource not created)
 * as a sentinel string, anywhere in the properties. Every method that can receive one answers sensibly (an unknown
 * is not judged as a value, and a change to it is a change) and makes no call to the platform.
 */
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
  diffRequest,
  EMAIL_TEMPLATE,
  failuresOf,
  HTTP_TEMPLATE,
  isSecretAt,
  type Props,
  secret,
  startWire,
  UNKNOWN,
  updateRequest,
  valuesOf,
  type WireHarness,
} from "./wireHarness";

const VALID: Record<string, Props> = {
  [APP_TOKEN]: { description: "unknowns", keepers: { rotation: "1" } },
  [HTTP_TEMPLATE]: { event: "entry.ready", name: "Unknown hook", url: "https://hooks.example.com/u", signSecret: secret("fake-signing-secret-0002") },
  [EMAIL_TEMPLATE]: { event: "entry.ready", name: "Unknown mail", subject: "s", body: "b", fromEmail: "video@example.com", to: [{ email: "a@example.com" }] },
};
const { DIFF_SOME } = provproto.DiffResponse.DiffChanges;

describe("unknown values on the wire (preview)", () => {
  let wire: WireHarness;
  beforeAll(async () => {
    wire = await startWire();
    wire.resetApiCalls();
  });
  // No method below may reach the platform.
  afterEach(() => {
    const calls = wire.apiCalls();
    wire.resetApiCalls();
    expect(calls).toEqual({});
  });
  afterAll(() => wire?.stop());

  for (const definition of DEFINITIONS) {
    const type = `svc:index:${definition.type}`;
    describe(definition.type, () => {
      it("Check passes an unknown in any field through, unjudged, at its place", async () => {
        for (const field of Object.keys(definition.inputs)) {
          const response = await wire.call<provproto.CheckResponse>("check", checkRequest(type, { ...VALID[type], [field]: UNKNOWN }));
          expect(failuresOf(response), field).toEqual([]);
          const inputs = valuesOf(response.getInputs());
          const value = isSecretAt(inputs, [field]) ? (inputs[field] as { value: unknown }).value : inputs[field];
          expect(value, field).toBe(UNKNOWN);
        }
      });

      it("Check passes an unknown inside a list or an object through", async () => {
        const nested: Props =
          type === APP_TOKEN
            ? { keepers: { rotation: UNKNOWN } }
            : type === EMAIL_TEMPLATE
              ? { to: [{ email: UNKNOWN }], contentParameters: [{ key: "k", value: UNKNOWN }] }
              : { connection: { partnerId: UNKNOWN } };
        const response = await wire.call<provproto.CheckResponse>("check", checkRequest(type, { ...VALID[type], ...nested }));
        expect(failuresOf(response)).toEqual([]);
        expect(JSON.stringify(valuesOf(response.getInputs()))).toContain(UNKNOWN);
      });

      it("Diff counts an unknown as a change, and as a replacement for a replacing field", async () => {
        for (const [field, input] of Object.entries(definition.inputs)) {
          if (input.change === "none") continue;
          const diff = await wire.call<provproto.DiffResponse>("diff", diffRequest(type, "some-id", VALID[type]!, { ...VALID[type], [field]: UNKNOWN }));
          expect(diff.getChanges(), field).toBe(DIFF_SOME);
          expect(diff.getDiffsList(), field).toContain(field);
          expect(diff.getReplacesList().includes(field), field).toBe(input.change === "replace");
        }
      });

      it("Create and Update in preview answer with the inputs and unknown outputs, and call nothing", async () => {
        const field = Object.keys(definition.inputs).find((key) => definition.inputs[key]!.change === "inPlace")!;
        const news = { ...VALID[type], [field]: UNKNOWN };
        const created = await wire.call<provproto.CreateResponse>("create", createRequest(type, news, { preview: true }));
        expect(created.getId()).toBe("");
        const outs = valuesOf(created.getProperties());
        expect(outs[field]).toBe(UNKNOWN);
        for (const [output, field] of Object.entries(definition.outputs)) {
          expect(isSecretAt(outs, [output]), output).toBe(field.secret === true);
          expect(field.secret ? (outs[output] as { value: unknown }).value : outs[output], output).toBe(UNKNOWN);
        }

        const state = { ...VALID[type], status: 2 };
        const updated = await wire.call<provproto.UpdateResponse>("update", updateRequest(type, "some-id", state, news, { preview: true }));
        expect(valuesOf(updated.getProperties())).toMatchObject({ [field]: UNKNOWN, status: 2 });
      });
    });
  }

  it("CheckConfig accepts unknown settings without resolving the account", async () => {
    const response = await wire.call<provproto.CheckResponse>(
      "checkConfig",
      checkConfigRequest({ baseUrl: UNKNOWN, partnerId: wire.emulator.partnerId, adminSecret: secret(UNKNOWN) }),
    );
    expect(failuresOf(response)).toEqual([]);
    const inputs = valuesOf(response.getInputs());
    expect(inputs.baseUrl).toBe(UNKNOWN);
    expect(isSecretAt(inputs, ["adminSecret"])).toBe(true);
  });

  it("DiffConfig replaces the provider when its account becomes unknown, and updates it when a credential does", async () => {
    const olds = { baseUrl: wire.emulator.baseUrl, partnerId: wire.emulator.partnerId, adminSecret: secret("fake-old-secret") };
    const account = await wire.call<provproto.DiffResponse>("diffConfig", diffConfigRequest(olds, { ...olds, partnerId: UNKNOWN }));
    expect(account.getChanges()).toBe(DIFF_SOME);
    expect(account.getReplacesList()).toEqual(["partnerId"]);
    const credential = await wire.call<provproto.DiffResponse>("diffConfig", diffConfigRequest(olds, { ...olds, adminSecret: secret(UNKNOWN) }));
    expect(credential.getDiffsList()).toEqual(["adminSecret"]);
    expect(credential.getReplacesList()).toEqual([]);
  });

  it("Configure takes unknown settings (a provider whose config is an output of another resource)", async () => {
    const configured = await wire.call<provproto.ConfigureResponse>(
      "configure",
      configureRequest({ baseUrl: UNKNOWN, partnerId: UNKNOWN, adminSecret: secret(UNKNOWN) }),
    );
    expect(configured.getAcceptsecrets()).toBe(true);
    // Back to the emulator's account for the tests that follow.
    await wire.configure();
  });
});
