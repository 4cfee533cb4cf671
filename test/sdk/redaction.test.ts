/**
 * No secret leaves the sdk: the admin secret, app token values and ks strings never appear in events,
 * console output, error messages, toString, JSON.stringify or util.inspect of errors and session handles.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcClient, type SvcClientOptions, type TransportEvent } from "../../sdk";
import { redact } from "../../sdk/core/redact";
import { providerRuntime } from "../support/providerRuntime";
import { apiError, harness, KS } from "./helpers";

/** A provider process of this file's own, with the runtime's handlers. */
const { session, appToken: appTokenProvider } = providerRuntime();

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
      const c = new SvcClient({
        baseUrl: emu.baseUrl,
        partnerId: emu.partnerId,
        auth,
        onEvent: (e) => events.push(e),
        retry: { baseDelayMs: 1, maxDelayMs: 2 },
      });
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
    const capture = (p: Promise<unknown>) =>
      p.then(
        () => failures.push(new Error("expected a failure")),
        (e: unknown) => failures.push(e),
      );
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
    await capture(
      new SvcClient({ baseUrl: "http://127.0.0.1:1/api_v3", partnerId: 1, auth: { adminSecret: emu.adminSecret }, maxRetries: 0 }).appTokens.list(),
    );

    expect(failures.every((f) => f instanceof Error && !(f.message === "expected a failure"))).toBe(true);
    expect(events.length).toBeGreaterThan(5);
    expectClean(failures.flatMap(renderings), secrets);
    expectClean(
      events.map((e) => JSON.stringify(e)),
      secrets,
    );
    expectClean(
      consoleSpies.flatMap((s) => s.mock.calls.map((c) => inspect(c, { depth: 10 }))),
      secrets,
    );
    expectClean([...renderings(session), JSON.stringify(pipeline.sessions.current())], secrets);
  });
});

describe("redaction on the fault paths (retries, lost answers, throttling, recovery)", () => {
  it("retried session starts, lost create answers and 429s carry no secret in events, errors or the provider's events", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-redaction-"));
    process.env.SVC_PROVIDER_EVENTS_FILE = join(dir, "events.jsonl");
    const events: TransportEvent[] = [];
    const consoleSpies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m));
    try {
      const client = new SvcClient({
        baseUrl: emu.baseUrl,
        partnerId: emu.partnerId,
        auth: { adminSecret: emu.adminSecret },
        onEvent: (e) => events.push(e),
        retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 5 },
      });
      clients.push(client);
      // session.start faulted every way, then a create that loses its answer after the write, then a 429.
      emu.ctx.faults.set({ next: ["error", "drop", "commitThenDrop", "slow", "ok", "commitThenDrop", "throttle"], slowMs: 50, retryAfterSeconds: 0 });
      const failures: unknown[] = [];
      await client.appTokens.list(); // session.start: error, drop, commitThenDrop, slow (not past the timeout), ok
      await client.appTokens.add({ description: "lost answer" }).catch((e: unknown) => failures.push(e)); // commitThenDrop
      const made = await client.appTokens.add({ description: "throttled" }); // 429 then made
      const tokens = (await client.appTokens.iterate().toArray()).map((t) => t.token as string);
      const secrets = [emu.adminSecret, made.token as string, ...tokens, client.sessions.current()?.ks as string];

      // The provider's recovery path and its events file.
      const values: Record<string, string> = { "svc:baseUrl": emu.baseUrl, "svc:partnerId": String(emu.partnerId), "svc:adminSecret": emu.adminSecret };
      session.configure({ get: (key: string) => values[key] });
      emu.ctx.faults.set({ next: ["error", "ok", "commitThenError", "throttle", "ok"], retryAfterSeconds: 0 });
      const recovered = await appTokenProvider.create((await appTokenProvider.check({}, { description: "recovered" })).inputs);
      secrets.push(recovered.outs.token as string);
      await client.appTokens.add({ hashType: "SHA256", description: "twin" });
      await client.appTokens.add({ hashType: "SHA256", description: "twin" });
      emu.ctx.faults.set({ next: ["commitThenDrop"], pathIncludes: "/appToken/action/add" });
      await appTokenProvider.create((await appTokenProvider.check({}, { description: "twin" })).inputs).catch((e: unknown) => failures.push(e));
      secrets.push(...(await client.appTokens.iterate().toArray()).map((t) => t.token as string));

      expect(failures).toHaveLength(2);
      expect(String((failures[1] as Error).message)).toContain("match the declared fields");
      expect(events.some((e) => e.type === "retry" && e.action === "start")).toBe(true);
      expectClean(failures.flatMap(renderings), secrets);
      expectClean(
        events.map((e) => JSON.stringify(e)),
        secrets,
      );
      expectClean([readFileSync(join(dir, "events.jsonl"), "utf8")], secrets);
      expectClean(
        consoleSpies.flatMap((s) => s.mock.calls.map((c) => inspect(c, { depth: 10 }))),
        secrets,
      );
    } finally {
      emu.ctx.faults.set({});
      delete process.env.SVC_PROVIDER_EVENTS_FILE;
      await session.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("redaction of what the server echoes", () => {
  it("a ks, token or secret echoed in an error message or args is removed", async () => {
    const { pool, client } = harness();
    const tokenValue = "0123456789abcdef".repeat(4);
    pool
      .intercept({ path: "/api_v3/service/appToken/action/get", method: "POST" })
      .reply(200, apiError("APP_TOKEN_ID_NOT_FOUND", `Invalid KS "${KS}" for token ${tokenValue}`, { KS, TOKEN: tokenValue, ID: "0_a" }));
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

  it("redact() removes a secret parameter a message quotes or brackets", () => {
    const quoted = [
      `"ks=${KS}"`,
      `'secret=hunter22'`,
      `(adminSecret=hunter22)`,
      `[token=hunter22]`,
      `{ks=${KS}}`,
      `<ks=${KS}>`,
      `a,ks=${KS}`,
      `a;secret=hunter22`,
      `\`ks=${KS}\``,
    ];
    for (const text of quoted) {
      const out = redact(`the platform refused ${text} here`);
      expectClean([out], [KS, "hunter22"]);
      expect(out).toContain("[REDACTED]");
      expect(out).toContain("the platform refused");
    }
    // A word that merely ends in a secret's name is not a parameter.
    expect(redact("mask=1 desk=2")).toBe("mask=1 desk=2");
  });
});
