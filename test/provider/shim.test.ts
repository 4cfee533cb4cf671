/**
 * The provider text stored with every resource, run the way the engine's dynamic provider host runs it
 * (`require-from-string(text).handler()`, then configure and the CRUD methods), against the installed runtime
 * (pulumi-svc/provider-runtime): the text this release writes, and the serialized closure earlier releases stored,
 * which stacks in the wild still hold. No HTTP: check and diff only. Also the resource side: what is registered.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { AppToken } from "../../provider/generated/appToken";
import { shimText } from "../../provider/resources/shim";
import { recordRegistrations, registeredOnce } from "./mockedRuntime";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFromString = require("require-from-string") as (code: string) => { handler(): Record<string, (...args: unknown[]) => Promise<unknown>> };

const STACK_CONFIG: Record<string, string> = { "svc:baseUrl": "https://api.example.com/api_v3", "svc:partnerId": "7", "svc:adminSecret": "not-used-here" };
const legacyText = readFileSync(join(__dirname, "fixtures", "serializedShim-appToken-0.1.0.js.txt"), "utf8");

const TEXTS = {
  "this release's text": shimText("appToken"),
  "the serialized closure of 0.1.0 (pulumi-svc/provider-runtime)": legacyText,
  "the same with the legacy path pulumi-svc/dist/provider/runtime": legacyText.replace("pulumi-svc/provider-runtime", "pulumi-svc/dist/provider/runtime"),
};

describe("the stored provider text, run as the dynamic provider host runs it", () => {
  it("is small and requires the runtime by package name", () => {
    const text = shimText("appToken");
    expect(text.length).toBeLessThan(700);
    expect(text).toContain('() => require("pulumi-svc/provider-runtime")');
    expect(shimText("httpNotificationTemplate")).toContain("httpNotificationTemplate: provider");
    expect(legacyText.length).toBeGreaterThan(2500); // what each copy cost before
  });

  for (const [label, text] of Object.entries(TEXTS)) {
    it(`${label}: configure, check and diff reach the installed runtime`, async () => {
      const provider = requireFromString(text).handler();
      for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) expect(typeof provider[method]).toBe("function");
      await provider.configure!({ config: { get: (key: string) => STACK_CONFIG[key] } });
      const { inputs, failures } = (await provider.check!({}, { description: "d", __provider: text })) as {
        inputs: Record<string, unknown>;
        failures: unknown[];
      };
      expect(failures).toEqual([]);
      expect(inputs).toMatchObject({ description: "d", hashType: "SHA256", sessionType: "USER", __provider: text });
      const state = { ...inputs, tokenId: "0_a", token: "abc", status: 2 };
      expect(await provider.diff!("0_a", state, { ...inputs, __provider: "other text" })).toMatchObject({ changes: false, replaces: [] });
      expect(await provider.diff!("0_a", state, { ...inputs, description: "e" })).toMatchObject({ changes: true, replaces: [] });
    });
  }
});

describe("registering an AppToken", () => {
  let registered: pulumi.runtime.MockResourceArgs[] = [];
  beforeAll(async () => {
    registered = await recordRegistrations();
  });

  it("sends its runtime export's shim text as __provider, under the dynamic type token, without an absent connection", async () => {
    const token = new AppToken("t", { description: "d" });
    await registeredOnce(token);
    const args = registered.find((r) => r.name === "t")!;
    expect(args.type).toBe("pulumi-nodejs:dynamic/svc:AppToken");
    expect(args.inputs.__provider).toBe(shimText("appToken"));
    expect(args.inputs).not.toHaveProperty("connection");
    expect(AppToken.isInstance(token)).toBe(true);
  });

  it("leaves Error.stackTraceLimit as it found it, also when registration throws", () => {
    const before = Error.stackTraceLimit;
    new AppToken("u", { description: "d" });
    expect(Error.stackTraceLimit).toBe(before);
    let thrown: unknown;
    try {
      new AppToken("v", {}, { parent: {} as pulumi.Resource });
    } catch (error) {
      thrown = error;
    }
    expect(Error.stackTraceLimit).toBe(before);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).stack).toContain("shim.test.ts");
  });
});
