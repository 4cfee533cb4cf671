/**
 * A Read's answer with its Structs written straight as bytes (plugin/structBytes.ts, plugin/readResponse.ts) is byte
 * for byte what google-protobuf writes for the Structs toStruct builds, for any JSON-like state and for what JSON
 * leaves out or rewrites; what only toStruct handles (a Date, a toJSON, a lone surrogate, a BigInt) answers as before.
 */
import fc from "fast-check";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it } from "vitest";
import { toStruct } from "../../../plugin/answers";
import { secret } from "../../../plugin/properties";
import { readResponse } from "../../../plugin/readResponse";
import { structBytes } from "../../../plugin/structBytes";

/** What the plugin answered before. */
const asBefore = (id: string, properties: Record<string, unknown>, inputs: Record<string, unknown>) =>
  new provproto.ReadResponse().setId(id).setProperties(toStruct(properties)).setInputs(toStruct(inputs));

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

function expectSameAnswer(properties: Record<string, unknown>, inputs: Record<string, unknown>, id = "0_abc"): void {
  const before = asBefore(id, properties, inputs);
  const now = readResponse(id, properties, inputs);
  expect(hex(now.serializeBinary())).toBe(hex(before.serializeBinary()));
  expect(now.toObject()).toEqual(before.toObject());
  expect(hex(now.serializeBinary())).toBe(hex(before.serializeBinary()));
}

const STATE = {
  id: "0_abc",
  token: secret("fake-token-0042"),
  description: "d é 日本 🎉",
  expiry: 1_700_000_000,
  ratio: -1.5e-300,
  tiny: 5e-324,
  sessionPrivileges: "",
  "": "empty key",
  "10": 1,
  "2": 2,
  connection: { baseUrl: "http://127.0.0.1:1", partnerId: 7, adminSecret: secret("fake-admin") },
  to: [{ email: "a@example.com" }, { email: secret("b@example.com"), name: "B" }],
  flags: [true, false, null, 0, -1.5, "x", [], {}],
  long: "x".repeat(300),
  many: Array.from({ length: 200 }, (_, i) => i),
};

describe("structBytes and readResponse", () => {
  it("write google-protobuf's bytes for a state and its inputs", () => {
    expect(structBytes(STATE)).toBeInstanceOf(Buffer);
    expectSameAnswer(STATE, { description: "d", hashType: "SHA256" });
    expectSameAnswer({}, {});
  });

  it("write what JSON leaves out or rewrites as toStruct does", () => {
    expectSameAnswer(
      {
        gone: undefined,
        fn: () => 1,
        list: [undefined, () => 1, Symbol("s"), Number.NaN, Number.POSITIVE_INFINITY, -0, 1],
        minusZero: -0,
        notFinite: -Infinity,
      },
      { noPrototype: Object.assign(Object.create(null) as object, { b: 1, a: 2 }) },
    );
  });

  it("leave to toStruct what only it handles, and answer the same", () => {
    for (const odd of [
      { when: new Date(Date.UTC(2026, 0, 2)) },
      { custom: { toJSON: () => ({ shown: "yes" }) } },
      { lone: "a\uD800b" },
      { boxed: Object(5) as unknown },
    ]) {
      expect(structBytes(odd)).toBeUndefined();
      expectSameAnswer(odd, {});
      expectSameAnswer({}, odd);
    }
    expect(() => readResponse("0_abc", { big: 1n }, {})).toThrow("Do not know how to serialize a BigInt");
  });

  it("builds the Struct messages when asked, and a Struct set afterwards is the one sent", () => {
    const now = readResponse("0_abc", STATE, { a: 1 });
    expect(now.hasProperties()).toBe(true);
    expect(now.getProperties()!.toJavaScript()).toEqual(toStruct(STATE).toJavaScript());
    expect(hex(now.serializeBinary())).toBe(hex(asBefore("0_abc", STATE, { a: 1 }).serializeBinary()));
    now.setInputs(toStruct({ b: 2 }));
    expect(hex(now.serializeBinary())).toBe(hex(asBefore("0_abc", STATE, { b: 2 }).serializeBinary()));
    now.clearProperties();
    expect(now.hasProperties()).toBe(false);
    expect(hex(now.serializeBinary())).toBe(
      hex(
        new provproto.ReadResponse()
          .setId("0_abc")
          .setInputs(toStruct({ b: 2 }))
          .serializeBinary(),
      ),
    );
  });

  it("puts the Structs in field order among the other fields", () => {
    const now = readResponse("0_abc", { a: 1 }, { b: 2 });
    now.setRefreshBeforeUpdate(true);
    expect(hex(now.serializeBinary())).toBe(hex(asBefore("0_abc", { a: 1 }, { b: 2 }).setRefreshBeforeUpdate(true).serializeBinary()));
  });

  it("write google-protobuf's bytes for any JSON-like value", () => {
    const object = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 }).filter((o) => !Object.hasOwn(o, "__proto__"));
    fc.assert(
      fc.property(object, object, fc.string(), (properties, inputs, id) => {
        expectSameAnswer(properties, inputs, id);
      }),
      { numRuns: 300 },
    );
  });
});
