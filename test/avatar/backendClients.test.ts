/** The sdk's avatar backend clients against the emulator on a port-0 socket (real ks sessions, real HTTP). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcClient, type TransportEvent } from "../../sdk";
import { AvatarApiError, AvatarSessionApi, AvatarVideoApi } from "../../sdk/avatar";
import { mp3Bytes } from "./fakeContext";

let emu: RunningEmulator;
let platform: SvcClient;
const closers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true });
  platform = new SvcClient({ baseUrl: emu.baseUrl, partnerId: emu.partnerId, auth: { adminSecret: emu.adminSecret } });
});
afterAll(async () => {
  await Promise.all(closers.map((c) => c.close()));
  await platform?.close();
  await emu?.close();
});

const ks = (userId: string, type: 0 | 2 = 0, privileges?: string) =>
  platform.sessions.service.start({ secret: emu.adminSecret, partnerId: emu.partnerId, type, userId, ...(privileges ? { privileges } : {}) });

function sessionsApi(events?: TransportEvent[], baseUrl = emu.avatarApiUrl) {
  const api = new AvatarSessionApi({ baseUrl, transportOptions: { retry: { baseDelayMs: 1, maxDelayMs: 2 }, onEvent: (e) => events?.push(e) } });
  closers.push(api);
  return api;
}
function videoApi(userKs?: string) {
  const api = new AvatarVideoApi({ baseUrl: emu.avatarVideoUrl, ...(userKs ? { ks: userKs } : {}) });
  closers.push(api);
  return api;
}
const setChecks = (checks: Record<string, boolean>) =>
  fetch(`${emu.avatarVideoUrl}/_emulator/configuration`, { method: "POST", body: JSON.stringify({ partnerId: emu.partnerId, checks }) });

async function failure(promise: Promise<unknown>): Promise<AvatarApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AvatarApiError);
  return error as AvatarApiError;
}

describe("AvatarSessionApi against the emulator", () => {
  it("runs a whole session: create (KS on /create), init-client, keep-alive, say-text, say-audio, interrupt, end, end again", async () => {
    const events: TransportEvent[] = [];
    const api = sessionsApi(events);
    const adminKs = await ks("backend", 2);
    const session = await api.create({ visualId: "visual-1", voice: { id: "voice-1", language: "ja" }, clientId: "web", ks: adminKs });
    expect(session.sessionId).toMatch(/^as_/);
    expect(events.find((e) => e.type === "request")?.path).toBe("/avatar-api/v1/avatar-session/create");
    const init = await api.initClient(session);
    expect(init.whepUrl).toMatch(new RegExp(`^${emu.avatarApiUrl}/whep/`));
    expect(init.turn?.url).toMatch(/^turn:/);
    await api.keepAlive(session);
    const said = await api.sayText(session, { text: "hello", turnId: "t1", isFinal: false });
    expect(said).toMatchObject({ success: true, turnId: "t1", durationMs: expect.any(Number) });
    const audio = await api.sayAudio(session, { audio: mp3Bytes(), turnId: "t2", duration: 2 });
    expect(audio).toMatchObject({ turnId: "t2", durationMs: 2000 });
    await api.interrupt(session);
    expect(await api.end(session)).toEqual({ alreadyEnded: false });
    expect(await api.end(session)).toEqual({ alreadyEnded: true, reason: "client" });
    const gone = await failure(api.keepAlive(session));
    expect(gone.code).toBe("AVATAR_SESSION_GONE");
    expect(gone.status).toBe(410);
    // A 404 (no such session) is an error, never "already ended" (the spec: only 410 means that).
    expect((await failure(api.end({ sessionId: "as_missing", token: session.token }))).code).toBe("AVATAR_SESSION_NOT_FOUND");
  });

  it("maps statuses to stable codes and keeps ks and JWT out of messages", async () => {
    const api = sessionsApi();
    const bad = await failure(api.create({ visualId: "v", ks: "djJ8bogus-session-string" }));
    expect(bad.code).toBe("AVATAR_UNAUTHORIZED");
    expect(bad.message).not.toContain("djJ8bogus");
    const userKs = await ks("alice");
    const session = await api.create({ visualId: "v", ks: userKs });
    const other = await api.create({ visualId: "v", ks: userKs });
    const foreign = await failure(api.keepAlive({ sessionId: session.sessionId, token: other.token }));
    expect(foreign.code).toBe("AVATAR_UNAUTHORIZED");
    expect(JSON.stringify(foreign.toJSON())).not.toContain(other.token);
    expect((await failure(api.sayText({ sessionId: "as_nope", token: session.token }, { text: "x" }))).code).toBe("AVATAR_SESSION_NOT_FOUND");
    await expect(api.sayText(session, { text: "" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(api.create({ visualId: "", ks: userKs })).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("visualId") });
    await setChecks({ "avatar-feature-enabled": false });
    try {
      expect((await failure(api.create({ visualId: "v", ks: userKs }))).code).toBe("AVATAR_FORBIDDEN");
    } finally {
      await setChecks({ "*": true });
    }
  });
});

describe("retry rule of the avatar session client", () => {
  let server: Server;
  let hits: string[];
  beforeAll(async () => {
    hits = [];
    server = createServer((req, res) => {
      hits.push(req.url ?? "");
      res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ success: false, error: "busy" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("never repeats create, init-client or say-text after the server answered; repeats keep-alive, interrupt and end", async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const api = sessionsApi(undefined, url);
    const session = { sessionId: "s1", token: "eyJhbGciOiJIUzI1NiJ9.e30.sig" };
    const count = async (call: () => Promise<unknown>) => {
      hits.length = 0;
      await call().catch(() => undefined);
      return hits.length;
    };
    expect(await count(() => api.create({ visualId: "v", ks: "some-ks-value" }))).toBe(1);
    expect(await count(() => api.initClient(session))).toBe(1);
    expect(await count(() => api.sayText(session, { text: "hi" }))).toBe(1);
    expect(await count(() => api.keepAlive(session))).toBe(4); // 1 + maxRetries (3)
    expect(await count(() => api.interrupt(session))).toBe(4);
    expect(await count(() => api.end(session))).toBe(4);
    expect((await failure(api.keepAlive(session))).code).toBe("AVATAR_SERVER_ERROR");
  });

  it("retries create when the connection was refused (the request cannot have reached a server)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const events: TransportEvent[] = [];
    const api = sessionsApi(events, `http://127.0.0.1:${port}`);
    await expect(api.create({ visualId: "v", ks: "some-ks-value" })).rejects.toMatchObject({ code: "NETWORK_ERROR" });
    expect(events.filter((e) => e.type === "retry").length).toBe(3);
  });
});

describe("AvatarVideoApi against the emulator", () => {
  it("checkConfiguration reports every check and source-only-conversion-profile, switchable per account", async () => {
    const api = videoApi(await ks("alice"));
    const ok = await api.checkConfiguration();
    expect(ok).toMatchObject({ valid: true, sourceOnlyConversionProfile: true, failing: [], serverValid: true });
    expect(ok.checks.map((c) => c.name)).toContain("source-only-conversion-profile");
    await setChecks({ "source-only-conversion-profile": false });
    try {
      const off = await api.checkConfiguration();
      expect(off).toMatchObject({ valid: false, sourceOnlyConversionProfile: false, failing: ["source-only-conversion-profile"] });
      expect(off.checks.find((c) => c.name === "source-only-conversion-profile")).toMatchObject({ valid: false, message: expect.any(String) });
      expect((await failure(api.listVideos())).code).toBe("AVATAR_FORBIDDEN");
    } finally {
      await setChecks({ "*": true });
    }
    expect((await api.checkConfiguration()).valid).toBe(true);
  });

  it("scopes videos and avatars to the session's user", async () => {
    const alice = videoApi(await ks("alice"));
    const bob = videoApi(await ks("bob", 2));
    const aliceVideos = await alice.listVideos();
    const bobVideos = await bob.listVideos();
    expect(aliceVideos.totalCount).toBe(2);
    expect(aliceVideos.objects.every((v) => v.userId === "alice" && v.partnerId === emu.partnerId)).toBe(true);
    expect(bobVideos.objects.every((v) => v.userId === "bob")).toBe(true);
    expect((await alice.listAvatars()).objects.map((a) => a.userId)).toEqual(["alice", "alice"]);
    const page = await alice.listVideos({ pageSize: 1, pageIndex: 2 });
    expect(page).toMatchObject({ totalCount: 2, objects: [{ id: aliceVideos.objects[1]!.id }] });
    await expect(alice.listVideos({ pageSize: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect((await failure(videoApi("not-a-ks").checkConfiguration())).code).toBe("AVATAR_UNAUTHORIZED");
  });

  it("enforces urirestrict: the pattern must match the API path", async () => {
    const restricted = videoApi(await ks("alice", 0, "urirestrict:/api/v1/video/*"));
    expect((await restricted.listVideos()).totalCount).toBe(2);
    expect((await failure(restricted.listAvatars())).code).toBe("AVATAR_FORBIDDEN");
    expect((await failure(restricted.checkConfiguration())).code).toBe("AVATAR_FORBIDDEN");
    const full = videoApi(await ks("alice", 0, "urirestrict:/avatar-video/api/v1/partner/*"));
    expect((await full.checkConfiguration()).valid).toBe(true);
    expect((await failure(full.listVideos())).code).toBe("AVATAR_FORBIDDEN");
  });
});
