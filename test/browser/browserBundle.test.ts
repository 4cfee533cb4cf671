/**
 * The bundled library (dist/client/svc-avatar-session.js, built by scripts/build-client-bundle.mjs) in headless
 * Chromium against one emulator on 127.0.0.1, with the browser's own RTCPeerConnection, fetch, <video> and
 * WebAudio; the page is served from another origin (so CORS is exercised). One browser and one emulator serve
 * every test of this file. Chromium comes from Debian (scripts/ensure-chromium.sh); this test never skips:
 * without a browser it fails and says why. No timing is asserted: the times to CONNECTED and to the first
 * frame are measured in the page and printed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { avatarStateOf } from "../../emulator/avatar";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcClient } from "../../sdk";

const ROOT = resolve(__dirname, "../..");
const CHROMIUM = "/usr/bin/chromium";

let emu: RunningEmulator;
let platform: SvcClient;
let page: Server;
let browser: Browser;
let outDir: string;

beforeAll(async () => {
  try {
    execFileSync("bash", [join(ROOT, "scripts/ensure-chromium.sh")], { stdio: "pipe", timeout: 600_000 });
  } catch (error) {
    const out = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`headless Chromium is required for this test and scripts/ensure-chromium.sh could not provide ${CHROMIUM}:\n${out}`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing after scripts/ensure-chromium.sh`);

  outDir = mkdtempSync(join(tmpdir(), "svc-client-bundle-"));
  const bundle = join(outDir, "svc-avatar-session.js");
  execFileSync(process.execPath, [join(ROOT, "scripts/build-client-bundle.mjs"), "--outfile", bundle], { stdio: "pipe" });

  emu = await startEmulator({ port: 0, quiet: true });
  platform = new SvcClient({ baseUrl: emu.baseUrl, partnerId: emu.partnerId, auth: { adminSecret: emu.adminSecret } });

  const html = `<!doctype html><html><body><div id="avatar" style="width:320px;height:240px"></div>
<script type="module">import * as lib from "/svc-avatar-session.js"; window.lib = lib; window.libReady = true;</script></body></html>`;
  page = createServer((req, res) => {
    if (req.url === "/svc-avatar-session.js") res.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(bundle));
    else if (req.url === "/") res.writeHead(200, { "content-type": "text/html" }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => page.listen(0, "127.0.0.1", done));

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // The avatar's <video> is not muted (a talking avatar is meant to be heard); no user gesture in a test.
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((done) => (page ? page.close(() => done()) : done()));
  await platform?.close();
  await emu?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

async function openTab(): Promise<{ tab: Page; consoleLines: string[] }> {
  const tab = await browser.newPage();
  const consoleLines: string[] = [];
  tab.on("console", (msg) => consoleLines.push(`${msg.type()}: ${msg.text()}`));
  await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
  await tab.waitForFunction(() => (window as unknown as { libReady?: boolean }).libReady === true);
  return { tab, consoleLines };
}

function userKs(userId: string): Promise<string> {
  return platform.sessions.service.start({ secret: emu.adminSecret, partnerId: emu.partnerId, type: 0, userId });
}

/** In the page: start a session (optionally relay-only), wait for CONNECTED and decoded frames; keeps it on window. */
async function startInPage(tab: Page, args: { baseUrl: string; apiKey: string; relay: boolean }) {
  return tab.evaluate(async ({ baseUrl, apiKey, relay }) => {
    type Lib = typeof import("../../sdk/browser");
    const { SvcAvatarSession } = (window as unknown as { lib: Lib }).lib;
    const w = window as unknown as Record<string, unknown>;
    const seen: string[] = [];
    const peers: RTCPeerConnection[] = [];
    // The library's RTCPeerConnection, recorded (for getStats) and, for the relay test, forced to TURN only:
    // every candidate must then come from the iceServers that init-client returned.
    class Recorded extends RTCPeerConnection {
      constructor(config: RTCConfiguration) {
        super(relay ? { ...config, iceTransportPolicy: "relay" } : config);
        peers.push(this);
      }
    }
    const session = new SvcAvatarSession({ apiKey, baseUrl, logLevel: "warn" }, { RTCPeerConnection: Recorded as never });
    const t0 = performance.now();
    const marks: Record<string, number> = {};
    session.on("stateChange", (state, info) => seen.push(`state:${state}${info.reason ? `:${info.reason}` : ""}`));
    session.on("connectionChange", (state) => {
      seen.push(`conn:${state}`);
      if (state === "CONNECTED") marks.connectedMs = performance.now() - t0;
    });
    session.on("error", (error) => seen.push(`error:${error.code}:${error.message}`));
    session.on("speakingStart", () => seen.push("speakingStart"));
    session.on("speakingEnd", () => seen.push("speakingEnd"));
    const until = async (what: string, check: () => boolean, timeoutMs = 45_000) => {
      const deadline = performance.now() + timeoutMs;
      while (!check()) {
        if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}; seen ${seen.join(",")}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };

    await session.createSession({ visualId: "visual-1", language: "en", videoContainerId: "avatar" });
    const readyState = session.getSessionState();
    const video = document.querySelector("#avatar video") as HTMLVideoElement;
    const firstFrame = new Promise<void>((done) =>
      video.requestVideoFrameCallback(() => {
        marks.firstFrameMs = performance.now() - t0;
        done();
      }),
    );
    await until("CONNECTED", () => session.getConnectionState() === "CONNECTED");
    await firstFrame;
    await until("decoded frames", () => video.videoWidth > 0 && video.getVideoPlaybackQuality().totalVideoFrames > 0);
    // Playback goes on: the video's clock moves past where it was (waited for, not assumed after a pause).
    const t1 = video.currentTime;
    await until("playback to advance", () => video.currentTime > t1);
    const t2 = video.currentTime;
    const stats = await peers[0]!.getStats();
    let pair: { local?: string; remote?: string } = {};
    stats.forEach((report) => {
      if (report.type === "transport" && report.selectedCandidatePairId) {
        const selected = stats.get(report.selectedCandidatePairId);
        pair = { local: stats.get(selected.localCandidateId)?.candidateType, remote: stats.get(selected.remoteCandidateId)?.candidateType };
      }
    });
    w.avatarSession = session;
    w.avatarSeen = seen;
    return {
      sessionId: session.getSessionId()!,
      readyState,
      marks,
      pair,
      iceServers: peers[0]!.getConfiguration().iceServers,
      video: {
        width: video.videoWidth,
        height: video.videoHeight,
        frames: video.getVideoPlaybackQuality().totalVideoFrames,
        currentTimeAdvanced: t2 > t1,
        autoplay: video.autoplay,
        playsInline: video.playsInline,
        style: `${video.style.width}x${video.style.height}`,
      },
    };
  }, args);
}

/** In the page: end the session started by startInPage. */
async function endInPage(tab: Page) {
  return tab.evaluate(async () => {
    const w = window as unknown as { avatarSession: import("../../sdk/browser").SvcAvatarSession; avatarSeen: string[] };
    await w.avatarSession.endSession();
    return { seen: w.avatarSeen, state: w.avatarSession.getSessionState(), connection: w.avatarSession.getConnectionState() };
  });
}

const media = () => avatarStateOf(emu.ctx).media;

describe("client bundle in headless Chromium against the emulator's real WHEP peer", () => {
  it("CONNECTED, decoded frames, audio energy that rises during a spoken turn and falls after; end releases everything", async () => {
    const ks = await userKs("browser-user");
    const { tab, consoleLines } = await openTab();
    const started = await startInPage(tab, { baseUrl: emu.avatarApiUrl, apiKey: ks, relay: false });
    console.log(
      `[browser media] time to CONNECTED ${started.marks.connectedMs?.toFixed(0)} ms, to first frame ${started.marks.firstFrameMs?.toFixed(0)} ms (from createSession, measured in the page; pair ${started.pair.local}/${started.pair.remote})`,
    );

    expect(started.sessionId).toMatch(/^as_/);
    expect(started.readyState).toBe("READY");
    expect(started.video).toMatchObject({ width: 320, height: 240, currentTimeAdvanced: true, autoplay: true, playsInline: true, style: "100%x100%" });
    expect(started.video.frames).toBeGreaterThan(0);
    expect(await media().resourcesOf(started.sessionId)).toMatchObject({ viewer: true, peerState: "connected" });

    // Audio: an analyser on the stream the <video> plays; energy is sampled idle, while speaking, and after.
    const audio = await tab.evaluate(async () => {
      const w = window as unknown as { avatarSession: import("../../sdk/browser").SvcAvatarSession; avatarSeen: string[] };
      const video = document.querySelector("#avatar video") as HTMLVideoElement;
      const context = new AudioContext();
      await context.resume();
      const analyser = context.createAnalyser();
      analyser.fftSize = 2048;
      context.createMediaStreamSource(video.srcObject as MediaStream).connect(analyser);
      const buffer = new Float32Array(analyser.fftSize);
      const rms = () => {
        analyser.getFloatTimeDomainData(buffer);
        return Math.sqrt(buffer.reduce((sum, x) => sum + x * x, 0) / buffer.length);
      };
      const sample = async (ms: number) => {
        let peak = 0;
        for (const end = performance.now() + ms; performance.now() < end; ) {
          peak = Math.max(peak, rms());
          await new Promise((r) => setTimeout(r, 30));
        }
        return peak;
      };
      const idle = await sample(1_000);
      let speaking = 0;
      let samplingSpeech = true;
      const spoke = new Promise<void>((done, fail) => {
        w.avatarSession.on("speakingEnd", () => done());
        setTimeout(() => fail(new Error(`no speakingEnd; seen ${w.avatarSeen.join(",")}`)), 30_000);
      });
      w.avatarSession.on("speakingStart", () => {
        void (async () => {
          while (samplingSpeech) speaking = Math.max(speaking, await sample(100));
        })();
      });
      // 50 characters: 3 s of speech on the emulator's schedule.
      await w.avatarSession.sayText("Hello from Chromium, this is the emulator speaking.");
      await spoke;
      samplingSpeech = false;
      // The tail still in the jitter buffer plays out first: wait until the level has fallen, then check that it
      // stays down for a whole second (the peak over that second is what is asserted).
      const quiet = speaking / 5;
      for (const deadline = performance.now() + 10_000; rms() >= quiet; ) {
        if (performance.now() > deadline) throw new Error(`the audio level stayed up after speakingEnd; seen ${w.avatarSeen.join(",")}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const after = await sample(1_000);
      await context.close();
      return { idle, speaking, after };
    });
    console.log(`[browser media] audio RMS idle ${audio.idle.toFixed(4)}, speaking ${audio.speaking.toFixed(4)}, after ${audio.after.toFixed(4)}`);
    expect(audio.speaking).toBeGreaterThan(0.01);
    expect(audio.idle).toBeLessThan(audio.speaking / 5);
    expect(audio.after).toBeLessThan(audio.speaking / 5);

    const ended = await endInPage(tab);
    expect(ended.state).toBe("ENDED");
    expect(ended.connection).toBe("CLOSED");
    expect(ended.seen.filter((e) => e.startsWith("state:"))).toEqual(["state:CREATING", "state:READY", "state:ENDED:client"]);
    expect(ended.seen.slice(0, 3)).toEqual(["state:CREATING", "conn:CONNECTING", "state:READY"]);
    expect(ended.seen).toContain("conn:CONNECTED");
    expect(ended.seen.indexOf("speakingStart")).toBeLessThan(ended.seen.indexOf("speakingEnd"));
    expect(ended.seen.filter((e) => e.startsWith("error:"))).toEqual([]);
    expect(await media().resourcesOf(started.sessionId)).toMatchObject({ viewer: false, turnAllocations: 0 });
    expect(consoleLines.filter((line) => line.includes(ks))).toEqual([]);
    await tab.close();
  }, 120_000);

  it("with iceTransportPolicy relay it still connects, through the emulator's TURN server; endSession releases the allocation", async () => {
    const ks = await userKs("browser-relay-user");
    const { tab } = await openTab();
    const started = await startInPage(tab, { baseUrl: emu.avatarApiUrl, apiKey: ks, relay: true });
    console.log(
      `[browser media, relay only] time to CONNECTED ${started.marks.connectedMs?.toFixed(0)} ms, to first frame ${started.marks.firstFrameMs?.toFixed(0)} ms`,
    );
    expect(started.iceServers).toEqual([
      { urls: [emu.turnUrl], username: expect.stringMatching(new RegExp(`:${started.sessionId}$`)), credential: expect.any(String) },
    ]);
    expect(started.pair.local).toBe("relay");
    expect(started.video.frames).toBeGreaterThan(0);
    expect(started.video.currentTimeAdvanced).toBe(true);
    const held = await media().resourcesOf(started.sessionId);
    expect(held).toMatchObject({ viewer: true, peerState: "connected" });
    expect(held.turnAllocations).toBeGreaterThanOrEqual(1);

    const ended = await endInPage(tab);
    expect(ended.state).toBe("ENDED");
    expect(ended.seen.filter((e) => e.startsWith("error:"))).toEqual([]);
    expect(await media().resourcesOf(started.sessionId)).toMatchObject({ viewer: false, turnAllocations: 0 });
    const turnUser = (started.iceServers?.[0] as { username: string } | undefined)?.username;
    expect(turnUser).toBeTruthy();
    expect(await media().turnUserActive(String(turnUser))).toBe(false);
    await tab.close();
  }, 120_000);
});
