import { beforeEach, describe, expect, it } from "vitest";
import { FakePeerConnection, FakeVideoElement } from "../../sdk/browser/fakes";
import { AvatarErrorCode, type AvatarError } from "../../sdk/browser";
import { BASE_URL, createHarness, KS, type Harness } from "./harness";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});

describe("SvcAvatarSession lifecycle against the emulator", () => {
  it("createSession: IDLE -> CREATING -> READY, WebRTC through WHEP with the TURN config, video attached", async () => {
    const s = h.session();
    const seen = h.record(s);
    expect(s.getSessionState()).toBe("IDLE");
    expect(s.getConnectionState()).toBe("DISCONNECTED");
    expect(s.getSessionId()).toBeNull();
    await s.createSession({ visualId: "visual-1", voiceId: "voice-1", language: "en", videoContainerId: "avatar" });
    expect(seen).toEqual(["state:CREATING", "conn:CONNECTING", "conn:CONNECTED", "state:READY"]);
    expect(s.getSessionState()).toBe("READY");
    expect(s.getConnectionState()).toBe("CONNECTED");
    expect(s.getSessionId()).toMatch(/^as_/);

    const create = h.calls.find((c) => c.path.endsWith("/v1/avatar-session/create"))!;
    expect(create.headers.get("authorization")).toBe(`KS ${KS}`);
    expect(create.body).toEqual({ visualConfig: { id: "visual-1" }, voiceConfig: { id: "voice-1", language: "en" } });
    const init = h.calls.find((c) => c.path.endsWith("/init-client"))!;
    expect(init.headers.get("authorization")).toMatch(/^Bearer ey/);

    const pc = FakePeerConnection.last();
    expect(pc.transceivers).toEqual([
      { kind: "video", direction: "recvonly" },
      { kind: "audio", direction: "recvonly" },
    ]);
    expect(pc.config.iceServers).toEqual([{ urls: expect.stringMatching(/^turn:/), username: expect.any(String), credential: expect.any(String) }]);
    expect(pc.remoteDescription?.sdp).toMatch(/^v=0/);
    const offer = h.calls.find((c) => c.path.includes("/whep/"))!;
    expect(offer.headers.get("content-type")).toBe("application/sdp");
    expect(offer.status).toBe(201);

    const video = h.doc.getElementById("avatar")!.children[0] as FakeVideoElement;
    expect(video).toBeInstanceOf(FakeVideoElement);
    expect(video.autoplay).toBe(true);
    expect(video.playsInline).toBe(true);
    expect(video.style).toEqual({ width: "100%", height: "100%" });
    expect(video.srcObject).toEqual({ id: "fake-stream" });
  });

  it("keeps the session alive every 10 s and stops on endSession; end reason client; WHEP resource deleted", async () => {
    const s = h.session();
    const seen = h.record(s);
    await s.createSession({ visualId: "v" });
    await h.clock.advance(9_999);
    expect(h.count("/keep-alive")).toBe(0);
    await h.clock.advance(1);
    expect(h.count("/keep-alive")).toBe(1);
    await h.clock.advance(30_000);
    const times = h.calls.filter((c) => c.path.endsWith("/keep-alive")).map((c) => c.at);
    expect(times.length).toBe(4);
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([10_000, 10_000, 10_000]);

    await s.endSession();
    expect(s.getSessionState()).toBe("ENDED");
    expect(s.getEndReason()).toBe("client");
    expect(s.getConnectionState()).toBe("CLOSED");
    expect(seen.slice(-2)).toEqual(["conn:CLOSED", "state:ENDED:client"]);
    expect(FakePeerConnection.last().closed).toBe(true);
    expect(h.calls.some((c) => c.method === "DELETE" && c.path.includes("/whep/") && c.status === 200)).toBe(true);
    expect(h.doc.getElementById("avatar")!.children).toEqual([]);

    await h.clock.advance(60_000);
    expect(h.count("/keep-alive")).toBe(4);
    expect(h.count("/events")).toBeGreaterThan(0);
    const polls = h.count("/events");
    await h.clock.advance(5_000);
    expect(h.count("/events")).toBe(polls);

    // A second endSession is a no-op; other calls are refused.
    await s.endSession();
    expect(h.count("/end")).toBe(1);
    await expect(s.sayText("hi")).rejects.toMatchObject({ code: AvatarErrorCode.INVALID_STATE });
    expect(() => s.attachAvatar("avatar")).toThrow(expect.objectContaining({ code: "INVALID_STATE" }));
  });

  it("initSession takes a backend-created session (no apiKey) and reaches READY", async () => {
    const created = await (
      await h.app.request(`${BASE_URL}/v1/avatar-session/create`, {
        method: "POST",
        headers: { authorization: `KS ${KS}`, "content-type": "application/json" },
        body: JSON.stringify({ visualConfig: { id: "v" } }),
      })
    ).json();
    const s = h.session({ baseUrl: BASE_URL });
    await s.initSession({ sessionId: created.sessionId, token: created.token }, { videoContainerId: "avatar" });
    expect(s.getSessionState()).toBe("READY");
    expect(s.getSessionId()).toBe(created.sessionId);
    expect(h.count("/create")).toBe(0);
    await s.endSession();
    expect(s.getSessionState()).toBe("ENDED");
  });

  it("reports a server-side idle timeout as ENDED with reason idle-timeout", async () => {
    const s = h.session();
    const seen = h.record(s);
    await s.createSession({ visualId: "v" });
    // The library keeps sending keep-alives, but none reach the emulator.
    h.faults.push({ match: "/keep-alive", status: 200, body: { success: true }, times: 100 });
    await h.clock.advance(30_500);
    expect(s.getSessionState()).toBe("ENDED");
    expect(s.getEndReason()).toBe("idle-timeout");
    expect(seen.at(-1)).toBe("state:ENDED:idle-timeout");
    const keepAlives = h.count("/keep-alive");
    await h.clock.advance(20_000);
    expect(h.count("/keep-alive")).toBe(keepAlives);
    // endSession afterwards resolves without a call.
    await s.endSession();
    expect(h.count("/end")).toBe(0);
  });

  it("treats 410 on end as already ended; a 404 is an error (SESSION_NOT_FOUND), not an earlier end", async () => {
    const a = h.session();
    await a.createSession({ visualId: "v" });
    h.faults.push({ match: "/end", status: 410, body: { success: false, error: "gone", reason: "idle-timeout" }, times: 1 });
    await a.endSession();
    expect(a.getSessionState()).toBe("ENDED");
    expect(a.getEndReason()).toBe("idle-timeout");

    const b = h.session();
    const seen = h.record(b);
    await b.createSession({ visualId: "v" });
    h.faults.push({ match: "/end", status: 404, times: 1 });
    const error = await b.endSession().then(
      () => undefined,
      (e: AvatarError) => e,
    );
    expect(error).toMatchObject({ code: "SESSION_NOT_FOUND", details: { op: "end", status: 404 } });
    // Over locally (nothing is left to end on the server), with the error reported and the reason "error".
    expect(b.getSessionState()).toBe("ENDED");
    expect(b.getEndReason()).toBe("error");
    expect(seen.at(-1)).toBe("state:ENDED:error");
    expect(seen).toContain("error:SESSION_NOT_FOUND");
    expect(h.count("/end")).toBe(2);
  });

  it("emits speakingStart and speakingEnd from the session's events, and interrupt cuts speech short", async () => {
    const s = h.session();
    const seen = h.record(s);
    await s.createSession({ visualId: "v" });
    await s.sayText("Hello there"); // 11 chars * 60 ms = 660 ms
    await h.clock.advance(500);
    expect(seen.filter((e) => e.startsWith("speaking"))).toEqual(["speakingStart"]);
    await h.clock.advance(500);
    expect(seen.filter((e) => e.startsWith("speaking"))).toEqual(["speakingStart", "speakingEnd"]);

    await s.sayText("This sentence is long enough to be interrupted half way through.");
    await h.clock.advance(500);
    expect(seen.filter((e) => e.startsWith("speaking")).length).toBe(3);
    await s.interrupt();
    await h.clock.advance(500);
    expect(seen.filter((e) => e.startsWith("speaking"))).toEqual(["speakingStart", "speakingEnd", "speakingStart", "speakingEnd"]);
    expect(h.calls.find((c) => c.path.endsWith("/interrupt"))?.status).toBe(200);
  });

  it("shares a generated turnId across chunks until a final chunk, then starts a new turn", async () => {
    const s = h.session();
    await s.createSession({ visualId: "v" });
    await s.sayText("one", undefined, false);
    await s.sayText("two", undefined, false);
    await s.sayText("three");
    await s.sayText("four");
    await s.sayText("five", "my-turn", false);
    await s.sayText("six");
    const bodies = h.calls.filter((c) => c.path.endsWith("/say-text")).map((c) => c.body as { text: string; turnId: string; isFinal: boolean });
    const [one, two, three, four, five, six] = bodies;
    expect(one!.turnId).toBe(two!.turnId);
    expect(three!.turnId).toBe(one!.turnId);
    expect([one!.isFinal, two!.isFinal, three!.isFinal]).toEqual([false, false, true]);
    expect(four!.turnId).not.toBe(one!.turnId);
    expect(five!.turnId).toBe("my-turn");
    expect(six!.turnId).toBe("my-turn");
  });

  it("sends sayAudio as multipart (turnId, duration, audio)", async () => {
    const s = h.session();
    await s.createSession({ visualId: "v" });
    const mp3 = new Uint8Array(417);
    mp3.set([0xff, 0xfb, 0x90, 0x00]);
    await s.sayAudio(new Blob([mp3], { type: "audio/mpeg" }), "turn-a", 1.2);
    const call = h.calls.find((c) => c.path.endsWith("/say-audio"))!;
    expect(call.status).toBe(200);
    expect(call.body).toBeInstanceOf(FormData);
    await expect(s.sayAudio("not a blob" as unknown as Blob, "t", 1)).rejects.toMatchObject({ code: "INVALID_CONFIGURATION" });
    await expect(s.sayAudio(new Blob([mp3]), "t", 0)).rejects.toMatchObject({ code: "INVALID_CONFIGURATION" });
    // 48 kHz audio is refused by the service: API_REQUEST_FAILED, the session stays READY.
    mp3.set([0xff, 0xfb, 0x94, 0x00]);
    await expect(s.sayAudio(new Blob([mp3]), "t", 1)).rejects.toMatchObject({ code: "API_REQUEST_FAILED", details: { status: 400 } });
    expect(s.getSessionState()).toBe("READY");
  });
});
