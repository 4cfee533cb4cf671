/**
 * The plugin's secret paths: every secret that comes in, at any depth, is wrapped again at the same path in what
 * goes back, or at the deepest part of that path that still exists when the answer is shaped differently.
 */
import { describe, expect, it } from "vitest";
import { keyPaths, secret, secretPaths, unwrapSecrets, wrapSecretPaths } from "../../plugin/properties";

const SIG = "4dabf18193072939515e22adb298388d";

describe("secretPaths", () => {
  it("finds secrets at the top level and in objects; a list holding one anywhere is listed whole", () => {
    const props = {
      description: "plain",
      signSecret: secret("top-level-fake"),
      keepers: { rotation: secret("fake-rotation"), plain: "x" },
      to: [{ email: "a@example.com" }, { email: secret("b@example.com"), name: "B" }],
      tags: ["a", secret("fake-tag")],
    };
    expect(secretPaths(props)).toEqual([["signSecret"], ["keepers", "rotation"], ["to"], ["tags"]]);
    expect(secretPaths({ deep: { lists: [[1], [{ a: secret("x") }]] } })).toEqual([["deep", "lists"]]);
  });

  it("lists only the outermost of nested secrets", () => {
    expect(secretPaths({ keepers: secret({ rotation: secret("inner-fake"), other: "x" }) })).toEqual([["keepers"]]);
    expect(secretPaths({ a: secret(secret("twice")) })).toEqual([["a"]]);
  });

  it("finds nothing in plain or absent properties", () => {
    expect(secretPaths({ a: 1, b: [1, { c: null }], d: { e: "x" } })).toEqual([]);
    expect(secretPaths(undefined)).toEqual([]);
  });
});

describe("wrapSecretPaths", () => {
  it("wraps each path; a list that held a secret comes back secret whole, whatever its order or length now", () => {
    const incoming = {
      keepers: { rotation: secret("fake-rotation"), plain: "x" },
      to: [{ email: "a@example.com" }, { email: secret("b@example.com"), name: "B" }],
      contentParameters: [{ key: "k", value: secret("fake-value") }],
    };
    const plain = unwrapSecrets(incoming) as Record<string, unknown>;
    const expected = { keepers: incoming.keepers, to: secret(plain.to), contentParameters: secret(plain.contentParameters) };
    expect(wrapSecretPaths(plain, secretPaths(incoming))).toEqual(expected);
    // The platform's answer after a recipient was prepended by hand: the whole list still wrapped.
    const drifted = { ...plain, to: [{ email: "new@example.com" }, ...(plain.to as unknown[])] };
    expect(wrapSecretPaths(drifted, secretPaths(incoming)).to).toEqual(secret(drifted.to));
  });

  it("wraps top-level keys (the schema's secret fields) and leaves absent ones out", () => {
    expect(wrapSecretPaths({ token: "t", description: "d" }, keyPaths(["token", "signSecret"]))).toEqual({ token: secret("t"), description: "d" });
  });

  it("wraps the nearest existing ancestor when the path is missing in what goes back", () => {
    const paths = [
      ["to", 3, "email"],
      ["keepers", "rotation"],
      ["contentParameters", 0, "value"],
    ] as const;
    const out = wrapSecretPaths({ to: [{ email: "a@example.com" }], keepers: "reshaped to text", contentParameters: [{ key: "k" }] }, paths);
    expect(out).toEqual({ to: secret([{ email: "a@example.com" }]), keepers: secret("reshaped to text"), contentParameters: [secret({ key: "k" })] });
  });

  it("does not treat an index as a key or a key as an index", () => {
    expect(wrapSecretPaths({ a: { "0": "x" } }, [["a", 0]])).toEqual({ a: secret({ "0": "x" }) });
    expect(wrapSecretPaths({ a: ["x"] }, [["a", "0"]])).toEqual({ a: secret(["x"]) });
  });

  it("wraps nothing when the top-level property is gone, and never wraps twice", () => {
    expect(wrapSecretPaths({ b: 1 }, [["a", "x"]])).toEqual({ b: 1 });
    const out = wrapSecretPaths({ keepers: { rotation: "r" } }, [["keepers", "rotation"], ["keepers"], ["keepers"]]);
    expect(out).toEqual({ keepers: secret({ rotation: "r" }) });
    const already = wrapSecretPaths({ a: secret({ b: "x" }) }, [["a", "b"]]);
    expect(already).toEqual({ a: secret({ b: "x" }) });
    expect(JSON.stringify(already).split(SIG).length - 1).toBe(1);
  });

  it("leaves the value it is given untouched", () => {
    const props = { keepers: { rotation: "r" } };
    wrapSecretPaths(props, [["keepers", "rotation"]]);
    expect(props).toEqual({ keepers: { rotation: "r" } });
    // Only the containers on a wrapped path are copied: the rest of the answer is the caller's, as it was.
    const nested = { to: [{ email: "a@example.com", name: "A" }, { email: "b@example.com" }], description: "d" };
    const out = wrapSecretPaths(nested, [["to", 0, "email"], ["description"]]);
    expect(out).toEqual({ to: [{ email: secret("a@example.com"), name: "A" }, { email: "b@example.com" }], description: secret("d") });
    expect(nested).toEqual({ to: [{ email: "a@example.com", name: "A" }, { email: "b@example.com" }], description: "d" });
  });
});
