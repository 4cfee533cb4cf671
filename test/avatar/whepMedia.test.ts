/**
 * The emulator's WHEP endpoint as a real WebRTC peer, driven from Node by a werift client peer (a second,
 * independent ICE/DTLS/SRTP stack): ICE and DTLS complete, VP8 frames and Opus packets arrive, the audio is
 * the speech tone exactly while a turn is spoken, TURN credentials are per session, and
 * ending or timing out the session tears the peer and the TURN allocation down. The routers run on the fake
 * clock (fakeContext), so the keep-alive timeout is reached by moving time, not by waiting 30 s.
 */
import { Hono } from "hono";
import { RTCPeerConnection, type RtpPacket } from "werift";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IDLE_TIMEOUT_MS } from "../../contract/avatar";
import { avatarStateOf, createAvatarApiRoutes } from "../../emulator/avatar";
import { avatarMedia } from "../../emulator/avatar/mediaFiles";
import { fakeAvatarContext, type FakeAvatarContext } from "./fakeContext";

const BASE = "http://emu.test/avatar-api";

let ctx: FakeAvatarContext;
let app: Hono;
const clients: RTCPeerConnection[] = [];

beforeEach(() => {
  ctx = fakeAvatarContext(Date.now());
  ctx.addKs("ks-admin", {});
  app = new Hono();
  app.route("/avatar-api", createAvatarApiRoutes(ctx, { msPerChar: 60 }));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((pc) => pc.close()));
  await avatarStateOf(ctx).media.close();
});

const post = (path: string, body: unknown, auth: string) =>
  app.request(`${BASE}${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: auth }, body: JSON.stringify(body) });

async function session() {
  const created = (await (await post("/v1/avatar-session/create", { visualConfig: { id: "visual-1" } }, "KS ks-admin")).json()) as {
    sessionId: string;
    token: string;
  };
  const init = (await (await post(`/v1/avatar-session/${created.sessionId}/init-client`, {}, `Bearer ${created.token}`)).json()) as {
    whepUrl: string;
    turn: { url: string; username: string; credential: string };
  };
  return { ...created, ...init, bearer: `Bearer ${created.token}` };
}

interface Viewer {
  pc: RTCPeerConnection;
  video: RtpPacket[];
  audio: RtpPacket[];
  location: string;
  connected: Promise<void>;
}

/** A werift client doing what a browser does: recvonly video+audio, offer after gathering, POST, apply answer. */
async function view(whepUrl: string): Promise<Viewer> {
  const pc = new RTCPeerConnection({});
  clients.push(pc);
  const video: RtpPacket[] = [];
  const audio: RtpPacket[] = [];
  pc.addTransceiver("video", { direction: "recvonly" }).onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => video.push(rtp)));
  pc.addTransceiver("audio", { direction: "recvonly" }).onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => audio.push(rtp)));
  const connected = new Promise<void>((resolve, reject) => {
    pc.connectionStateChange.subscribe((state) => {
      if (state === "connected") resolve();
      if (state === "failed") reject(new Error("client peer failed"));
    });
  });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    pc.iceGatheringStateChange.subscribe((state) => state === "complete" && resolve());
  });
  const res = await app.request(whepUrl, { method: "POST", headers: { "content-type": "application/sdp" }, body: pc.localDescription!.sdp });
  expect(res.status).toBe(201);
  expect(res.headers.get("content-type")).toBe("application/sdp");
  await pc.setRemoteDescription({ type: "answer", sdp: await res.text() });
  return { pc, video, audio, location: `http://emu.test${res.headers.get("location")}`, connected };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const isSilence = (rtp: RtpPacket) => rtp.payload.equals(avatarMedia().silence);

describe("WHEP endpoint as a real WebRTC peer (werift client in Node)", () => {
  it("connects, streams VP8 frames and Opus audio that is the tone exactly while a turn is spoken", async () => {
    const s = await session();
    const viewer = await view(s.whepUrl);
    await viewer.connected;
    await until("video and audio packets", () => viewer.video.length > 10 && viewer.audio.length > 10);
    expect(viewer.video[0]!.header.payloadType).toBeGreaterThan(0);
    expect(viewer.audio.every(isSilence)).toBe(true);

    const media = avatarStateOf(ctx).media;
    expect(await media.resourcesOf(s.sessionId)).toMatchObject({ viewer: true, peerState: "connected" });

    // A 20-character turn lasts 1.2 s on the fake clock; audio follows the same schedule as speaking events.
    const before = viewer.audio.length;
    const said = await post(`/v1/avatar-session/${s.sessionId}/say-text`, { text: "x".repeat(20) }, s.bearer);
    expect(said.status).toBe(200);
    await until("speech packets", () => viewer.audio.slice(before).filter((p) => !isSilence(p)).length >= 10);
    ctx.clock.advance(1_300); // the turn is over
    const afterTurn = viewer.audio.length;
    await until("silence after the turn", () => viewer.audio.length - afterTurn >= 20);
    expect(viewer.audio.slice(afterTurn + 5).every(isSilence)).toBe(true);

    // The second viewer is refused while the first holds the session; PATCH (trickle ICE) is not supported.
    expect(
      (await app.request(s.whepUrl, { method: "POST", headers: { "content-type": "application/sdp" }, body: viewer.pc.localDescription!.sdp })).status,
    ).toBe(409);
    expect(
      (await app.request(viewer.location, { method: "PATCH", headers: { "content-type": "application/trickle-ice-sdpfrag" }, body: "a=end-of-candidates" }))
        .status,
    ).toBe(405);

    // DELETE releases the viewer slot and closes the emulator's peer.
    expect((await app.request(viewer.location, { method: "DELETE" })).status).toBe(200);
    expect(await media.resourcesOf(s.sessionId)).toMatchObject({ viewer: false, peerState: null });
    expect((await app.request(viewer.location, { method: "DELETE" })).status).toBe(404);
  }, 90_000);

  it("init-client issues per-session TURN credentials that the relay accepts until the session ends", async () => {
    // Relaying itself is proven in Chromium (test/client/browserBundle.test.ts, iceTransportPolicy "relay").
    const s = await session();
    expect(s.turn.url).toMatch(/^turn:127\.0\.0\.1:\d+\?transport=udp$/);
    expect(s.turn.username).toMatch(new RegExp(`^\\d+:${s.sessionId}$`));
    const other = await session();
    expect(other.turn.credential).not.toBe(s.turn.credential);
    const media = avatarStateOf(ctx).media;
    expect(await media.turnUserActive(s.turn.username)).toBe(true);
    expect((await post(`/v1/avatar-session/${s.sessionId}/end`, {}, s.bearer)).status).toBe(200);
    expect(await media.turnUserActive(s.turn.username)).toBe(false);
    expect(await media.turnUserActive(other.turn.username)).toBe(true);
    // A session ended by the keep-alive timeout loses its TURN user too.
    ctx.clock.advance(IDLE_TIMEOUT_MS + 1);
    await until("the watchdog to end the other session", async () => !(await media.turnUserActive(other.turn.username)), 10_000);
  });

  it("a keep-alive timeout ends the session and tears its peer down without any request", async () => {
    const s = await session();
    const viewer = await view(s.whepUrl);
    await viewer.connected;
    const media = avatarStateOf(ctx).media;
    expect((await media.resourcesOf(s.sessionId)).viewer).toBe(true);
    ctx.clock.advance(IDLE_TIMEOUT_MS + 1);
    await until("the watchdog to end the session", async () => !(await media.resourcesOf(s.sessionId)).viewer, 10_000);
    const ended = await post(`/v1/avatar-session/${s.sessionId}/keep-alive`, {}, s.bearer);
    expect(ended.status).toBe(410);
    expect(await ended.json()).toMatchObject({ reason: "idle-timeout" });
  }, 60_000);
});
