/**
 * Drives SvcAvatarSession against the emulator's avatar routers in process: the library's fetch goes to
 * app.request, the emulator and the library share one FakeClock, and WebRTC is the FakePeerConnection.
 * `faults` lets a test answer the next matching requests with a status or a network error.
 */
import { Hono } from "hono";
import { afterEach } from "vitest";
import { avatarStateOf, createAvatarApiRoutes, createAvatarVideoRoutes } from "../../emulator/avatar";
import { SvcAvatarSession, type AvatarConfig } from "../../sdk/browser";
import { FakeClock, FakeDocument, FakePeerConnection } from "../../sdk/browser/fakes";
import type { AvatarSessionDeps } from "../../sdk/browser/config";
import { fakeAvatarContext, type FakeAvatarContext } from "../avatar/fakeContext";

export const BASE_URL = "https://emu.test/avatar-api";
export const KS = "ks-user-alice";

export interface Fault {
  /** Substring of the URL (e.g. "/keep-alive"). */
  match: string;
  method?: string;
  /** Answer with this status and `{success:false,error}` body, or throw a network error. */
  status?: number;
  network?: boolean;
  body?: unknown;
  times: number;
}

export interface Harness {
  clock: FakeClock;
  ctx: FakeAvatarContext;
  app: Hono;
  doc: FakeDocument;
  calls: Array<{ method: string; path: string; status: number | "network"; at: number; body?: unknown; headers: Headers }>;
  faults: Fault[];
  logs: Array<{ level: string; line: string }>;
  deprecations: Set<string>;
  fetch(input: string, init?: RequestInit): Promise<Response>;
  session(config?: AvatarConfig, deps?: AvatarSessionDeps): SvcAvatarSession;
  record(session: SvcAvatarSession): string[];
  count(pathPart: string): number;
}

/** The emulator's WHEP peers and TURN relay are real sockets: closed after every test of a file using this. */
const openContexts: FakeAvatarContext[] = [];
afterEach(async () => {
  await Promise.all(openContexts.splice(0).map((ctx) => avatarStateOf(ctx).media.close()));
});

export function createHarness(): Harness {
  FakePeerConnection.reset();
  let inFlight = 0;
  const clock = new FakeClock(undefined, () => inFlight > 0);
  const ctx = fakeAvatarContext();
  ctx.now = () => clock.now();
  ctx.addKs(KS, { type: 0, userId: "alice" });
  openContexts.push(ctx);
  const app = new Hono();
  app.route("/avatar-api", createAvatarApiRoutes(ctx));
  app.route("/avatar-video", createAvatarVideoRoutes(ctx));
  const doc = new FakeDocument(["avatar"]);
  const calls: Harness["calls"] = [];
  const faults: Fault[] = [];
  const logs: Harness["logs"] = [];
  const deprecations = new Set<string>();

  const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
    inFlight++;
    try {
      return await send(input, init);
    } finally {
      inFlight--;
    }
  };
  const send = async (input: string, init?: RequestInit): Promise<Response> => {
    const url = new URL(input);
    const method = init?.method ?? "GET";
    const path = url.pathname;
    const at = clock.now();
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === "string" && headers.get("content-type") === "application/json" ? JSON.parse(init.body) : init?.body;
    const fault = faults.find((f) => f.times > 0 && input.includes(f.match) && (!f.method || f.method === method));
    if (fault) {
      fault.times--;
      if (fault.network) {
        calls.push({ method, path, status: "network", at, body, headers });
        throw new TypeError("fetch failed");
      }
      calls.push({ method, path, status: fault.status!, at, body, headers });
      return new Response(JSON.stringify(fault.body ?? { success: false, error: "injected" }), {
        status: fault.status,
        headers: { "content-type": "application/json" },
      });
    }
    const response = await app.request(input, init);
    // Read the body here so the library's own read does not outlive the in-flight count.
    const text = await response.text();
    calls.push({ method, path, status: response.status, at, body, headers });
    return new Response(response.status === 204 ? null : text, { status: response.status, headers: response.headers });
  };

  const sink = {
    debug: (line: string) => logs.push({ level: "debug", line }),
    info: (line: string) => logs.push({ level: "info", line }),
    warn: (line: string) => logs.push({ level: "warn", line }),
    error: (line: string) => logs.push({ level: "error", line }),
  };

  return {
    clock,
    ctx,
    app,
    doc,
    calls,
    faults,
    logs,
    deprecations,
    fetch,
    session(config = { apiKey: KS, baseUrl: BASE_URL }, deps = {}) {
      return new SvcAvatarSession(config, {
        fetch,
        RTCPeerConnection: FakePeerConnection,
        clock,
        document: doc,
        logger: sink,
        deprecations,
        ...deps,
      });
    },
    record(session) {
      const seen: string[] = [];
      session.on("stateChange", (state, info) => seen.push(`state:${state}${info.reason ? `:${info.reason}` : ""}`));
      session.on("connectionChange", (state) => seen.push(`conn:${state}`));
      session.on("error", (error) => seen.push(`error:${error.code}`));
      session.on("speakingStart", () => seen.push("speakingStart"));
      session.on("speakingEnd", () => seen.push("speakingEnd"));
      return seen;
    },
    count(pathPart) {
      return calls.filter((call) => call.path.includes(pathPart)).length;
    },
  };
}
