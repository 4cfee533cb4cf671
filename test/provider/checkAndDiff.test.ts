/** check and diff of both resources, as the engine calls them (plain objects in, plain results out), no HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerRuntime } from "../support/providerRuntime";
import { UNKNOWN } from "../../provider/core/unknowns";

/** A provider process of this file's own, with the runtime's handlers. */
const { session, appToken: appTokenProvider, httpNotificationTemplate: templateProvider } = providerRuntime();

const PROVIDER = "exports.handler = ...";
const STACK_CONFIG: Record<string, string> = { "svc:baseUrl": "https://api.example.com/api_v3", "svc:partnerId": "7", "svc:adminSecret": "not-used-here" };

// check also resolves the connection (stack config), without calling anything.
beforeAll(() => session.configure({ get: (key) => STACK_CONFIG[key] }));
afterAll(() => session.close());

describe("check of the connection", () => {
  it("reports missing stack config in preview, naming the settings, before any call", async () => {
    session.configure({ get: () => undefined });
    try {
      const { failures } = await appTokenProvider.check({}, {});
      expect(failures).toEqual([
        { property: "", reason: expect.stringMatching(/^connection: No platform URL: set `svc:baseUrl` \(stack config\) or SVC_BASE_URL/) },
      ]);
      const withExplicit = await appTokenProvider.check({}, { connection: { baseUrl: "https://b.example/api_v3", partnerId: 3, ks: "a-session" } });
      expect(withExplicit.failures).toEqual([]);
    } finally {
      session.configure({ get: (key) => STACK_CONFIG[key] });
    }
  });
});

describe("AppToken check", () => {
  it("fills the documented defaults", async () => {
    const { inputs, failures } = await appTokenProvider.check({}, { __provider: PROVIDER });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({
      __provider: PROVIDER,
      hashType: "SHA256",
      sessionType: "USER",
      sessionDuration: 0,
      sessionPrivileges: "",
      sessionUserId: "",
      description: "",
      expiry: 0,
    });
  });

  it("reports every bad field at once, with what was expected", async () => {
    const { failures } = await appTokenProvider.check(
      {},
      { hashType: "SHA3", sessionType: 1, sessionDuration: -5, keepers: { a: 1 }, adoptId: "nope", colour: "red" },
    );
    const byField = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byField).sort()).toEqual(["adoptId", "colour", "hashType", "keepers", "sessionDuration", "sessionType"]);
    expect(byField.hashType).toMatch(/^hashType: .*SHA256/);
    expect(byField.adoptId).toContain("0_ab12cd34");
    expect(byField.colour).toContain('unknown property "colour"');
  });

  it("passes unknown values through untouched during preview", async () => {
    const { inputs, failures } = await appTokenProvider.check({}, { description: UNKNOWN, keepers: { rotation: UNKNOWN } });
    expect(failures).toEqual([]);
    expect(inputs.description).toBe(UNKNOWN);
    expect(inputs.keepers).toEqual({ rotation: UNKNOWN });
  });

  it("refuses a past expiry only when it is being set", async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    expect((await appTokenProvider.check({}, { expiry: past })).failures.map((f) => f.property)).toEqual(["expiry"]);
    expect((await appTokenProvider.check({ expiry: past }, { expiry: past })).failures).toEqual([]);
  });

  it("reports a bad connection without echoing it", async () => {
    const { failures } = await appTokenProvider.check({}, { connection: { adminSecret: "", baseUrl: "ftp://x", sneaky: "s3cr3t-value" } });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.property).toBe(""); // the engine prints a property's value next to the reason
    expect(failures[0]!.reason).toContain("connection");
    expect(failures[0]!.reason).not.toContain("s3cr3t-value");
  });
});

describe("AppToken diff", () => {
  const state = {
    __provider: PROVIDER,
    tokenId: "0_a",
    token: "abc",
    hashType: "SHA256",
    sessionType: "USER",
    sessionDuration: 0,
    sessionPrivileges: "",
    sessionUserId: "",
    description: "d",
    expiry: 0,
    status: 2,
  };
  const inputs = {
    __provider: PROVIDER,
    hashType: "SHA256",
    sessionType: "USER",
    sessionDuration: 0,
    sessionPrivileges: "",
    sessionUserId: "",
    description: "d",
    expiry: 0,
  };

  it("finds no change when nothing changed, even if the serialized provider did", async () => {
    expect(await appTokenProvider.diff("0_a", state, inputs)).toMatchObject({ changes: false, replaces: [] });
    expect(await appTokenProvider.diff("0_a", state, { ...inputs, __provider: "other code" })).toMatchObject({ changes: false, replaces: [] });
  });

  it("updates in place for description and session settings", async () => {
    expect(await appTokenProvider.diff("0_a", state, { ...inputs, description: "e", sessionDuration: 60 })).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces for hashType, sessionType, expiry, keepers and adoptId", async () => {
    const diff = await appTokenProvider.diff("0_a", state, {
      ...inputs,
      hashType: "SHA512",
      sessionType: "ADMIN",
      expiry: 1,
      keepers: { r: "2" },
      adoptId: "0_b",
    });
    expect(diff.replaces.sort()).toEqual(["adoptId", "expiry", "hashType", "keepers", "sessionType"]);
    expect(diff).not.toHaveProperty("deleteBeforeReplace");
  });

  it("treats an unknown replacing value as a replacement during preview", async () => {
    expect(await appTokenProvider.diff("0_a", state, { ...inputs, hashType: UNKNOWN })).toMatchObject({ changes: true, replaces: ["hashType"] });
  });

  it("update with nothing to send keeps the state and makes no call (no connection is even configured here)", async () => {
    const { outs } = await appTokenProvider.update("0_a", state, { ...inputs, keepers: undefined });
    expect(outs).toEqual({ ...state, __provider: undefined, keepers: undefined });
    expect(outs).not.toHaveProperty("__provider");
  });

  it("ignores a changed connection", async () => {
    expect((await appTokenProvider.diff("0_a", { ...state, connection: { ks: "a" } }, { ...inputs, connection: { ks: "b" } })).changes).toBe(false);
  });
});

describe("HttpNotificationTemplate check and diff", () => {
  const good = { event: "entry.added", name: "Hook", url: "https://hooks.example.com/x", signSecret: "0123456789abcdef" };

  it("accepts a minimal template and fills defaults", async () => {
    const { inputs, failures } = await templateProvider.check({}, good);
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ method: "POST", secureHashingAlgo: "SHA256", active: true, description: "" });
  });

  it("requires https except on loopback", async () => {
    expect((await templateProvider.check({}, { ...good, url: "http://hooks.example.com/x" })).failures.map((f) => f.property)).toEqual(["url"]);
    expect((await templateProvider.check({}, { ...good, url: "http://127.0.0.1:8080/x" })).failures).toEqual([]);
    expect((await templateProvider.check({}, { ...good, url: "http://localhost:8080/x" })).failures).toEqual([]);
  });

  it("wants exactly one source template selector", async () => {
    const none = await templateProvider.check({}, { ...good, event: undefined });
    expect(none.failures[0]?.reason).toContain("exactly one of systemTemplateId, systemTemplateName or event");
    const two = await templateProvider.check({}, { ...good, systemTemplateId: "101" });
    expect(two.failures.map((f) => f.property)).toEqual(["event"]);
  });

  it("never echoes a bad signing secret", async () => {
    const { failures } = await templateProvider.check({}, { ...good, signSecret: "tiny-secret" });
    expect(failures).toEqual([{ property: "", reason: expect.stringContaining("signSecret: expected a signing secret of at least 16 characters") }]);
    expect(JSON.stringify(failures)).not.toContain("tiny-secret");
  });

  it("deletes before replacing when the systemName stays, creates first when it changes", async () => {
    const state = {
      sourceTemplateId: "101",
      event: "entry.added",
      name: "Hook",
      systemName: "HOOK",
      description: "",
      url: good.url,
      method: "POST",
      signSecret: good.signSecret,
      secureHashingAlgo: "SHA256",
      active: true,
    };
    const news = { ...state, event: "entry.ready" };
    expect(await templateProvider.diff("1", state, news)).toMatchObject({ changes: true, replaces: ["event"], deleteBeforeReplace: true });
    expect(await templateProvider.diff("1", state, { ...news, systemName: "HOOK_2" })).toMatchObject({ changes: true, replaces: ["event"] });
    expect(await templateProvider.diff("1", state, { ...news, systemName: "HOOK_2" })).not.toHaveProperty("deleteBeforeReplace");
    expect(await templateProvider.diff("1", state, { ...state, signSecret: "another-secret-1234" })).toMatchObject({ changes: true, replaces: [] });
    expect(await templateProvider.diff("1", state, { ...state })).toMatchObject({ changes: false, replaces: [] });
  });
});
