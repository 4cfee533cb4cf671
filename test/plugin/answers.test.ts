/**
 * The plugin's answers as Structs: what goes back to the engine is exactly the JSON of the value (what the plugin
 * sent when it went through the JSON text), built without it.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { toStruct } from "../../plugin/answers";
import { secret } from "../../plugin/properties";

/** What the plugin answered before: the value through its JSON text, then Struct.fromJavaScript. */
const throughJson = (value: Record<string, unknown>) =>
  structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Record<string, structproto.JavaScriptValue>);

const bytes = (struct: structproto.Struct) => Buffer.from(struct.serializeBinary()).toString("hex");

describe("toStruct", () => {
  const cases: Record<string, Record<string, unknown>> = {
    "a state with a secret, lists and nested objects": {
      id: "0_abc",
      token: secret("fake-token-0042"),
      description: "d",
      expiry: 1_700_000_000,
      sessionPrivileges: "",
      connection: { baseUrl: "http://127.0.0.1:1", partnerId: 7, adminSecret: secret("fake-admin") },
      to: [{ email: "a@example.com" }, { email: secret("b@example.com"), name: "B" }],
      flags: [true, false, null, 0, -1.5, "x"],
      empty: {},
      none: [],
    },
    "what JSON leaves out or rewrites": {
      gone: undefined,
      fn: () => 1,
      list: [undefined, () => 1, Number.NaN, Number.POSITIVE_INFINITY, -0, 1],
      notFinite: Number.NEGATIVE_INFINITY,
      minusZero: -0,
      when: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      boxed: Object(5) as unknown,
      custom: { toJSON: () => ({ shown: "yes" }), hidden: "no" },
      customGone: { toJSON: () => undefined },
      noPrototype: Object.assign(Object.create(null) as object, { a: 1 }),
      map: new Map([["a", 1]]),
    },
  };
  for (const [name, value] of Object.entries(cases)) {
    it(`answers ${name} exactly as its JSON`, () => {
      expect(toStruct(value).toJavaScript()).toEqual(throughJson(value).toJavaScript());
      expect(bytes(toStruct(value))).toBe(bytes(throughJson(value)));
    });
  }

  it("refuses what JSON refuses", () => {
    expect(() => toStruct({ big: 1n })).toThrow(TypeError);
  });
});
