/**
 * Issue 19, the avatar side: a 404 on end is an error (only 410 is "already ended"); TTS language codes are
 * checked by the backend client and the emulator; AvatarApiError's serverError and reason are redacted.
 */
import { Hono } from "hono";
import { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { avatarStateOf, createAvatarApiRoutes } from "../../emulator/avatar";
import { AvatarApiError, AvatarSessionApi } from "../../sdk/avatar";
import { SvcValidationError } from "../../sdk/core/errors";
import { fakeAvatarContext, type FakeAvatarContext } from "./fakeContext";

const ORIGIN = "https://avatar.test";
const SESSION = { sessionId: "as_typo", token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhcyJ9.c2lnbmF0dXJlLXZhbHVl" };

let agent: MockAgent;
let api: AvatarSessionApi;
beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  api = new AvatarSessionApi({ baseUrl: ORIGIN, ks: "djJ8dGVzdC1zZXNzaW9uLXN0cmluZw", transportOptions: { dispatcher: agent, maxRetries: 0 } });
});
afterEach(async () => {
  await api.close();
  await agent.close();
});

const reply = (path: string, status: number, body: unknown) =>
  agent
    .get(ORIGIN)
    .intercept({ path, method: "POST" })
    .reply(status, JSON.stringify(body), { headers: { "content-type": "application/json" } });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe("backend avatar client: end", () => {
  it("404 is session not found, thrown; only 410 is already ended", async () => {
    reply("/v1/avatar-session/as_typo/end", 404, { success: false, error: "no such avatar session" });
    const error = await rejection(api.end(SESSION));
    expect(error).toBeInstanceOf(AvatarApiError);
    expect((error as AvatarApiError).code).toBe("AVATAR_SESSION_NOT_FOUND");
    reply("/v1/avatar-session/as_typo/end", 410, { success: false, error: "session already ended", reason: "idle-timeout" });
    expect(await api.end(SESSION)).toEqual({ alreadyEnded: true, reason: "idle-timeout" });
  });
});

describe("backend avatar client: TTS language", () => {
  it("refuses a code the spec does not list, naming the field, before any call", async () => {
    const error = await rejection(api.create({ visualId: "v", voice: { language: "xx" as never } }));
    expect(error).toBeInstanceOf(SvcValidationError);
    expect((error as Error).message).toMatch(/^avatar create: voice\.language/);
    // No interceptor was registered: a request would have failed with a network error instead.
  });

  it("accepts a listed code", async () => {
    reply("/v1/avatar-session/create", 200, { success: true, sessionId: "as_1", token: SESSION.token });
    expect((await api.create({ visualId: "v", voice: { language: "fil" } })).sessionId).toBe("as_1");
  });
});

describe("backend avatar client: redaction", () => {
  it("serverError and reason are redacted like the message", async () => {
    const ks = "djJ8c2VjcmV0LXNlc3Npb24tc3RyaW5nLXZhbHVl";
    reply("/v1/avatar-session/as_typo/keep-alive", 400, { success: false, error: `bad ks ${ks}`, reason: `token ${SESSION.token}` });
    const error = (await rejection(api.keepAlive(SESSION))) as AvatarApiError;
    expect(error.message).not.toContain(ks);
    expect(error.serverError).toBeDefined();
    expect(error.serverError).not.toContain(ks);
    expect(error.reason).toBeDefined();
    expect(error.reason).not.toContain(SESSION.token);
  });
});

describe("emulator avatar API: TTS language", () => {
  let ctx: FakeAvatarContext;
  let app: Hono;
  beforeEach(() => {
    ctx = fakeAvatarContext();
    ctx.addKs("ks-admin", {});
    app = new Hono();
    app.route("/avatar-api", createAvatarApiRoutes(ctx));
  });
  afterEach(() => avatarStateOf(ctx).media.close());

  const create = (voiceConfig: unknown) =>
    app.request("http://emu.test/avatar-api/v1/avatar-session/create", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "KS ks-admin" },
      body: JSON.stringify({ visualConfig: { id: "v" }, voiceConfig }),
    });

  it("answers 400 naming voiceConfig.language for an unlisted code, 200 for a listed one", async () => {
    const bad = await create({ language: "klingon" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toContain("voiceConfig.language");
    expect((await create({ language: "vi" })).status).toBe(200);
  });
});
