/**
 * Secrets at any depth, on every method of the plugin: a value the program passed as a secret inside an object or
 * a list (`keepers: { rotation: pulumi.secret(x) }`, a recipient, a content parameter) comes back wrapped at the
 * same path, so the engine keeps it encrypted in the state and shows it as [secret]; it is never in plain text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { PartialCreateError } from "../../../provider/core/errors";
import { DEFINITIONS } from "../../../provider/definitions";
import {
  APP_TOKEN,
  checkConfigRequest,
  checkRequest,
  createRequest,
  diffRequest,
  EMAIL_TEMPLATE,
  failuresOf,
  initFailureOf,
  isSecretAt,
  type Props,
  readRequest,
  secret,
  startWire,
  updateRequest,
  valuesOf,
  visibleText,
  type WireHarness,
} from "./wireHarness";

/** Obviously fake test values; none may be visible outside a secret wrapper. */
const ROTATION = "fake-nested-rotation-0001";
const ROTATION_2 = "fake-nested-rotation-0002";
const SECRET_EMAIL = "fake-secret-recipient@example.com";
const SECRET_PARAMETER = "fake-secret-parameter-value";
const SECRET_BASE_URL_MARK = "api_v3";

const tokenInputs = (rotation = ROTATION): Props => ({ description: "nested secrets", keepers: { rotation: secret(rotation), plain: "visible" } });
const emailInputs = (subject = "Ready: {entry_name}"): Props => ({
  event: "entry.ready",
  name: "Nested secrets email",
  subject,
  body: "Entry {entry_name} is ready.",
  fromEmail: "video@example.com",
  to: [{ email: "editors@example.com", name: "Editors" }, { email: secret(SECRET_EMAIL) }],
  contentParameters: [
    { key: "entry_name", value: "{entry.name}" },
    { key: "private", value: secret(SECRET_PARAMETER) },
  ],
});

const expectNoPlainSecret = (text: string) => {
  for (const value of [ROTATION, ROTATION_2, SECRET_EMAIL, SECRET_PARAMETER]) expect(text).not.toContain(value);
};

describe("nested secrets on the wire", () => {
  let wire: WireHarness;
  beforeAll(async () => {
    wire = await startWire();
  });
  afterAll(() => wire?.stop());

  const check = async (type: string, news: Props) => {
    const response = await wire.call<provproto.CheckResponse>("check", checkRequest(type, news));
    expect(failuresOf(response)).toEqual([]);
    return valuesOf(response.getInputs());
  };

  it("Check keeps a secret inside an object wrapped at its path, and a list holding one as a whole", async () => {
    const token = await check(APP_TOKEN, tokenInputs());
    expect(isSecretAt(token, ["keepers", "rotation"])).toBe(true);
    expect(isSecretAt(token, ["keepers", "plain"])).toBe(false);
    expect(isSecretAt(token, ["description"])).toBe(false);
    expectNoPlainSecret(visibleText(token));

    // A list holding a secret is wrapped as a whole (test/plugin/wire/listSecretsDrift.test.ts); other lists are not.
    const email = await check(EMAIL_TEMPLATE, emailInputs());
    expect(isSecretAt(email, ["to"])).toBe(true);
    expect(isSecretAt(email, ["contentParameters"])).toBe(true);
    expect(isSecretAt(email, ["cc"])).toBe(false);
    expectNoPlainSecret(visibleText(email));
  });

  it("Check reports a bad value inside a secret without the property the engine would print", async () => {
    const response = await wire.call<provproto.CheckResponse>("check", checkRequest(APP_TOKEN, { keepers: { rotation: secret(12345) } }));
    const failures = failuresOf(response);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ property: "" });
    expect(failures[0]?.reason).toMatch(/^keepers\.rotation: /);
    expect(failures[0]?.reason).not.toContain("12345");
  });

  it("Create, Read (refresh), Update and Diff keep the nested secrets of an app token", async () => {
    const inputs = await check(APP_TOKEN, tokenInputs());
    const created = await wire.call<provproto.CreateResponse>("create", createRequest(APP_TOKEN, inputs));
    const outs = valuesOf(created.getProperties());
    expect(isSecretAt(outs, ["keepers", "rotation"])).toBe(true);
    expect(isSecretAt(outs, ["token"])).toBe(true);
    expectNoPlainSecret(visibleText(outs));

    // Refresh: the state as the engine holds it (secrets wrapped) and the inputs.
    const read = await wire.call<provproto.ReadResponse>("read", readRequest(APP_TOKEN, created.getId(), outs, inputs));
    expect(read.getId()).toBe(created.getId());
    for (const props of [valuesOf(read.getProperties()), valuesOf(read.getInputs())]) {
      expect(isSecretAt(props, ["keepers", "rotation"])).toBe(true);
      expectNoPlainSecret(visibleText(props));
    }
    // A secret known only from the inputs (the outputs in state plain) still comes back wrapped in both.
    const plainOuts = { ...outs, keepers: { rotation: ROTATION, plain: "visible" } };
    const readFromInputs = await wire.call<provproto.ReadResponse>("read", readRequest(APP_TOKEN, created.getId(), plainOuts, inputs));
    expect(isSecretAt(valuesOf(readFromInputs.getProperties()), ["keepers", "rotation"])).toBe(true);
    expect(isSecretAt(valuesOf(readFromInputs.getInputs()), ["keepers", "rotation"])).toBe(true);

    // Update in place (description), the nested secret unchanged.
    const news = await check(APP_TOKEN, { ...tokenInputs(), description: "changed" });
    const updated = await wire.call<provproto.UpdateResponse>("update", updateRequest(APP_TOKEN, created.getId(), outs, news, { oldInputs: inputs }));
    const updatedOuts = valuesOf(updated.getProperties());
    expect(updatedOuts.description).toBe("changed");
    expect(isSecretAt(updatedOuts, ["keepers", "rotation"])).toBe(true);
    expectNoPlainSecret(visibleText(updatedOuts));

    // Diff: a changed nested secret is a change of keepers (which replaces), reported with a detailed diff key.
    const rotated = await check(APP_TOKEN, tokenInputs(ROTATION_2));
    const diff = await wire.call<provproto.DiffResponse>("diff", diffRequest(APP_TOKEN, created.getId(), updatedOuts, rotated, news));
    expect(diff.getReplacesList()).toEqual(["keepers"]);
    expect([...diff.getDetaileddiffMap().keys()]).toContain("keepers");
    const same = await wire.call<provproto.DiffResponse>(
      "diff",
      diffRequest(APP_TOKEN, created.getId(), updatedOuts, await check(APP_TOKEN, { ...tokenInputs(), description: "changed" })),
    );
    expect(same.getDiffsList()).toEqual([]);
  });

  it("Create, Read and Update keep secret recipients and content parameters of an email template", async () => {
    const inputs = await check(EMAIL_TEMPLATE, emailInputs());
    const created = await wire.call<provproto.CreateResponse>("create", createRequest(EMAIL_TEMPLATE, inputs));
    const outs = valuesOf(created.getProperties());
    expect(isSecretAt(outs, ["to"])).toBe(true);
    expect(isSecretAt(outs, ["contentParameters"])).toBe(true);
    expect(isSecretAt(outs, ["subject"])).toBe(false);
    expectNoPlainSecret(visibleText(outs));

    const read = await wire.call<provproto.ReadResponse>("read", readRequest(EMAIL_TEMPLATE, created.getId(), outs, inputs));
    for (const props of [valuesOf(read.getProperties()), valuesOf(read.getInputs())]) {
      expect(isSecretAt(props, ["to", 1, "email"])).toBe(true);
      expect(isSecretAt(props, ["contentParameters", 1, "value"])).toBe(true);
      expectNoPlainSecret(visibleText(props));
    }

    const news = await check(EMAIL_TEMPLATE, emailInputs("Now ready: {entry_name}"));
    const updated = await wire.call<provproto.UpdateResponse>("update", updateRequest(EMAIL_TEMPLATE, created.getId(), outs, news, { oldInputs: inputs }));
    const updatedOuts = valuesOf(updated.getProperties());
    expect(updatedOuts.subject).toBe("Now ready: {entry_name}");
    expect(isSecretAt(updatedOuts, ["to", 1, "email"])).toBe(true);
    expect(isSecretAt(updatedOuts, ["contentParameters", 1, "value"])).toBe(true);
    expectNoPlainSecret(visibleText(updatedOuts));
  });

  it("CheckConfig keeps secret settings wrapped, the schema's and the program's", async () => {
    const response = await wire.call<provproto.CheckResponse>(
      "checkConfig",
      checkConfigRequest({ baseUrl: secret(wire.emulator.baseUrl), partnerId: wire.emulator.partnerId, adminSecret: wire.emulator.adminSecret }),
    );
    expect(failuresOf(response)).toEqual([]);
    const inputs = valuesOf(response.getInputs());
    expect(isSecretAt(inputs, ["adminSecret"])).toBe(true);
    expect(isSecretAt(inputs, ["baseUrl"])).toBe(true);
    expect(isSecretAt(inputs, ["partnerId"])).toBe(false);
    const visible = visibleText(inputs);
    expect(visible).not.toContain(wire.emulator.adminSecret);
    expect(visible).not.toContain(SECRET_BASE_URL_MARK);
  });
});

describe("nested secrets in a partial create", () => {
  let wire: WireHarness;
  /** The package's AppToken, whose create made an object it could not finish (as a failed activation does). */
  const failingToken = {
    ...DEFINITIONS.find((definition) => definition.type === "AppToken")!,
    async create(_ctx: unknown, inputs: Record<string, unknown>): Promise<never> {
      throw new PartialCreateError("created 0_partial but could not finish it", "0_partial", { ...inputs, tokenId: "0_partial", token: "fake-token-value" });
    },
  };
  beforeAll(async () => {
    wire = await startWire({ definitions: [failingToken] });
  });
  afterAll(() => wire?.stop());

  it("records the object with its secrets wrapped at their paths", async () => {
    const inputs = valuesOf((await wire.call<provproto.CheckResponse>("check", checkRequest(APP_TOKEN, tokenInputs()))).getInputs());
    const error = await wire.call("create", createRequest(APP_TOKEN, inputs)).then(
      () => undefined,
      (e: unknown) => e as import("@grpc/grpc-js").ServiceError,
    );
    expect(error).toBeInstanceOf(Error);
    const failure = initFailureOf(error!);
    expect(failure?.id).toBe("0_partial");
    expect(isSecretAt(failure!.properties, ["keepers", "rotation"])).toBe(true);
    expect(isSecretAt(failure!.properties, ["token"])).toBe(true);
    expect(isSecretAt(failure!.properties, ["keepers", "plain"])).toBe(false);
    const visible = visibleText(error);
    expectNoPlainSecret(visible);
    expect(visible).not.toContain("fake-token-value");
  });
});
