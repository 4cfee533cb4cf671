/**
 * No secret leaves the sdk: the admin secret, app token values and ks strings never appear in events,
 * console output, error messages, toString, JSON.stringify or util.inspect of errors and session handles.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcClient, type SvcClientOptions, type TransportEvent } from "../../sdk";
import { redact } from "../../sdk/redact";
import { apiError, harness, KS } from "./helpers";

let emu: RunningEmulator;
const clients: SvcClient[] = [];
beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await emu?.close();
});

function renderings(value: unknown): string[] {
  const out = [String(value), JSON.stringify(value) ?? "", inspect(value, { depth: 10, showHidden: true })];
  if (value instanceof Error) out.push(value.message, value.stack ?? "", inspect(value.cause, { depth: 10 }));
  return out;
}

function expectClean(texts: string[], secrets: string[]): void {
  for (const text of texts) for (const secret of secrets) expect(text.includes(secret), `leaked ${secret.slice(0, 6)}… in: ${text.slice(0, 200)}`).toBe(false);
}

describe("redaction against the emulator", () => {
  it("events, console, errors and session handles carry no admin secret, token value or ks", async () => {
    const events: TransportEvent[] = [];
    const consoleSpies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m));
    const make = (auth: SvcClientOptions["auth"]) => {
      const c = new SvcClient({ baseUrl: emu.baseUrl, partnerId: emu.partnerId, auth, onEvent: (e) => events.push(e), retry: { baseDelayMs: 1, maxDelayMs: 2 } });
      clients.push(c);
      return c;
    };
    const admin = make({ adminSecret: emu.adminSecret });
    const token = await admin.appTokens.add({ hashType: "SHA256", sessionType: 2, sessionPrivileges: "disableentitlement" });
    const tokenValue = token.token as string;
    const session = await admin.sessions.start();
    const secrets = [emu.adminSecret, tokenValue, session.ks];

    const pipeline = make({ appTokenId: token.id, appToken: tokenValue });
    await pipeline.appTokens.list();
    const pipelineKs = pipeline.sessions.current()?.ks as string;
    secrets.push(pipelineKs);

    const failures: unknown[] = [];
    const capture = (p: Promise<unknown>) => p.then(() => failures.push(new Error("expected a failure")), (e: unknown) => failures.push(e));
    await capture(make({ appTokenId: token.id, appToken: "f".repeat(64) }).appTokens.list()); // INVALID_APP_TOKEN_HASH
    await capture(make({ adminSecret: `${emu.adminSecret}-wrong` }).appTokens.list()); // START_SESSION_ERROR
    const given = make({ ks: session.ks });
    await admin.sessions.service.end(session.ks);
    await capture(given.appTokens.list()); // INVALID_KS, not renewable
    await capture(admin.appTokens.get("0_nope")); // APP_TOKEN_ID_NOT_FOUND
    await capture(admin.appTokens.add({ hashType: "nope" as "MD5" })); // validation
    try {
      make({ appTokenId: token.id, appToken: `${tokenValue}zz` });
    } catch (error) {
      failures.push(error); // validation of the auth block, before any call
    }
    await capture(new SvcClient({ baseUrl: "http://127.0.0.1:1/api_v3", partnerId: 1, auth: { adminSecret: emu.adminSecret }, maxRetries: 0 }).appTokens.list());

    expect(failures.every((f) => f instanceof Error && !(f.message === "expected a failure"))).toBe(true);
    expect(events.length).toBeGreaterThan(5);
    expectClean(failures.flatMap(renderings), secrets);
    expectClean(events.map((e) => JSON.stringify(e)), secrets);
    expectClean(consoleSpies.flatMap((s) => s.mock.calls.map((c) => inspect(c, { depth: 10 }))), secrets);
    expectClean([...renderings(session), JSON.stringify(pipeline.sessions.current())], secrets);
  });
});

describe("redaction of what the server echoes", () => {
  it("a ks, token or secret echoed in an error message or args is removed", async () => {
    const { pool, client } = harness();
    const tokenValue = "0123456789abcdef".repeat(4);
    pool.intercept({ path: "/api_v3/service/appToken/action/get", method: "POST" }).reply(200, apiError("APP_TOKEN_ID_NOT_FOUND", `Invalid KS "${KS}" for token ${tokenValue}`, { KS, TOKEN: tokenValue, ID: "0_a" }));
    const error = await client.appTokens.get("0_a").catch((e: unknown) => e);
    expectClean(renderings(error), [KS, tokenValue]);
    expect((error as { args: Record<string, unknown> }).args).toMatchObject({ ID: "0_a" });
  });

  it("redact() removes ks, JWT, Authorization and secret form parameters but keeps ordinary text", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
    const text = `ks=${KS}&id=0_a&secret=hunter22 Authorization: Bearer ${jwt} appToken[hashType]=SHA256`;
    const out = redact(text);
    expectClean([out], [KS, "hunter22", jwt]);
    expect(out).toContain("id=0_a");
    expect(out).toContain("appToken[hashType]=SHA256");
  });
});
