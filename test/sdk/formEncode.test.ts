import { describe, expect, it } from "vitest";
import { encodeForm } from "../../sdk/platform/formEncode";

describe("encodeForm", () => {
  it("flattens nested objects into name[field] and keeps order", () => {
    const body = encodeForm({ format: 1, appToken: { objectType: "SvcAppToken", hashType: "SHA256" }, id: "0_a b" });
    expect(body).toBe("format=1&appToken[objectType]=SvcAppToken&appToken[hashType]=SHA256&id=0_a%20b");
  });

  it("writes null as name__null, skips undefined, numbers arrays and escapes values", () => {
    const body = encodeForm({ a: null, b: undefined, c: [1, { d: "x&y=z" }], e: true, f: false, "1:service": "appToken" });
    expect(body).toBe("a__null=&c[0]=1&c[1][d]=x%26y%3Dz&e=1&f=0&1:service=appToken");
    expect(new URLSearchParams(body).get("c[1][d]")).toBe("x&y=z");
  });
});
