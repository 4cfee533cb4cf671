/** Where the provider's connection comes from, and how it fails: clearly, naming the settings, never the secrets. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConnectionError, resolveConnection, SETTINGS } from "../../provider/core/connection";

const config = (values: Record<string, string>) => (key: string) => values[key];

describe("resolveConnection", () => {
  it("reads stack config, with the environment as fallback for settings and for the environment's own account", () => {
    const resolved = resolveConnection(
      undefined,
      config({ "svc:baseUrl": "https://a.example/api_v3", "svc:partnerId": "12", "svc:requestTimeoutMs": "5000" }),
      { SVC_BASE_URL: "https://a.example/api_v3/", SVC_PARTNER_ID: "12", SVC_ADMIN_SECRET: "from-env", SVC_MAX_CONCURRENCY: "4" },
    );
    expect(resolved).toEqual({
      baseUrl: "https://a.example/api_v3",
      partnerId: 12,
      auth: { adminSecret: "from-env" },
      requestTimeoutMs: 5_000,
      maxConcurrency: 4,
      allowInsecureHttp: false,
      credentialSource: "environment",
    });
  });

  it("an explicit connection with credentials takes none from the stack's config (another account's)", () => {
    const stack = config({ "svc:baseUrl": "https://a.example/api_v3", "svc:partnerId": "12", "svc:appTokenId": "0_stack", "svc:appToken": "stack-token" });
    const resolved = resolveConnection({ partnerId: 34, adminSecret: "second-account" }, stack, {});
    expect(resolved).toMatchObject({ baseUrl: "https://a.example/api_v3", partnerId: 34, auth: { adminSecret: "second-account" } });
    // Without credentials or an account of its own, it uses the stack's.
    expect(resolveConnection({ requestTimeoutMs: 5 }, stack, {}).auth).toMatchObject({ appTokenId: "0_stack" });
  });

  it("svc:maxConcurrency sets the requests in flight (default 8); a bad value is refused naming the setting", () => {
    const base = { "svc:baseUrl": "https://a.example/api_v3", "svc:partnerId": "12", "svc:adminSecret": "s" };
    expect(resolveConnection(undefined, config({ ...base, "svc:maxConcurrency": "3" }), {}).maxConcurrency).toBe(3);
    expect(resolveConnection(undefined, config(base), { SVC_MAX_CONCURRENCY: "20" }).maxConcurrency).toBe(20);
    expect(() => resolveConnection(undefined, config({ ...base, "svc:maxConcurrency": "0" }), {})).toThrow(
      /svc:maxConcurrency must be a whole number from 1 to 1000/,
    );
    expect(() => resolveConnection(undefined, config({ ...base, "svc:maxConcurrency": "many" }), {})).toThrow(/svc:maxConcurrency/);
  });

  it("prefers an explicit connection over config, and config over the environment", () => {
    const env = { SVC_BASE_URL: "https://env.example/api_v3", SVC_PARTNER_ID: "3", SVC_KS: "env-ks", SVC_REQUEST_TIMEOUT_MS: "7" };
    const fromConfig = resolveConnection(
      undefined,
      config({ "svc:requestTimeoutMs": "9", "svc:baseUrl": "https://cfg.example/api_v3", "svc:partnerId": "5", "svc:adminSecret": "cfg" }),
      env,
    );
    expect(fromConfig).toMatchObject({
      baseUrl: "https://cfg.example/api_v3",
      requestTimeoutMs: 9,
      auth: { adminSecret: "cfg" },
      credentialSource: "provider",
    });
    // Config credentials are never sent to the environment's URL: the account comes with them, or it is an error.
    expect(() => resolveConnection(undefined, config({ "svc:adminSecret": "cfg" }), env)).toThrow(
      /No platform URL: `svc:adminSecret` is set, so `svc:baseUrl` must be set too; SVC_BASE_URL is never used/,
    );
    const explicit = resolveConnection(
      { baseUrl: "https://second.example/api_v3", partnerId: 99, adminSecret: "second" },
      config({ "svc:baseUrl": "https://cfg.example/api_v3" }),
      env,
    );
    expect(explicit).toMatchObject({ baseUrl: "https://second.example/api_v3", partnerId: 99, auth: { adminSecret: "second" } });
  });

  it("prefers an app token over the admin secret (the pipeline way)", () => {
    const resolved = resolveConnection(
      undefined,
      config({
        "svc:baseUrl": "https://a.example/api_v3",
        "svc:partnerId": "1",
        "svc:adminSecret": "admin",
        "svc:appTokenId": "0_abc",
        "svc:appToken": "f00d",
      }),
      {},
    );
    expect(resolved.auth).toEqual({ appTokenId: "0_abc", appToken: "f00d" });
    expect(resolved.auth).toHaveProperty("hashType", undefined);
  });

  it("names the missing settings and never the secrets", () => {
    const secrets = { SVC_ADMIN_SECRET: "super-secret-admin", SVC_APP_TOKEN: "secret-token-value" };
    expect(() => resolveConnection(undefined, config({}), secrets)).toThrow(/svc:baseUrl.*SVC_BASE_URL/);
    expect(() => resolveConnection(undefined, config({ "svc:baseUrl": "https://a/api_v3" }), secrets)).toThrow(/svc:partnerId/);
    let message = "";
    try {
      resolveConnection(undefined, config({ "svc:baseUrl": "https://a/api_v3", "svc:partnerId": "1" }), { SVC_APP_TOKEN: "secret-token-value" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("svc:appTokenId");
    expect(message).not.toContain("secret-token-value");
    expect(() => resolveConnection(undefined, config({ "svc:baseUrl": "https://a/api_v3", "svc:partnerId": "1" }), {})).toThrow(
      /No credentials for the account `svc:baseUrl` and `svc:partnerId` names: .*--secret/,
    );
  });

  it("refuses a value of svc:allowInsecureHttp other than true or false, naming it", () => {
    const stack = { "svc:baseUrl": "https://a.example/api_v3", "svc:partnerId": "1", "svc:adminSecret": "s" };
    expect(() => resolveConnection(undefined, config({ ...stack, "svc:allowInsecureHttp": "yes" }), {})).toThrow(
      /`svc:allowInsecureHttp` must be true or false/,
    );
    expect(resolveConnection(undefined, config({ ...stack, "svc:allowInsecureHttp": "TRUE" }), {}).allowInsecureHttp).toBe(true);
    expect(() => resolveConnection({ baseUrl: "https://b.example/api_v3", adminSecret: "t" }, config(stack), {})).not.toThrow();
    expect(() => resolveConnection(undefined, config({ ...stack, "svc:baseUrl": "ftp://a" }), {})).toThrow(ConnectionError);
  });

  it("every setting is listed where a reader looks for it: the README's table and docs/plugin.md (docs/resources.md is generated)", () => {
    const readme = readFileSync(join(__dirname, "..", "..", "README.md"), "utf8");
    const plugin = readFileSync(join(__dirname, "..", "..", "docs", "plugin.md"), "utf8");
    for (const setting of Object.values(SETTINGS)) {
      const row = readme.split("\n").find((line) => line.startsWith("|") && line.includes(`\`${setting.config}\``));
      expect(row, setting.config).toContain(`\`${setting.env}\``);
      expect(plugin, setting.config).toContain(`\`${setting.config}\``);
    }
  });
});
