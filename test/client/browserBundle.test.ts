/**
 * The bundled library (dist/client/svc-avatar-session.js, built by scripts/build-client-bundle.mjs) in headless
 * Chromium against the emulator on 127.0.0.1: createSession, sayText, endSession with the real RTCPeerConnection
 * and fetch, the page served from another origin (so CORS is exercised). Chromium comes from Debian
 * (scripts/ensure-chromium.sh); this test never skips: without a browser it fails and says why.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((done) => (page ? page.close(() => done()) : done()));
  await platform?.close();
  await emu?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe("client bundle in headless Chromium", () => {
  it("createSession, sayText and endSession against the emulator, with the state changes seen in the page", async () => {
    const ks = await platform.sessions.service.start({ secret: emu.adminSecret, partnerId: emu.partnerId, type: 0, userId: "browser-user" });
    const tab = await browser.newPage();
    const consoleErrors: string[] = [];
    tab.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
    await tab.waitForFunction(() => (window as unknown as { libReady?: boolean }).libReady === true);

    const result = await tab.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { SvcAvatarSession } = (window as unknown as { lib: typeof import("../../sdk/client") }).lib;
        const seen: string[] = [];
        const session = new SvcAvatarSession({ apiKey, baseUrl, logLevel: "warn" });
        session.on("stateChange", (state, info) => seen.push(`state:${state}${info.reason ? `:${info.reason}` : ""}`));
        session.on("connectionChange", (state) => seen.push(`conn:${state}`));
        session.on("error", (error) => seen.push(`error:${error.code}`));
        const spoke = new Promise<void>((done, fail) => {
          session.on("speakingStart", () => seen.push("speakingStart"));
          session.on("speakingEnd", () => {
            seen.push("speakingEnd");
            done();
          });
          setTimeout(() => fail(new Error(`no speakingEnd; seen ${seen.join(",")}`)), 15_000);
        });
        await session.createSession({ visualId: "visual-1", language: "en", videoContainerId: "avatar" });
        const sessionId = session.getSessionId();
        const readyState = session.getSessionState();
        const video = document.querySelector("#avatar video") as HTMLVideoElement | null;
        await session.sayText("Hello from Chromium");
        await spoke;
        await session.endSession();
        return {
          seen,
          sessionId,
          readyState,
          finalState: session.getSessionState(),
          finalConnection: session.getConnectionState(),
          video: video && { autoplay: video.autoplay, playsInline: video.playsInline, width: video.style.width, height: video.style.height },
          hasRtc: typeof RTCPeerConnection === "function",
        };
      },
      { baseUrl: emu.avatarApiUrl, apiKey: ks },
    );

    expect(result.hasRtc).toBe(true);
    expect(result.sessionId).toMatch(/^as_/);
    expect(result.readyState).toBe("READY");
    expect(result.finalState).toBe("ENDED");
    expect(result.finalConnection).toBe("CLOSED");
    expect(result.video).toEqual({ autoplay: true, playsInline: true, width: "100%", height: "100%" });
    const states = result.seen.filter((e) => e.startsWith("state:"));
    expect(states).toEqual(["state:CREATING", "state:READY", "state:ENDED:client"]);
    expect(result.seen).toContain("conn:CONNECTING");
    expect(result.seen.at(-2)).toBe("conn:CLOSED");
    expect(result.seen.indexOf("speakingStart")).toBeLessThan(result.seen.indexOf("speakingEnd"));
    expect(result.seen.some((e) => e.startsWith("error:"))).toBe(false);
    expect(consoleErrors.filter((line) => line.includes(ks))).toEqual([]);
    await tab.close();
  }, 60_000);
});
