/**
 * The rules of resolveConnection as a table: which account a connection reaches and which one source its credentials
 * come from, for every combination of sources (a resource's `connection`, the provider's config: the stack config of
 * the default provider or an explicit provider's inputs, and the environment), account fields and credential fields;
 * or the ConnectionError naming the field that is missing. Then plain http: refused outside loopback unless the
 * source of the URL opts in.
 */
import { describe, expect, it } from "vitest";
import type { ConnectionInput } from "../../provider/core/connectionInput";
import { providerRuntime } from "../support/providerRuntime";
import { ConnectionError, type ConnectionSource, resolveConnection, type ResolvedConnection } from "../../provider/core/connection";

const SOURCES: ConnectionSource[] = ["connection", "provider", "environment"];

/** Each source's own account and credentials, all different, so the result shows where each value came from. */
const ACCOUNTS: Record<ConnectionSource, { baseUrl: string; partnerId: number }> = {
  connection: { baseUrl: "https://second.example/api_v3", partnerId: 11 },
  provider: { baseUrl: "https://stack.example/api_v3", partnerId: 22 },
  environment: { baseUrl: "https://ci.example/api_v3", partnerId: 33 },
};
const SECRET = (source: ConnectionSource) => `${source}-admin-secret`;
const TOKEN = (source: ConnectionSource) => ({ appTokenId: `0_${source}`, appToken: `${source}-token-value` });

type Account = "none" | "baseUrl" | "partnerId" | "both";
type Credentials = "none" | "adminSecret" | "appToken" | "appTokenIdOnly";
interface Given {
  account: Account;
  credentials: Credentials;
}
type Case = Partial<Record<ConnectionSource, Given>> & { envNamesStackAccount?: boolean };

/** The values a source holds in a case, by setting name. */
function valuesOf(source: ConnectionSource, given: Given | undefined, envNamesStackAccount: boolean): Record<string, string | number> {
  if (!given) return {};
  const account = source === "environment" && envNamesStackAccount ? ACCOUNTS.provider : ACCOUNTS[source];
  return {
    ...(given.account === "baseUrl" || given.account === "both" ? { baseUrl: account.baseUrl } : {}),
    ...(given.account === "partnerId" || given.account === "both" ? { partnerId: account.partnerId } : {}),
    ...(given.credentials === "adminSecret" ? { adminSecret: SECRET(source) } : {}),
    ...(given.credentials === "appToken" ? TOKEN(source) : {}),
    ...(given.credentials === "appTokenIdOnly" ? { appTokenId: TOKEN(source).appTokenId } : {}),
  };
}

const ENV_NAMES: Record<string, string> = {
  baseUrl: "SVC_BASE_URL",
  partnerId: "SVC_PARTNER_ID",
  adminSecret: "SVC_ADMIN_SECRET",
  appTokenId: "SVC_APP_TOKEN_ID",
  appToken: "SVC_APP_TOKEN",
};

function run(c: Case): ResolvedConnection {
  const envNamesStackAccount = c.envNamesStackAccount === true;
  const connection = c.connection ? (valuesOf("connection", c.connection, false) as ConnectionInput) : undefined;
  const provider = valuesOf("provider", c.provider, false);
  const env = Object.fromEntries(Object.entries(valuesOf("environment", c.environment, envNamesStackAccount)).map(([k, v]) => [ENV_NAMES[k], String(v)]));
  return resolveConnection(
    connection,
    (key) => (provider[key.replace(/^svc:/, "")] === undefined ? undefined : String(provider[key.replace(/^svc:/, "")])),
    env,
  );
}

/** How a message names a field of a source. */
const fieldOf = (source: ConnectionSource, key: string) =>
  source === "connection" ? `\`connection.${key}\`` : source === "provider" ? `\`svc:${key}\`` : ENV_NAMES[key]!;

const full: Given = { account: "both", credentials: "adminSecret" };

describe("the sources of a connection, as a table", () => {
  // [what, case, expected: the account (whose baseUrl and partner), the credential source, or the error's text]
  const table: [string, Case, { baseUrl: ConnectionSource; partnerId: ConnectionSource; credentials: ConnectionSource } | RegExp][] = [
    ["stack config alone", { provider: full }, { baseUrl: "provider", partnerId: "provider", credentials: "provider" }],
    ["environment alone (a CI job's variables)", { environment: full }, { baseUrl: "environment", partnerId: "environment", credentials: "environment" }],
    [
      "stack config with credentials and no account never sends them to the environment's account",
      { provider: { account: "none", credentials: "appToken" }, environment: full },
      /No platform URL: `svc:appTokenId`, `svc:appToken` are set, so `svc:baseUrl` must be set too; SVC_BASE_URL is never used/,
    ],
    [
      "an explicit provider with its partner and credentials and no URL takes no SVC_BASE_URL (another platform's)",
      { provider: { account: "partnerId", credentials: "adminSecret" }, environment: full },
      /No platform URL: `svc:partnerId`, `svc:adminSecret` are set, so `svc:baseUrl` must be set too; SVC_BASE_URL is never used/,
    ],
    [
      "nor SVC_PARTNER_ID for one with its URL and credentials",
      { provider: { account: "baseUrl", credentials: "adminSecret" }, environment: full, envNamesStackAccount: true },
      /No partner id: `svc:baseUrl`, `svc:adminSecret` are set, so `svc:partnerId` must be set too; SVC_PARTNER_ID is never used/,
    ],
    [
      "a connection with credentials only: the URL from the connection or the stack, never the environment",
      { connection: { account: "none", credentials: "adminSecret" }, environment: full },
      /No platform URL: `connection.adminSecret` is set, so `connection.baseUrl` or `svc:baseUrl` must be set too/,
    ],
    [
      "explicit provider (or stack config) naming only its account never takes SVC_* credentials of another account",
      { provider: { account: "both", credentials: "none" }, environment: full },
      /No credentials for the account `svc:baseUrl` and `svc:partnerId` names: set `svc:appTokenId` with `svc:appToken`, or `svc:adminSecret`, or `svc:ks`.*SVC_BASE_URL and SVC_PARTNER_ID/,
    ],
    [
      "explicit provider naming only its partner: no URL from the environment either",
      { provider: { account: "partnerId", credentials: "none" }, environment: full },
      /No platform URL: `svc:partnerId` is set, so `svc:baseUrl` must be set too/,
    ],
    [
      "explicit provider naming only its URL: no partner from the environment either",
      { provider: { account: "baseUrl", credentials: "none" }, environment: full },
      /No partner id: `svc:baseUrl` is set, so `svc:partnerId` must be set too/,
    ],
    [
      "SVC_* credentials serve the stack's account when the environment names that same account",
      { provider: { account: "both", credentials: "none" }, environment: full, envNamesStackAccount: true },
      { baseUrl: "provider", partnerId: "provider", credentials: "environment" },
    ],
    [
      "credentials without an account in the environment never serve a named account",
      { provider: { account: "both", credentials: "none" }, environment: { account: "none", credentials: "appToken" } },
      /No credentials for the account `svc:baseUrl` and `svc:partnerId` names/,
    ],
    [
      "a connection with only a baseUrl is never sent the stack's credentials",
      { connection: { account: "baseUrl", credentials: "none" }, provider: full },
      /No credentials in the connection: `connection.baseUrl` names an account, so the connection must bring its own credentials \(set `connection.appTokenId` with `connection.appToken`, or `connection.adminSecret`, or `connection.ks`\)/,
    ],
    [
      "nor one with only a partnerId",
      { connection: { account: "partnerId", credentials: "none" }, provider: full },
      /`connection.partnerId` names an account, so the connection must bring its own credentials/,
    ],
    [
      "nor the environment's",
      { connection: { account: "both", credentials: "none" }, environment: full },
      /`connection.baseUrl` and `connection.partnerId` names an account/,
    ],
    [
      "a connection with its account and credentials",
      { connection: full, provider: full, environment: full },
      { baseUrl: "connection", partnerId: "connection", credentials: "connection" },
    ],
    [
      "a connection with a partner and its credentials, on the stack's platform",
      { connection: { account: "partnerId", credentials: "appToken" }, provider: full },
      { baseUrl: "provider", partnerId: "connection", credentials: "connection" },
    ],
    [
      "a connection with credentials only: the stack's account, the connection's credentials",
      { connection: { account: "none", credentials: "adminSecret" }, provider: full },
      { baseUrl: "provider", partnerId: "provider", credentials: "connection" },
    ],
    [
      "a connection with neither: the stack's connection",
      { connection: { account: "none", credentials: "none" }, provider: full, environment: full },
      { baseUrl: "provider", partnerId: "provider", credentials: "provider" },
    ],
    [
      "an app token id without its value is never completed from another source",
      { provider: { account: "both", credentials: "appTokenIdOnly" }, environment: { account: "both", credentials: "appToken" }, envNamesStackAccount: true },
      /An app token needs both `svc:appTokenId` and `svc:appToken`, from the same source/,
    ],
    [
      "no URL anywhere",
      { provider: { account: "partnerId", credentials: "adminSecret" } },
      /No platform URL: `svc:partnerId`, `svc:adminSecret` are set, so `svc:baseUrl` must be set too/,
    ],
    [
      "no URL anywhere, nothing set but the environment's partner",
      { environment: { account: "partnerId", credentials: "adminSecret" } },
      /No platform URL: set `svc:baseUrl` \(stack config\) or SVC_BASE_URL/,
    ],
    [
      "no partner anywhere",
      { connection: { account: "baseUrl", credentials: "adminSecret" } },
      /No partner id: `connection.baseUrl`, `connection.adminSecret` are set, so `connection.partnerId` or `svc:partnerId` must be set too/,
    ],
    ["no credentials anywhere", { environment: { account: "both", credentials: "none" } }, /No credentials: set `svc:appTokenId`/],
    [
      "no credentials anywhere, the stack naming the account: the stack's fields are named",
      { provider: { account: "both", credentials: "none" } },
      /No credentials for the account `svc:baseUrl` and `svc:partnerId` names: set `svc:appTokenId` with `svc:appToken`/,
    ],
    [
      "no credentials anywhere, a connection naming the account: the connection's fields are named",
      { connection: { account: "baseUrl", credentials: "none" }, provider: { account: "partnerId", credentials: "none" } },
      /No credentials in the connection: `connection.baseUrl` names an account/,
    ],
  ];

  it.each(table)("%s", (_what, c, expected) => {
    if (expected instanceof RegExp) {
      expect(() => run(c)).toThrow(ConnectionError);
      expect(() => run(c)).toThrow(expected);
      return;
    }
    const resolved = run(c);
    const envIsStack = c.envNamesStackAccount === true;
    const accountOf = (source: ConnectionSource) => (source === "environment" && envIsStack ? ACCOUNTS.provider : ACCOUNTS[source]);
    expect(resolved.baseUrl).toBe(accountOf(expected.baseUrl).baseUrl);
    expect(resolved.partnerId).toBe(accountOf(expected.partnerId).partnerId);
    expect(resolved.credentialSource).toBe(expected.credentials);
    const credentials = c[expected.credentials]?.credentials;
    expect(resolved.auth).toEqual(
      credentials === "appToken" ? { ...TOKEN(expected.credentials), hashType: undefined } : { adminSecret: SECRET(expected.credentials) },
    );
  });

  /**
   * Every combination of the three sources × the account fields each names × the credentials each brings (and the
   * environment naming its own account or the stack's): 8192 cases. The expectation is the rule as the docs state
   * it, computed here on its own; the resolver must agree on every case, and a failure must name a field.
   */
  it("agrees with the stated rule on every combination", () => {
    const accounts: Account[] = ["none", "baseUrl", "partnerId", "both"];
    const credentials: Credentials[] = ["none", "adminSecret", "appToken", "appTokenIdOnly"];
    const givens = accounts.flatMap((account) => credentials.map((cred) => ({ account, credentials: cred })));
    let cases = 0;
    let resolvedCount = 0;
    for (const connection of givens)
      for (const provider of givens)
        for (const environment of givens)
          for (const envNamesStackAccount of [false, true]) {
            const c: Case = { connection, provider, environment, envNamesStackAccount };
            cases++;
            const expected = stated(c);
            let outcome: ResolvedConnection | Error;
            try {
              outcome = run(c);
            } catch (error) {
              outcome = error as Error;
            }
            const label = JSON.stringify(c);
            if (typeof expected === "string") {
              expect(outcome, label).toBeInstanceOf(ConnectionError);
              expect((outcome as Error).message, label).toContain(expected);
              continue;
            }
            resolvedCount++;
            expect(outcome, label).not.toBeInstanceOf(Error);
            const resolved = outcome as ResolvedConnection;
            expect({ baseUrl: resolved.baseUrl, partnerId: resolved.partnerId, source: resolved.credentialSource }, label).toEqual(expected);
            // Every credential value is the credential source's own.
            const text = JSON.stringify(resolved.auth);
            for (const other of SOURCES.filter((s) => s !== resolved.credentialSource)) expect(text, label).not.toContain(other);
          }
    expect(cases).toBe(8192);
    // Both outcomes are well represented: the table is not all errors.
    expect(resolvedCount).toBeGreaterThan(1000);
    expect(cases - resolvedCount).toBeGreaterThan(1000);
  });
});

/**
 * The rule, as docs/resources.md states it: each setting from the nearest source that sets it, but a connection or
 * provider that sets any account field or credential takes no account field from the environment; all credentials from
 * the nearest source that brings any, and no nearer source may name an account, unless that source is the
 * environment and it names the very account resolved. Returns the account and credential source, or a text the
 * error must contain (naming the field).
 */
function stated(c: Case): { baseUrl: string; partnerId: number; source: ConnectionSource } | string {
  const envNamesStackAccount = c.envNamesStackAccount === true;
  const values = Object.fromEntries(SOURCES.map((s) => [s, valuesOf(s, c[s], envNamesStackAccount)])) as Record<
    ConnectionSource,
    Record<string, string | number>
  >;
  // One account, one source: a connection or provider that sets any account field or credential takes none from the environment.
  const given: ConnectionSource[] = ["connection", "provider"];
  const namer = given.find((s) => ["baseUrl", "partnerId", "adminSecret", "appTokenId", "appToken"].some((k) => values[s][k] !== undefined));
  const reach = namer ? given : SOURCES;
  const nearest = (key: string) => reach.find((s) => values[s][key] !== undefined);
  const where = (key: string) => (namer === "connection" ? `${fieldOf("connection", key)} or ${fieldOf("provider", key)}` : fieldOf("provider", key));
  const baseSource = nearest("baseUrl");
  if (!baseSource && namer) return `so ${where("baseUrl")} must be set too; SVC_BASE_URL is never used`;
  if (!baseSource) return "No platform URL: set `svc:baseUrl` (stack config) or SVC_BASE_URL";
  const partnerSource = nearest("partnerId");
  if (!partnerSource && namer) return `so ${where("partnerId")} must be set too; SVC_PARTNER_ID is never used`;
  if (!partnerSource) return "No partner id: set `svc:partnerId` (stack config) or SVC_PARTNER_ID";
  const baseUrl = values[baseSource].baseUrl as string;
  const partnerId = values[partnerSource].partnerId as number;
  const owner = SOURCES.findIndex((s) => values[s].baseUrl !== undefined || values[s].partnerId !== undefined);
  const holder = SOURCES.findIndex((s) => ["adminSecret", "appTokenId", "appToken"].some((k) => values[s][k] !== undefined));
  const env = values.environment;
  const envIsThisAccount = SOURCES[holder] === "environment" && env.baseUrl === baseUrl && env.partnerId === partnerId;
  if (holder === -1 || (holder > owner && !envIsThisAccount)) {
    const ownerSource = SOURCES[owner]!;
    // The error names the credential fields of the source that named the account (every source's, when that is the environment).
    return ownerSource === "environment" ? "No credentials: set `svc:appTokenId`" : fieldOf(ownerSource, "adminSecret");
  }
  const source = SOURCES[holder]!;
  if (values[source].appTokenId !== undefined && values[source].appToken === undefined) return fieldOf(source, "appToken");
  return { baseUrl, partnerId, source };
}

describe("plain http", () => {
  const stack = { "svc:partnerId": "1", "svc:adminSecret": "stack-secret" };
  const lookup = (values: Record<string, string>) => (key: string) => values[key];

  it("is refused outside loopback, saying why and how to opt in, wherever the URL comes from", () => {
    const cases: [string, () => ResolvedConnection][] = [
      ["`svc:baseUrl`", () => resolveConnection(undefined, lookup({ ...stack, "svc:baseUrl": "http://platform.internal/api_v3" }), {})],
      ["SVC_BASE_URL", () => resolveConnection(undefined, lookup({}), { SVC_BASE_URL: "http://10.1.2.3:8080/api_v3", SVC_PARTNER_ID: "1", SVC_KS: "k" })],
      ["`connection.baseUrl`", () => resolveConnection({ baseUrl: "http://second.example/api_v3", adminSecret: "s" }, lookup(stack), {})],
    ];
    for (const [field, resolve] of cases) {
      expect(resolve).toThrow(ConnectionError);
      expect(resolve).toThrow(new RegExp(`^${field}: http://\\S+ is plain http to a host outside loopback: the credentials .* would travel unencrypted`));
      expect(resolve).toThrow(/Use https:\/\/, or, only on a network you trust, opt in with .*allowInsecureHttp|SVC_ALLOW_INSECURE_HTTP=true/);
    }
  });

  it("is allowed on loopback without any setting", () => {
    for (const url of ["http://127.0.0.1:4010/api_v3", "http://127.8.9.10/api_v3", "http://localhost:4010/api_v3", "http://[::1]:4010/api_v3"]) {
      expect(resolveConnection(undefined, lookup({ ...stack, "svc:baseUrl": url }), {}).baseUrl).toBe(url);
    }
    // A name that only starts like loopback is not loopback.
    expect(() => resolveConnection(undefined, lookup({ ...stack, "svc:baseUrl": "http://127.0.0.1.example.com/api_v3" }), {})).toThrow(/plain http/);
  });

  it("is allowed by the opt-in of the source that gives the URL, and by no other", () => {
    const optedIn = resolveConnection(undefined, lookup({ ...stack, "svc:baseUrl": "http://platform.internal/api_v3", "svc:allowInsecureHttp": "true" }), {});
    expect(optedIn).toMatchObject({ baseUrl: "http://platform.internal/api_v3", allowInsecureHttp: true });
    const env = { SVC_BASE_URL: "http://10.1.2.3/api_v3", SVC_PARTNER_ID: "1", SVC_KS: "k", SVC_ALLOW_INSECURE_HTTP: "true" };
    expect(resolveConnection(undefined, lookup({}), env).allowInsecureHttp).toBe(true);
    const connection = { baseUrl: "http://second.example/api_v3", adminSecret: "s", allowInsecureHttp: true };
    expect(resolveConnection(connection, lookup(stack), {}).allowInsecureHttp).toBe(true);

    // The stack's opt-in does not cover a URL a connection chose, nor the environment's a URL of the stack config.
    const stackOptIn = lookup({ ...stack, "svc:baseUrl": "https://stack.example/api_v3", "svc:allowInsecureHttp": "true" });
    expect(() => resolveConnection({ baseUrl: "http://second.example/api_v3", adminSecret: "s" }, stackOptIn, {})).toThrow(
      /`connection.baseUrl`: .*opt in with `allowInsecureHttp: true` in the same connection/,
    );
    expect(() =>
      resolveConnection(undefined, lookup({ ...stack, "svc:baseUrl": "http://platform.internal/api_v3" }), { SVC_ALLOW_INSECURE_HTTP: "true" }),
    ).toThrow(/`svc:baseUrl`: .*opt in with `pulumi config set svc:allowInsecureHttp true`/);
    // An https URL needs no opt-in, and an opt-in of false is no opt-in.
    expect(() =>
      resolveConnection(undefined, lookup({ ...stack, "svc:baseUrl": "http://platform.internal/api_v3", "svc:allowInsecureHttp": "false" }), {}),
    ).toThrow(/plain http/);
  });
});

describe("a resource's check", () => {
  it("reports a connection that names an account without credentials, before any call (pulumi preview)", async () => {
    const stack: Record<string, string> = { "svc:baseUrl": "https://stack.example/api_v3", "svc:partnerId": "22", "svc:adminSecret": "stack-admin-secret" };
    const { session, appToken } = providerRuntime();
    session.configure({ get: (key) => stack[key] }, {});
    try {
      const { failures } = await appToken.check({}, { description: "x", connection: { baseUrl: "https://second.example/api_v3" } });
      expect(failures).toEqual([
        { property: "", reason: expect.stringMatching(/^connection: No credentials in the connection: `connection.baseUrl` names an account/) },
      ]);
      expect((await appToken.check({}, { description: "x", connection: { partnerId: 11, adminSecret: "second" } })).failures).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
