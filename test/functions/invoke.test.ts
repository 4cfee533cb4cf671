/**
 * The provider functions as the plugin serves them (Invoke), against an emulator in this process, with no engine:
 * each lookup and its filters, the token value a secret (and present only with an admin connection), errors that
 * name the account and what was searched (never a URL's userinfo nor a secret), and arguments checked before any call.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { SvcProviderServer } from "../../plugin/server";
import { secret } from "../../plugin/properties";
import { DEFINITIONS } from "../../provider/definitions";
import { SvcClient } from "../../sdk";

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const server = new SvcProviderServer(DEFINITIONS, "0.0.0-test");
let emulator: RunningEmulator;
let client: SvcClient;

function call<T>(method: "invoke" | "configure", request: unknown): Promise<T> {
  return new Promise((resolve, reject) =>
    (server[method] as (call: unknown, cb: (error: unknown, value?: unknown) => void) => void)({ request }, (error, value) =>
      error ? reject(error) : resolve(value as T),
    ),
  );
}

async function configureWith(settings: Record<string, unknown>): Promise<void> {
  await call("configure", new provproto.ConfigureRequest().setArgs(structproto.Struct.fromJavaScript(settings as never)));
}

const adminSettings = () => ({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, adminSecret: secret(emulator.adminSecret) });

/** The raw result of an invoke (secrets still wrapped). */
async function invokeRaw(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const request = new provproto.InvokeRequest().setTok(`svc:index:${name}`).setArgs(structproto.Struct.fromJavaScript(args as never));
  const response = await call<provproto.InvokeResponse>("invoke", request);
  return (response.getReturn()?.toJavaScript() ?? {}) as Record<string, unknown>;
}

/** The error message of an invoke that fails (UNKNOWN: the lookup's error; `code` to expect another). */
async function invokeError(name: string, args: Record<string, unknown>, code = 2): Promise<string> {
  try {
    await invokeRaw(name, args);
  } catch (error) {
    expect((error as { code: number }).code).toBe(code);
    return (error as { details: string }).details;
  }
  throw new Error(`${name} did not fail`);
}

const isWrappedSecret = (value: unknown) => typeof value === "object" && value !== null && SIG_KEY in value;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
  client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
});
afterAll(async () => {
  await client?.close();
  await emulator?.close();
});
beforeEach(() => configureWith(adminSettings()));

describe("getAppToken", () => {
  it("returns the token with its value as a secret, for the admin connection", async () => {
    const made = await client.appTokens.add({ description: "lookup me", hashType: "SHA512", sessionType: 2 });
    const result = await invokeRaw("getAppToken", { id: made.id });
    expect(result).toMatchObject({ tokenId: made.id, description: "lookup me", hashType: "SHA512", sessionType: "ADMIN", status: 2 });
    expect(isWrappedSecret(result.token)).toBe(true);
    expect((result.token as { value: string }).value).toBe(made.token);
    // Only the value is a secret.
    expect(isWrappedSecret(result.description)).toBe(false);
  });

  it("has no value with an app token connection (the platform shows values to the admin only)", async () => {
    const reader = await client.appTokens.add({ description: "reader", hashType: "SHA256", sessionType: 2 });
    const target = await client.appTokens.add({ description: "target", hashType: "SHA256" });
    await configureWith({
      baseUrl: emulator.baseUrl,
      partnerId: emulator.partnerId,
      appTokenId: reader.id,
      appToken: secret(reader.token),
      appTokenHashType: "SHA256",
    });
    const result = await invokeRaw("getAppToken", { id: target.id });
    expect(result.tokenId).toBe(target.id);
    expect(result.token).toBeUndefined();
  });

  it("fails naming the account and the id, never the userinfo of the baseUrl nor a secret", async () => {
    const withUserinfo = emulator.baseUrl.replace("http://", "http://someone:hunter2-password@");
    await configureWith({ ...adminSettings(), baseUrl: withUserinfo });
    const message = await invokeError("getAppToken", { id: "0_doesnotexist" });
    expect(message).toBe(
      `getAppToken: app token "0_doesnotexist" was not found in partner ${emulator.partnerId} at ${emulator.baseUrl} (searched by id; deleted tokens are not found)`,
    );
    expect(message).not.toContain("hunter2-password");
    expect(message).not.toContain(emulator.adminSecret);
  });

  it("refuses a bad id before any API call, naming the field and what was expected", async () => {
    await configureWith({ baseUrl: "http://127.0.0.1:9/api_v3", partnerId: 1, adminSecret: "unused" });
    expect(await invokeError("getAppToken", { id: "not an id" })).toBe("getAppToken: id: expected an app token id like 0_ab12cd34; nothing was searched");
    expect(await invokeError("getAppToken", { id: "0_ab12cd34", idd: "x" })).toMatch(/^getAppToken: unknown argument "idd"; expected one of: id/);
  });

  it("keeps every field secret when the id came as a secret", async () => {
    const made = await client.appTokens.add({ description: "secret id" });
    const result = await invokeRaw("getAppToken", { id: secret(made.id) });
    for (const key of ["tokenId", "description", "token"]) expect(isWrappedSecret(result[key]), key).toBe(true);
  });
});

describe("getAppTokens", () => {
  it("filters by session type, hash type and a part of the description, and never returns values", async () => {
    const admin = await client.appTokens.add({ description: "filters: ci deploy", hashType: "SHA256", sessionType: 2 });
    const user = await client.appTokens.add({ description: "filters: ci backend", hashType: "SHA256", sessionType: 0 });
    const sha1 = await client.appTokens.add({ description: "filters: ci legacy", hashType: "SHA1", sessionType: 2 });
    const gone = await client.appTokens.add({ description: "filters: ci deleted", hashType: "SHA256", sessionType: 2 });
    await client.appTokens.delete(gone.id);

    const byDescription = await invokeRaw("getAppTokens", { descriptionContains: "filters: ci" });
    expect(new Set(byDescription.ids as string[])).toEqual(new Set([admin.id, user.id, sha1.id]));
    expect(JSON.stringify(byDescription)).not.toContain(admin.token!);

    expect((await invokeRaw("getAppTokens", { descriptionContains: "filters:", sessionType: "ADMIN" })).ids).toEqual([admin.id, sha1.id]);
    expect((await invokeRaw("getAppTokens", { descriptionContains: "filters:", sessionType: "ADMIN", hashType: "SHA1" })).tokens).toEqual([
      expect.objectContaining({ tokenId: sha1.id, hashType: "SHA1", sessionType: "ADMIN", description: "filters: ci legacy" }),
    ]);
    expect((await invokeRaw("getAppTokens", { descriptionContains: "nothing has this" })).ids).toEqual([]);
  });

  it("refuses a typo in an enum argument, naming the allowed values", async () => {
    expect(await invokeError("getAppTokens", { sessionType: "ADMN" })).toMatch(/^getAppTokens: sessionType: .*"USER"\|"ADMIN"/);
  });
});

describe("getNotificationTemplate", () => {
  it("finds a webhook by id and by systemName, without its signing secret", async () => {
    const [system] = (await client.templates.listTemplates({ typeEqual: "httpNotification.Http" })).objects;
    const signSecret = "function-test-signing-secret-0123";
    const made = await client.templates.clone(system!.id, {
      name: "Lookup webhook",
      systemName: "LOOKUP_WEBHOOK",
      url: "https://hooks.example.com/lookup",
      signSecret,
    });
    const byId = await invokeRaw("getNotificationTemplate", { id: made.id });
    expect(byId).toMatchObject({ templateId: made.id, kind: "HTTP", name: "Lookup webhook", url: "https://hooks.example.com/lookup", method: "POST" });
    expect(await invokeRaw("getNotificationTemplate", { systemName: "LOOKUP_WEBHOOK", kind: "HTTP" })).toEqual(byId);
    expect(JSON.stringify(byId)).not.toContain(signSecret);
  });

  it("finds an email template by systemName, with its recipients typed", async () => {
    const [system] = (await client.emailTemplates.listTemplates({})).objects;
    const made = await client.emailTemplates.clone(system!.id, {
      name: "Lookup email",
      systemName: "LOOKUP_EMAIL",
      subject: "Hello",
      body: "Body",
      fromEmail: "video@example.com",
      to: { emailRecipients: [{ email: "editors@example.com", name: "Editors" }] },
    } as never);
    const result = await invokeRaw("getNotificationTemplate", { systemName: "LOOKUP_EMAIL" });
    expect(result).toMatchObject({ templateId: made.id, kind: "EMAIL", subject: "Hello", fromEmail: "video@example.com" });
    expect(result.to).toEqual([{ email: "editors@example.com", name: "Editors" }]);
  });

  it("fails naming the account, the kind and what was searched", async () => {
    expect(await invokeError("getNotificationTemplate", { systemName: "NO_SUCH_TEMPLATE" })).toBe(
      `getNotificationTemplate: no notification template (HTTP or email) with systemName "NO_SUCH_TEMPLATE" in partner ${emulator.partnerId} at ${emulator.baseUrl} (deleted templates are not found)`,
    );
    // An email template asked for as a webhook is not found either.
    expect(await invokeError("getNotificationTemplate", { systemName: "LOOKUP_EMAIL", kind: "HTTP" })).toMatch(
      /^getNotificationTemplate: no HTTP notification template with systemName "LOOKUP_EMAIL" in partner \d+/,
    );
    expect(await invokeError("getNotificationTemplate", {})).toBe(
      "getNotificationTemplate: expected exactly one of id or systemName; got neither; nothing was searched",
    );
  });
});

describe("getSystemTemplates", () => {
  it("lists the catalog by kind and event, and fails naming the filter when nothing matches", async () => {
    const all = (await invokeRaw("getSystemTemplates", {})).templates as { kind: string; event?: string; eventType: string }[];
    expect(new Set(all.map((t) => t.kind))).toEqual(new Set(["HTTP", "EMAIL"]));
    const ready = (await invokeRaw("getSystemTemplates", { kind: "EMAIL", event: "entry.ready" })).templates as typeof all;
    expect(ready.length).toBeGreaterThan(0);
    for (const t of ready) expect(t).toMatchObject({ kind: "EMAIL", event: "entry.ready" });
    const first = all[0]!;
    for (const t of (await invokeRaw("getSystemTemplates", { eventType: first.eventType })).templates as typeof all) expect(t.eventType).toBe(first.eventType);
    expect(await invokeError("getSystemTemplates", { eventType: "999" })).toBe(
      `getSystemTemplates: no system template matches eventType "999" in partner ${emulator.partnerId} at ${emulator.baseUrl}`,
    );
  });
});

describe("Invoke of an unknown function", () => {
  it("is UNIMPLEMENTED, naming the functions the plugin serves", async () => {
    expect(await invokeError("getNothing", {}, 12)).toBe(
      "unknown function svc:index:getNothing; this plugin serves svc:index:getAppToken, svc:index:getAppTokens, svc:index:getNotificationTemplate, svc:index:getSystemTemplates",
    );
  });
});
