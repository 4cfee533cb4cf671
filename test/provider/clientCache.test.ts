/**
 * ClientCache.clientFor: one sdk client per connection, found again from the texts the connection resolves from
 * without resolving it again. A changed text (the environment's included, changed without a new configure) resolves
 * again; equal texts give the same client; the cache's keys never hold a secret.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SvcClient, type SvcClientOptions } from "../../sdk";
import { createAgent } from "../../sdk/svcClient";
import { ClientCache } from "../../provider/core/clients";
import { ConnectionError } from "../../provider/core/connection";

const ADMIN_SECRET = "stack-admin-secret-value";
const stackConfig = (values: Record<string, string>) => ({ get: (key: string) => values[key] });
const STACK = { "svc:baseUrl": "https://stack.example/api_v3", "svc:partnerId": "22", "svc:adminSecret": ADMIN_SECRET };

/** A cache whose clients are real sdk clients, each one's options kept (which account it reaches, with what). */
function cacheWithMadeClients() {
  const made: SvcClientOptions[] = [];
  class RecordedClient extends SvcClient {
    constructor(options: SvcClientOptions) {
      super(options);
      made.push(options);
    }
  }
  const cache = new ClientCache({ sdk: () => ({ SvcClient: RecordedClient, createAgent }), callTimeoutMs: 60_000, onEvent: () => undefined });
  caches.push(cache);
  return { cache, made };
}

const caches: ClientCache[] = [];
afterEach(async () => {
  await Promise.all(caches.splice(0).map((cache) => cache.close()));
});

const keysOf = (cache: ClientCache): string[] => [...(cache as unknown as { byTexts: Map<string, unknown> }).byTexts.keys()];

describe("ClientCache.clientFor", () => {
  it("gives the same client for the same connection, made once", () => {
    const { cache, made } = cacheWithMadeClients();
    cache.configure(stackConfig(STACK), {});
    const first = cache.clientFor(undefined);
    expect(cache.clientFor(undefined)).toBe(first);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ baseUrl: STACK["svc:baseUrl"], partnerId: 22, auth: { adminSecret: ADMIN_SECRET } });
  });

  it("resolves again when the environment changes without a new configure, and finds the first client when it changes back", () => {
    const { cache, made } = cacheWithMadeClients();
    const env: NodeJS.ProcessEnv = { SVC_BASE_URL: "https://ci.example/api_v3", SVC_PARTNER_ID: "33", SVC_ADMIN_SECRET: "ci-secret-one" };
    cache.configure(stackConfig({}), env);
    const first = cache.clientFor(undefined);
    env.SVC_BASE_URL = "https://other.example/api_v3";
    const second = cache.clientFor(undefined);
    expect(second).not.toBe(first);
    expect(made.map((options) => options.baseUrl)).toEqual(["https://ci.example/api_v3", "https://other.example/api_v3"]);
    env.SVC_BASE_URL = "https://ci.example/api_v3";
    expect(cache.clientFor(undefined)).toBe(first);
    // A setting that is not the account's changes the client too (each client has its own timeout).
    env.SVC_REQUEST_TIMEOUT_MS = "1234";
    const third = cache.clientFor(undefined);
    expect(third).not.toBe(first);
    expect(cache.requestTimeoutMs(third)).toBe(1234);
  });

  it("gives another client when only a secret differs", () => {
    const { cache, made } = cacheWithMadeClients();
    const env: NodeJS.ProcessEnv = { SVC_BASE_URL: "https://ci.example/api_v3", SVC_PARTNER_ID: "33", SVC_ADMIN_SECRET: "ci-secret-one" };
    cache.configure(stackConfig({}), env);
    const first = cache.clientFor(undefined);
    env.SVC_ADMIN_SECRET = "ci-secret-two";
    const second = cache.clientFor(undefined);
    expect(second).not.toBe(first);
    expect(made.map((options) => options.auth)).toEqual([{ adminSecret: "ci-secret-one" }, { adminSecret: "ci-secret-two" }]);
    env.SVC_ADMIN_SECRET = "ci-secret-one";
    expect(cache.clientFor(undefined)).toBe(first);
  });

  it("shares one client between resources whose connections are equal (each its own object)", () => {
    const { cache, made } = cacheWithMadeClients();
    cache.configure(stackConfig(STACK), {});
    const connection = () => ({ baseUrl: "https://second.example/api_v3", partnerId: 11, adminSecret: "connection-secret" });
    const first = cache.clientFor({ connection: connection() });
    expect(cache.clientFor({ connection: connection() })).toBe(first);
    expect(cache.clientFor(undefined)).not.toBe(first);
    expect(made.map((options) => options.baseUrl)).toEqual(["https://second.example/api_v3", STACK["svc:baseUrl"]]);
  });

  it("gives another client after a configure with other stack config", () => {
    const { cache, made } = cacheWithMadeClients();
    cache.configure(stackConfig(STACK), {});
    const first = cache.clientFor(undefined);
    cache.configure(stackConfig({ ...STACK, "svc:partnerId": "23" }), {});
    expect(cache.clientFor(undefined)).not.toBe(first);
    expect(made.map((options) => options.partnerId)).toEqual([22, 23]);
  });

  it("keeps no failed resolution: the error comes each time, and a fixed environment then resolves", () => {
    const { cache } = cacheWithMadeClients();
    const env: NodeJS.ProcessEnv = { SVC_PARTNER_ID: "33", SVC_ADMIN_SECRET: "ci-secret-one" };
    cache.configure(stackConfig({}), env);
    expect(() => cache.clientFor(undefined)).toThrow(ConnectionError);
    expect(() => cache.clientFor(undefined)).toThrow(/No platform URL/);
    env.SVC_BASE_URL = "https://ci.example/api_v3";
    expect(cache.clientFor(undefined)).toBeInstanceOf(SvcClient);
  });

  it("holds no secret in its keys", () => {
    const { cache } = cacheWithMadeClients();
    const env: NodeJS.ProcessEnv = { SVC_APP_TOKEN_ID: "0_env", SVC_APP_TOKEN: "e1e2e3e4e5e6", SVC_KS: "env-ks-value" };
    cache.configure(stackConfig(STACK), env);
    cache.clientFor(undefined);
    cache.clientFor({ connection: { baseUrl: "https://second.example/api_v3", partnerId: 11, appTokenId: "0_token", appToken: "c1c2c3c4c5c6" } });
    cache.clientFor({ connection: { baseUrl: "https://third.example/api_v3", partnerId: 12, ks: "connection-ks-value" } });
    const keys = keysOf(cache);
    expect(keys).toHaveLength(3);
    for (const secret of [ADMIN_SECRET, "e1e2e3e4e5e6", "env-ks-value", "c1c2c3c4c5c6", "connection-ks-value"])
      for (const key of keys) expect(key).not.toContain(secret);
    // The keys do hold what is not secret (they tell the connections apart).
    expect(keys.join("\n")).toContain("https://second.example/api_v3");
  });

  it("accountOf follows the same texts: a changed environment reaches the new account, an unresolved one is undefined each time", () => {
    const { cache, made } = cacheWithMadeClients();
    const env: NodeJS.ProcessEnv = { SVC_BASE_URL: "https://ci.example/api_v3", SVC_PARTNER_ID: "33", SVC_ADMIN_SECRET: "ci-secret-one" };
    cache.configure(stackConfig({}), env);
    expect(cache.accountOf(undefined)).toEqual({ baseUrl: "https://ci.example/api_v3", partnerId: 33 });
    env.SVC_PARTNER_ID = "34";
    expect(cache.accountOf(undefined)).toEqual({ baseUrl: "https://ci.example/api_v3", partnerId: 34 });
    delete env.SVC_BASE_URL;
    expect(cache.accountOf(undefined)).toBeUndefined();
    expect(cache.accountOf(undefined)).toBeUndefined();
    env.SVC_BASE_URL = "https://ci.example/api_v3";
    expect(cache.accountOf(undefined)).toEqual({ baseUrl: "https://ci.example/api_v3", partnerId: 34 });
    // No client is made to know an account; the client made later is the one of that account.
    expect(made).toHaveLength(0);
    expect(cache.clientFor(undefined)).toBe(cache.clientFor(undefined));
    expect(made.map((options) => options.partnerId)).toEqual([34]);
  });
});
