/**
 * A Read (and a Diff) request read with its Structs as plain values straight from the bytes (plugin/plainRequests.ts) gives what
 * google-protobuf gives: the same state and inputs (values and key order) as getProperties()?.toJavaScript(), the
 * same other fields, the same bytes again; and for what is not the common case (a Value with no kind, a repeated key,
 * `__proto__`, text that is not UTF-8, a Struct field twice, a malformed message) the same values or the same error.
 */
import fc from "fast-check";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it } from "vitest";
import { DIFF_FIELDS, decodeDiffRequest, decodeReadRequest, plainStruct, READ_FIELDS } from "../../../plugin/plainRequests";

const readProperties = (request: provproto.ReadRequest) => plainStruct(request, READ_FIELDS.properties, () => request.getProperties());
const readInputs = (request: provproto.ReadRequest) => plainStruct(request, READ_FIELDS.inputs, () => request.getInputs());

const struct = (value: Record<string, unknown>) => structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);

/** What the plugin read before: google-protobuf's message, its Structs as plain values (or the error of either). */
function asBefore(bytes: Uint8Array) {
  const request = provproto.ReadRequest.deserializeBinary(bytes);
  return { request: request.toObject(), properties: request.getProperties()?.toJavaScript() ?? {}, inputs: request.getInputs()?.toJavaScript() ?? {} };
}

function asNow(bytes: Uint8Array) {
  const request = decodeReadRequest(bytes);
  const properties = readProperties(request);
  const inputs = readInputs(request);
  return { request: request.toObject(), properties, inputs };
}

/** Same values, same key order at every depth. */
function expectSame(bytes: Uint8Array): void {
  const before = asBefore(bytes);
  const now = asNow(bytes);
  expect(now).toEqual(before);
  expect(JSON.stringify(now)).toBe(JSON.stringify(before));
}

const fullRequest = (properties: Record<string, unknown>, inputs: Record<string, unknown>) =>
  new provproto.ReadRequest()
    .setId("0_abc")
    .setUrn("urn:pulumi:dev::p::svc:index:AppToken::t")
    .setName("t")
    .setType("svc:index:AppToken")
    .setProperties(struct(properties))
    .setInputs(struct(inputs))
    .setResourceStatusAddress("127.0.0.1:1")
    .setResourceStatusToken("token")
    .setTimeout(12.5);

/** A Struct entry, a Value and a ListValue on the wire, by hand (what google-protobuf would never write). */
const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
const delimited = (field: number, bytes: number[]): number[] => [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes];
const text = (s: string): number[] => [...Buffer.from(s, "utf8")];
const entry = (key: number[], value: number[] | undefined): number[] => delimited(1, [...delimited(1, key), ...(value ? delimited(2, value) : [])]);
const stringValue = (s: string) => delimited(3, text(s));
const readRequestWith = (properties: number[], extra: number[] = []) =>
  Uint8Array.from([...delimited(1, text("0_abc")), ...delimited(3, properties), ...delimited(6, text("svc:index:AppToken")), ...extra]);

describe("decodeReadRequest", () => {
  it("reads a Read of the engine's as google-protobuf does, and writes the same bytes back", () => {
    const request = fullRequest(
      {
        id: "0_abc",
        token: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "fake-token" },
        expiry: 1_700_000_000,
        b: [true, false, null, 0, -1.5, "x", { z: 1, a: [] }],
        "10": 1,
        "2": 2,
        empty: {},
        "": "empty key",
        "é ü 日本 🎉": "text beyond ASCII 🎉",
      },
      { description: "d", connection: { partnerId: 7, baseUrl: "http://127.0.0.1:1" } },
    );
    const bytes = request.serializeBinary();
    expectSame(bytes);
    expect(Buffer.from(decodeReadRequest(bytes).serializeBinary())).toEqual(Buffer.from(bytes));
  });

  it("reads a request without Structs, and one of empty Structs", () => {
    expectSame(new provproto.ReadRequest().setId("x").setType("svc:index:AppToken").serializeBinary());
    expectSame(fullRequest({}, {}).serializeBinary());
    expectSame(new Uint8Array());
  });

  it("gives the Struct messages when asked, equal to google-protobuf's", () => {
    const bytes = fullRequest({ a: 1, nested: { list: ["x", null] } }, { b: true }).serializeBinary();
    const now = decodeReadRequest(bytes);
    const before = provproto.ReadRequest.deserializeBinary(bytes);
    expect(now.hasProperties()).toBe(true);
    expect(now.getProperties()!.toObject()).toEqual(before.getProperties()!.toObject());
    expect(now.getInputs()!.toJavaScript()).toEqual(before.getInputs()!.toJavaScript());
    // A Struct set afterwards is the one read.
    now.setProperties(struct({ replaced: 1 }));
    expect(readProperties(now)).toEqual({ replaced: 1 });
    now.clearInputs();
    expect(now.hasInputs()).toBe(false);
    expect(readInputs(now)).toEqual({});
  });

  it("hands each plain value out once: a second read is a fresh copy", () => {
    const bytes = fullRequest({ a: { b: 1 } }, {}).serializeBinary();
    const request = decodeReadRequest(bytes);
    const first = readProperties(request);
    (first.a as Record<string, unknown>).b = 2;
    expect(readProperties(request)).toEqual({ a: { b: 1 } });
  });

  it("reads any Struct as google-protobuf does", () => {
    const json = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
    const object = fc.dictionary(fc.string(), json, { maxKeys: 8 }).filter((o) => !Object.hasOwn(o, "__proto__"));
    fc.assert(
      fc.property(object, object, (properties, inputs) => {
        expectSame(fullRequest(properties, inputs).serializeBinary());
      }),
      { numRuns: 300 },
    );
  });

  it("gives what google-protobuf gives for what it writes only by hand", () => {
    const cases: Record<string, Uint8Array> = {
      "keys out of order (read in sorted order)": readRequestWith([
        ...entry(text("b"), stringValue("1")),
        ...entry(text("a"), stringValue("2")),
        ...entry(text("10"), stringValue("3")),
      ]),
      "a repeated key (the last one wins)": readRequestWith([...entry(text("a"), stringValue("first")), ...entry(text("a"), stringValue("second"))]),
      "the key __proto__": readRequestWith(entry(text("__proto__"), stringValue("x"))),
      "an entry without a key": readRequestWith(delimited(1, delimited(2, stringValue("x")))),
      "text that is not UTF-8": readRequestWith(entry([0xff, 0xfe], stringValue("x"))),
      "the Struct field twice": Uint8Array.from([...readRequestWith(entry(text("a"), stringValue("1"))), ...delimited(3, entry(text("b"), stringValue("2")))]),
      "a field the request does not know": readRequestWith(entry(text("a"), stringValue("1")), delimited(99, text("future"))),
      "a Value with two kinds": readRequestWith(entry(text("a"), [...stringValue("x"), ...varint((4 << 3) | 0), 1])),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const before = (() => {
        try {
          return asBefore(bytes);
        } catch (error) {
          return { error: String(error) };
        }
      })();
      const now = (() => {
        try {
          return asNow(bytes);
        } catch (error) {
          return { error: String(error) };
        }
      })();
      expect(now, name).toEqual(before);
      expect(JSON.stringify(now), name).toBe(JSON.stringify(before));
    }
  });

  it("a Value with no kind: the same error as google-protobuf's, when the state is read", () => {
    const bytes = readRequestWith(entry(text("a"), []));
    const request = decodeReadRequest(bytes);
    expect(() => readProperties(request)).toThrow("Unexpected struct type");
    expect(() => provproto.ReadRequest.deserializeBinary(bytes).getProperties()!.toJavaScript()).toThrow("Unexpected struct type");
  });

  it("a malformed message: the same error as google-protobuf's", () => {
    const bytes = Uint8Array.from([...delimited(1, text("0_abc")), (3 << 3) | 2, 50, 1, 2]);
    expect(() => decodeReadRequest(bytes)).toThrow();
    let before: unknown;
    let now: unknown;
    try {
      provproto.ReadRequest.deserializeBinary(bytes);
    } catch (error) {
      before = String(error);
    }
    try {
      decodeReadRequest(bytes);
    } catch (error) {
      now = String(error);
    }
    expect(now).toBe(before);
  });
});

describe("decodeDiffRequest", () => {
  const diffRequest = (olds: Record<string, unknown>, news: Record<string, unknown>, oldInputs?: Record<string, unknown>) => {
    const request = new provproto.DiffRequest()
      .setId("0_abc")
      .setUrn("urn:pulumi:dev::p::svc:index:AppToken::t")
      .setName("t")
      .setType("svc:index:AppToken")
      .setOlds(struct(olds))
      .setNews(struct(news))
      .setIgnorechangesList(["a", "b"]);
    return (oldInputs ? request.setOldInputs(struct(oldInputs)) : request).serializeBinary();
  };
  const plain = (request: provproto.DiffRequest) => ({
    request: request.toObject(),
    olds: plainStruct(request, DIFF_FIELDS.olds, () => request.getOlds()),
    news: plainStruct(request, DIFF_FIELDS.news, () => request.getNews()),
  });

  it("reads a Diff of the engine's as google-protobuf does, and writes the same bytes back", () => {
    const olds = {
      id: "0_abc",
      description: "d",
      token: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "t" },
      z: [1, { y: null }],
    };
    const news = { description: "e", b: true, a: 2 };
    for (const bytes of [diffRequest(olds, news, { description: "d" }), diffRequest(olds, news), diffRequest({}, {})]) {
      const before = provproto.DiffRequest.deserializeBinary(bytes);
      const expected = { request: before.toObject(), olds: before.getOlds()?.toJavaScript() ?? {}, news: before.getNews()?.toJavaScript() ?? {} };
      const now = plain(decodeDiffRequest(bytes));
      expect(now).toEqual(expected);
      expect(JSON.stringify(now)).toBe(JSON.stringify(expected));
      expect(Buffer.from(decodeDiffRequest(bytes).serializeBinary())).toEqual(Buffer.from(bytes));
      expect(decodeDiffRequest(bytes).getOldInputs()?.toJavaScript()).toEqual(before.getOldInputs()?.toJavaScript());
    }
  });
});
