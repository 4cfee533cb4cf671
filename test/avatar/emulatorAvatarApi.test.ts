import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IDLE_TIMEOUT_MS } from "../../contract/avatar";
import { avatarStateOf, createAvatarApiRoutes, createAvatarVideoRoutes } from "../../emulator/avatar";
import { FAKE_OFFER_SDP } from "../../sdk/browser/fakes/fakePeerConnection";
import { fakeAvatarContext, mp3Bytes, type FakeAvatarContext } from "./fakeContext";

const BASE = "http://emu.test/avatar-api";
const OFFER = FAKE_OFFER_SDP;

let ctx: FakeAvatarContext;
let app: Hono;

beforeEach(() => {
  ctx = fakeAvatarContext();
  ctx.addKs("ks-admin", {});
  ctx.addKs("ks-widget", { isWidget: true });
  app = new Hono();
  app.route("/avatar-api", createAvatarApiRoutes(ctx));
  app.route("/avatar-video", createAvatarVideoRoutes(ctx));
});

// init-client starts the TURN relay and WHEP starts real peers: close them after each test.
afterEach(() => avatarStateOf(ctx).media.close());

const post = (path: string, body: unknown, auth?: string, init: RequestInit = {}) =>
  app.request(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    ...init,
  });

async function createSession(path = "/v1/avatar-session/create") {
  const res = await post(path, { visualConfig: { id: "visual-1" } }, "KS ks-admin");
  expect(res.status).toBe(200);
  return (await res.json()) as { success: true; sessionId: string; token: string };
}

describe("avatar session API (emulator)", () => {
  it("creates on both path forms and returns a session id and an HS256 JWT", async () => {
    for (const path of ["/v1/avatar-session", "/v1/avatar-session/create"]) {
      const body = await createSession(path);
      expect(body.success).toBe(true);
      expect(body.sessionId).toMatch(/^as_/);
      const header = JSON.parse(Buffer.from(body.token.split(".")[0]!, "base64url").toString());
      expect(header.alg).toBe("HS256");
    }
  });

  it("answers 401 for a missing or invalid ks, 403 for a widget ks or a disabled account, 400 for a bad body", async () => {
    const noAuth = await post("/v1/avatar-session/create", { visualConfig: { id: "v" } });
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toEqual({ success: false, error: expect.any(String) });
    expect((await post("/v1/avatar-session/create", { visualConfig: { id: "v" } }, "KS nope")).status).toBe(401);
    expect((await post("/v1/avatar-session/create", { visualConfig: { id: "v" } }, "Bearer ks-admin")).status).toBe(401);
    expect((await post("/v1/avatar-session/create", { visualConfig: { id: "v" } }, "KS ks-widget")).status).toBe(403);
    const bad = await post("/v1/avatar-session/create", { visualConfig: {} }, "KS ks-admin");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toContain("visualConfig.id");
    await app.request("http://emu.test/avatar-video/_emulator/configuration", {
      method: "POST",
      body: JSON.stringify({ partnerId: 101, checks: { "*": false } }),
    });
    expect((await post("/v1/avatar-session/create", { visualConfig: { id: "v" } }, "KS ks-admin")).status).toBe(403);
  });

  it("ends with 200, then 410 on a second end (any token), and the JWT is refused afterwards", async () => {
    const { sessionId, token } = await createSession();
    const bearer = `Bearer ${token}`;
    expect((await post(`/v1/avatar-session/${sessionId}/keep-alive`, {}, bearer)).status).toBe(200);
    const end = await post(`/v1/avatar-session/${sessionId}/end`, {}, bearer);
    expect(end.status).toBe(200);
    expect(await end.json()).toEqual({ success: true });
    const again = await post(`/v1/avatar-session/${sessionId}/end`, {}, "Bearer whatever");
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ success: false, reason: "client" });
    for (const op of ["keep-alive", "say-text", "interrupt", "init-client"]) {
      const res = await post(`/v1/avatar-session/${sessionId}/${op}`, { text: "hi" }, bearer);
      expect(res.status, op).toBe(410);
    }
  });

  it("answers 404 for an unknown session and 401 for a foreign or forged token", async () => {
    const a = await createSession();
    const b = await createSession();
    expect((await post(`/v1/avatar-session/nope/end`, {}, `Bearer ${a.token}`)).status).toBe(404);
    expect((await post(`/v1/avatar-session/${a.sessionId}/keep-alive`, {}, `Bearer ${b.token}`)).status).toBe(401);
    const forged = a.token.slice(0, -4) + (a.token.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect((await post(`/v1/avatar-session/${a.sessionId}/keep-alive`, {}, `Bearer ${forged}`)).status).toBe(401);
    expect((await post(`/v1/avatar-session/${a.sessionId}/keep-alive`, {})).status).toBe(401);
  });

  it("ends a session on its own after 30 s without keep-alive, and keep-alives hold it open", async () => {
    const idle = await createSession();
    const kept = await createSession();
    for (let t = 0; t < 4; t++) {
      ctx.clock.advance(IDLE_TIMEOUT_MS / 3);
      expect((await post(`/v1/avatar-session/${kept.sessionId}/keep-alive`, {}, `Bearer ${kept.token}`)).status).toBe(200);
    }
    const res = await post(`/v1/avatar-session/${idle.sessionId}/keep-alive`, {}, `Bearer ${idle.token}`);
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ reason: "idle-timeout" });
    expect((await post(`/v1/avatar-session/${idle.sessionId}/end`, {}, `Bearer ${idle.token}`)).status).toBe(410);
  });

  it("times speaking events from the text length and cuts them on interrupt", async () => {
    const { sessionId, token } = await createSession();
    const bearer = `Bearer ${token}`;
    const say = await post(`/v1/avatar-session/${sessionId}/say-text`, { text: "Hello there, world" }, bearer);
    const said = await say.json();
    expect(said).toMatchObject({ success: true, turnId: expect.any(String), durationMs: 18 * 60 });
    const events = async (after = 0) =>
      (await app.request(`${BASE}/v1/avatar-session/${sessionId}/events?after=${after}`, { headers: { authorization: bearer } })).json();
    expect((await events()).events.map((e: { type: string }) => e.type)).toEqual(["speakingStart"]);
    ctx.clock.advance(said.durationMs);
    const all = await events();
    expect(all.events.map((e: { type: string }) => e.type)).toEqual(["speakingStart", "speakingEnd"]);
    expect((await events(all.cursor)).events).toEqual([]);

    await post(`/v1/avatar-session/${sessionId}/say-text`, { text: "a long sentence to interrupt", turnId: "t2", isFinal: false }, bearer);
    ctx.clock.advance(100);
    const interrupted = await (await post(`/v1/avatar-session/${sessionId}/interrupt`, {}, bearer)).json();
    expect(interrupted).toEqual({ success: true, interrupted: true });
    const after = await events(all.cursor);
    expect(after.events.map((e: { type: string; turnId: string }) => [e.type, e.turnId])).toEqual([
      ["speakingStart", "t2"],
      ["speakingEnd", "t2"],
    ]);
    expect((await post(`/v1/avatar-session/${sessionId}/say-text`, { text: "" }, bearer)).status).toBe(400);
  });

  it("takes say-audio as multipart MP3 at 44.1 kHz only", async () => {
    const { sessionId, token } = await createSession();
    const send = (bytes: Uint8Array, fields: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set("audio", new Blob([bytes as BlobPart], { type: "audio/mpeg" }), "a.mp3");
      return app.request(`${BASE}/v1/avatar-session/${sessionId}/say-audio`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    };
    const ok = await send(mp3Bytes(), { turnId: "t1", duration: "1.5" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ success: true, turnId: "t1", durationMs: 1500 });
    expect((await send(mp3Bytes(1), { turnId: "t1", duration: "1" })).status).toBe(400); // 48 kHz
    expect((await send(mp3Bytes(), { duration: "1" })).status).toBe(400);
    expect((await post(`/v1/avatar-session/${sessionId}/say-audio`, {}, `Bearer ${token}`)).status).toBe(415);
  });

  it("serves WHEP: 201 with answer and Location, 409 for a second viewer, 415, DELETE, 404 after end", async () => {
    const { sessionId, token } = await createSession();
    const init = await (await post(`/v1/avatar-session/${sessionId}/init-client`, {}, `Bearer ${token}`)).json();
    expect(init.whepUrl).toMatch(/^http:\/\/emu\.test\/avatar-api\/whep\//);
    expect(init.turn).toEqual({ url: expect.stringMatching(/^turn:/), username: expect.any(String), credential: expect.any(String) });
    const offer = (type = "application/sdp") => app.request(init.whepUrl, { method: "POST", headers: { "content-type": type }, body: OFFER });
    expect((await offer("application/json")).status).toBe(415);
    const answered = await offer();
    expect(answered.status).toBe(201);
    const answer = await answered.text();
    expect(answer).toMatch(/^v=0\r\n/);
    expect(answer).toMatch(/a=rtpmap:\d+ opus\/48000\/2/);
    expect(answer).toMatch(/a=rtpmap:\d+ VP8\/90000/);
    expect(answer).toContain("a=sendonly");
    expect(answer).toMatch(/a=fingerprint:sha-256 /);
    expect(answer).toMatch(/a=candidate:.* typ host/);
    const location = answered.headers.get("location")!;
    expect(location).toMatch(/^\/avatar-api\/whep\/.+\/.+/);
    expect((await offer()).status).toBe(409);
    expect((await app.request(`http://emu.test${location}`, { method: "DELETE" })).status).toBe(200);
    expect((await app.request(`http://emu.test${location}`, { method: "DELETE" })).status).toBe(404);
    await post(`/v1/avatar-session/${sessionId}/end`, {}, `Bearer ${token}`);
    expect((await offer()).status).toBe(404);
  });

  it("answers CORS preflights so the browser library can call it", async () => {
    const res = await app.request(`${BASE}/v1/avatar-session/create`, {
      method: "OPTIONS",
      headers: { origin: "http://page.test", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
});
