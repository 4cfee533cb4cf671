import { beforeEach, describe, expect, it } from "vitest";
import { AvatarError, AvatarErrorCode, SvcAvatarSession } from "../../sdk/browser";
import { FakePeerConnection } from "../../sdk/browser/fakes";
import { DEFAULT_RETRY, jitteredDelayMs } from "../../sdk/browser/retry";
import { createRequestOf } from "../../sdk/browser/sessionInputs";
import { TTS_LANGUAGES } from "../../contract/avatar";
import { BASE_URL, createHarness, KS, type Harness } from "./harness";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});

async function rejection(promise: Promise<unknown>): Promise<AvatarError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AvatarError);
    return error as AvatarError;
  }
  throw new Error("expected a rejection");
}

describe("SvcAvatarSession errors, retries and state rules", () => {
  it("refuses calls in the wrong state with INVALID_STATE and changes nothing", async () => {
    const s = h.session();
    for (const call of [() => s.sayText("hi"), () => s.interrupt(), () => s.endSession(), () => s.sayAudio(new Blob([new Uint8Array(4)]), "t", 1)]) {
      expect((await rejection(call())).code).toBe(AvatarErrorCode.INVALID_STATE);
    }
    expect(s.getSessionState()).toBe("IDLE");
    await s.createSession({ visualId: "v" });
    expect((await rejection(s.createSession({ visualId: "v" }))).code).toBe("INVALID_STATE");
    expect((await rejection(s.initSession({ sessionId: "x", token: "y" }))).code).toBe("INVALID_STATE");
    expect(h.count("/create")).toBe(1);
  });

  it("maps create failures: 401 and 403 UNAUTHORIZED, 500 API_REQUEST_FAILED (not retried), state ERROR", async () => {
    const cases: Array<[number, string]> = [
      [401, "UNAUTHORIZED"],
      [403, "UNAUTHORIZED"],
      [500, "API_REQUEST_FAILED"],
      [400, "API_REQUEST_FAILED"],
    ];
    for (const [status, code] of cases) {
      const s = h.session();
      const seen = h.record(s);
      const before = h.count("/create");
      h.faults.push({ match: "/create", status, times: 1 });
      const error = await rejection(s.createSession({ visualId: "v" }));
      expect(error.code).toBe(code);
      expect(error.details).toMatchObject({ op: "create", status });
      expect(h.count("/create") - before).toBe(1);
      expect(s.getSessionState()).toBe("ERROR");
      expect(seen).toEqual(["state:CREATING", `error:${code}`, "state:ERROR"]);
      // From ERROR only endSession is allowed; it ends locally (no session was created) with reason error.
      expect((await rejection(s.sayText("x"))).code).toBe("INVALID_STATE");
      await s.endSession();
      expect(s.getSessionState()).toBe("ENDED");
      expect(s.getEndReason()).toBe("error");
    }
  });

  it("a real invalid ks gives UNAUTHORIZED from the emulator", async () => {
    const s = h.session({ apiKey: "not-a-ks", baseUrl: BASE_URL });
    expect((await rejection(s.createSession({ visualId: "v" }))).code).toBe("UNAUTHORIZED");
  });

  it("never repeats create, after an answer (503) or a network error: the contract's rule, as the backend client", async () => {
    const s = h.session();
    h.faults.push({ match: "/create", status: 503, times: 1 });
    expect((await rejection(s.createSession({ visualId: "v" }))).code).toBe("API_REQUEST_FAILED");
    expect(h.calls.filter((c) => c.path.endsWith("/create")).map((c) => c.status)).toEqual([503]);

    const t = h.session();
    h.faults.push({ match: "/create", network: true, times: 1 });
    const error = await rejection(t.createSession({ visualId: "v" }));
    expect(error.code).toBe("API_REQUEST_FAILED");
    expect(h.calls.filter((c) => c.path.endsWith("/create")).map((c) => c.status)).toEqual([503, "network"]);
  });

  it("retries keep-alive with exponential backoff (RetryConfig), and a keep-alive that keeps failing stops the session", async () => {
    const retryConfig = { maxAttempts: 4, initialDelayMs: 200, maxDelayMs: 500, backoffMultiplier: 2 };
    // random() = 1: the jitter's upper bound, i.e. the plain backoff (jitter itself is tested below).
    const s = h.session({ apiKey: KS, baseUrl: BASE_URL, retryConfig }, { random: () => 1 });
    const seen = h.record(s);
    await s.createSession({ visualId: "v" });
    h.faults.push({ match: "/keep-alive", status: 503, times: 2 });
    await h.clock.advance(10_000 + 1_000);
    const first = h.calls.filter((c) => c.path.endsWith("/keep-alive"));
    expect(first.map((c) => c.status)).toEqual([503, 503, 200]);
    expect(first.map((c) => c.at - first[0]!.at)).toEqual([0, 200, 600]);
    expect(s.getSessionState()).toBe("READY");

    h.faults.push({ match: "/keep-alive", network: true, times: 4 });
    await h.clock.advance(12_000);
    const all = h.calls.filter((c) => c.path.endsWith("/keep-alive"));
    const second = all.slice(3);
    expect(second.map((c) => c.status)).toEqual(["network", "network", "network", "network"]);
    expect(second.map((c) => c.at - second[0]!.at)).toEqual([0, 200, 600, 1_100]); // 200, 400, then capped at 500
    expect(s.getSessionState()).toBe("ERROR");
    expect(seen.slice(-2)).toEqual(["error:API_REQUEST_FAILED", "state:ERROR"]);
    await h.clock.advance(30_000);
    expect(h.calls.filter((c) => c.path.endsWith("/keep-alive")).length).toBe(all.length);
    // endSession from ERROR is retried like keep-alive; by now the server has idled the session out (410).
    h.faults.push({ match: "/end", status: 502, times: 1 });
    const ending = s.endSession();
    await h.clock.advance(200);
    await ending;
    expect(h.calls.filter((c) => c.path.endsWith("/end")).map((c) => c.status)).toEqual([502, 410]);
    expect(s.getSessionState()).toBe("ENDED");
    expect(s.getEndReason()).toBe("error");
  });

  it("keep-alive refused with 401 is UNAUTHORIZED at once (no retry), session ERROR", async () => {
    const s = h.session();
    const seen = h.record(s);
    await s.createSession({ visualId: "v" });
    h.faults.push({ match: "/keep-alive", status: 401, times: 1 });
    await h.clock.advance(10_000);
    expect(h.count("/keep-alive")).toBe(1);
    expect(s.getSessionState()).toBe("ERROR");
    expect(seen).toContain("error:UNAUTHORIZED");
  });

  it("say-text 404 is SESSION_NOT_FOUND (session ERROR); 500 is API_REQUEST_FAILED and the session stays READY", async () => {
    const s = h.session();
    const seen = h.record(s);
    await s.createSession({ visualId: "v" });
    h.faults.push({ match: "/say-text", status: 500, times: 1 });
    const transient = await rejection(s.sayText("hello"));
    expect(transient.code).toBe("API_REQUEST_FAILED");
    expect(h.count("/say-text")).toBe(1); // never retried blindly
    expect(s.getSessionState()).toBe("READY");
    h.faults.push({ match: "/say-text", status: 404, times: 1 });
    expect((await rejection(s.sayText("hello"))).code).toBe("SESSION_NOT_FOUND");
    expect(s.getSessionState()).toBe("ERROR");
    expect(seen.filter((e) => e.startsWith("error:"))).toEqual(["error:API_REQUEST_FAILED", "error:SESSION_NOT_FOUND"]);
  });

  it("say-text 410 ends the session with the server's reason", async () => {
    const s = h.session();
    await s.createSession({ visualId: "v" });
    h.faults.push({ match: "/say-text", status: 410, body: { success: false, error: "gone", reason: "server" }, times: 1 });
    expect((await rejection(s.sayText("hello"))).code).toBe("SESSION_NOT_FOUND");
    expect(s.getSessionState()).toBe("ENDED");
    expect(s.getEndReason()).toBe("server");
  });

  it("maps WHEP statuses: 404 SESSION_NOT_FOUND, 409 and 415 RTC_CONNECTION_FAILED; the backend session is released", async () => {
    for (const [status, code] of [
      [404, "SESSION_NOT_FOUND"],
      [409, "RTC_CONNECTION_FAILED"],
      [415, "RTC_CONNECTION_FAILED"],
    ] as const) {
      const s = h.session();
      const seen = h.record(s);
      h.faults.push({ match: "/whep/", method: "POST", status, times: 1 });
      const error = await rejection(s.createSession({ visualId: "v" }));
      expect(error.code).toBe(code);
      expect(s.getSessionState()).toBe("ERROR");
      expect(s.getConnectionState()).toBe("FAILED");
      expect(seen).toEqual(["state:CREATING", "conn:CONNECTING", "conn:FAILED", `error:${code}`, "state:ERROR"]);
      await h.clock.advance(0);
      expect(h.calls.at(-1)).toMatchObject({ path: expect.stringMatching(/\/end$/), status: 200 });
    }
  });

  it("a second viewer on the same session gets 409 from the emulator", async () => {
    const a = h.session();
    await a.createSession({ visualId: "v" });
    const token = (h.calls.find((c) => c.path.endsWith("/init-client"))!.headers.get("authorization") ?? "").slice(7);
    const b = h.session({ baseUrl: BASE_URL });
    const error = await rejection(b.initSession({ sessionId: a.getSessionId()!, token }));
    expect(error.code).toBe("RTC_CONNECTION_FAILED");
    expect(error.details).toMatchObject({ status: 409 });
  });

  it("an answer the peer connection rejects, or a connection that fails later, is RTC_CONNECTION_FAILED", async () => {
    FakePeerConnection.rejectAnswer = "bad answer";
    const s = h.session();
    expect((await rejection(s.createSession({ visualId: "v" }))).code).toBe("RTC_CONNECTION_FAILED");
    FakePeerConnection.rejectAnswer = undefined;

    FakePeerConnection.autoConnect = false;
    const t = h.session();
    const seen = h.record(t);
    await t.createSession({ visualId: "v" });
    expect(t.getSessionState()).toBe("READY");
    expect(t.getConnectionState()).toBe("CONNECTING");
    FakePeerConnection.last().setConnectionState("connected");
    expect(t.getConnectionState()).toBe("CONNECTED");
    FakePeerConnection.last().setConnectionState("failed");
    expect(t.getSessionState()).toBe("ERROR");
    expect(t.getConnectionState()).toBe("FAILED");
    expect(seen.slice(-3)).toEqual(["conn:FAILED", "error:RTC_CONNECTION_FAILED", "state:ERROR"]);
    const keepAlives = h.count("/keep-alive");
    await h.clock.advance(20_000);
    expect(h.count("/keep-alive")).toBe(keepAlives);
  });

  it("rejects bad configuration and input with INVALID_CONFIGURATION before any call", async () => {
    const bad = [
      () => h.session({ baseUrl: "ftp://x" }),
      () => h.session({ baseUrl: "not a url" }),
      () => h.session({ baseUrl: BASE_URL, retryConfig: { maxAttempts: 0, initialDelayMs: 1, maxDelayMs: 2, backoffMultiplier: 2 } }),
      () => h.session({ baseUrl: BASE_URL, logLevel: "verbose" as never }),
      () => h.session({ baseUrl: BASE_URL, apiKey: "" }),
    ];
    for (const make of bad) expect(make).toThrow(expect.objectContaining({ code: "INVALID_CONFIGURATION" }));
    const noKey = h.session({ baseUrl: BASE_URL });
    expect((await rejection(noKey.createSession({ visualId: "v" }))).code).toBe("INVALID_CONFIGURATION");
    const s = h.session();
    expect((await rejection(s.createSession({} as never))).code).toBe("INVALID_CONFIGURATION");
    expect((await rejection(s.createSession({ visualId: "v", language: "English" }))).code).toBe("INVALID_CONFIGURATION");
    expect((await rejection(s.createSession({ visualId: "v", videoContainerId: "missing" }))).code).toBe("INVALID_CONFIGURATION");
    expect((await rejection(s.initSession({ sessionId: "", token: "t" }))).code).toBe("INVALID_CONFIGURATION");
    expect(() => s.on("nope" as never, (() => undefined) as never)).toThrow(expect.objectContaining({ code: "INVALID_CONFIGURATION" }));
    const noBase = new SvcAvatarSession({ apiKey: KS }, { fetch: async () => new Response() });
    expect((await rejection(noBase.createSession({ visualId: "v" }))).code).toBe("INVALID_CONFIGURATION");
    const noRtc = h.session(undefined, { RTCPeerConnection: undefined });
    expect("RTCPeerConnection" in globalThis).toBe(false);
    expect((await rejection(noRtc.createSession({ visualId: "v" }))).code).toBe("INVALID_CONFIGURATION");
    expect(h.count("/whep/")).toBe(0);
  });

  it("jitters the retry waits: each is drawn from [d/2, d] of the exponential backoff d (default policy included)", async () => {
    const retryConfig = { maxAttempts: 3, initialDelayMs: 200, maxDelayMs: 5_000, backoffMultiplier: 2 };
    const s = h.session({ apiKey: KS, baseUrl: BASE_URL, retryConfig }, { random: () => 0 });
    await s.createSession({ visualId: "v" });
    h.faults.push({ match: "/keep-alive", status: 503, times: 2 });
    await h.clock.advance(11_000);
    const calls = h.calls.filter((c) => c.path.endsWith("/keep-alive"));
    expect(calls.map((c) => c.at - calls[0]!.at)).toEqual([0, 100, 300]); // d/2 of 200, then of 400
    // The default policy draws from Math.random: waits spread over [d/2, d].
    const draws = Array.from({ length: 200 }, () => jitteredDelayMs(DEFAULT_RETRY, 2));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...draws)).toBeLessThanOrEqual(1_000);
    expect(new Set(draws).size).toBeGreaterThan(20);
  });

  it("logs deprecation warnings whatever the logLevel, once per kind of use across sessions", async () => {
    const warnings = () => h.logs.filter((l) => l.level === "warn").map((l) => l.line);
    const quiet = { baseUrl: BASE_URL, logLevel: "error" as const };
    const a = new SvcAvatarSession(KS, quiet, { ...depsOf(h) });
    await a.createSession({ avatarId: "legacy-visual" });
    expect(warnings()).toEqual([
      expect.stringContaining("Deprecated: new SvcAvatarSession(apiKey)"),
      expect.stringContaining("Deprecated: createSession({ avatarId })"),
    ]);
    const b = new SvcAvatarSession(KS, quiet, { ...depsOf(h) });
    await b.createSession({ avatarId: "legacy-visual" });
    expect(warnings()).toHaveLength(2);
    // Nothing else got through logLevel "error".
    expect(h.logs.filter((l) => !l.line.includes("Deprecated"))).toEqual([]);
  });

  it("checks the TTS language against the spec's 32 codes, naming the code it refuses", async () => {
    const s = h.session();
    for (const bad of ["English", "xx", "EN", "en-US"]) {
      const error = await rejection(s.createSession({ visualId: "v", language: bad }));
      expect(error.code).toBe("INVALID_CONFIGURATION");
      expect(error.message).toContain(`"${bad}"`);
    }
    expect(h.count("/create")).toBe(0);
    expect(TTS_LANGUAGES).toHaveLength(32);
    for (const language of TTS_LANGUAGES) expect(createRequestOf({ visualId: "v", language }).voiceConfig).toEqual({ language });
  });

  it("honours the deprecated forms: positional apiKey and avatarId work and warn once each", async () => {
    const a = new SvcAvatarSession(KS, { baseUrl: BASE_URL }, depsOf(h));
    const b = new SvcAvatarSession(KS, { baseUrl: BASE_URL }, depsOf(h));
    await a.createSession({ avatarId: "legacy-visual" });
    await b.createSession({ avatarId: "legacy-visual" });
    expect(a.getSessionState()).toBe("READY");
    expect(b.getSessionState()).toBe("READY");
    const creates = h.calls.filter((c) => c.path.endsWith("/create"));
    expect(creates.map((c) => (c.body as { visualConfig: { id: string } }).visualConfig.id)).toEqual(["legacy-visual", "legacy-visual"]);
    expect(creates.every((c) => c.headers.get("authorization") === `KS ${KS}`)).toBe(true);
    const warnings = h.logs.filter((l) => l.level === "warn").map((l) => l.line);
    expect(warnings.filter((w) => w.includes("new SvcAvatarSession(apiKey)"))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes("avatarId"))).toHaveLength(1);
  });

  it("honours logLevel and never logs the ks or the JWT", async () => {
    const quiet = h.session({ apiKey: KS, baseUrl: BASE_URL, logLevel: "error" });
    await quiet.createSession({ visualId: "v" });
    await quiet.endSession();
    expect(h.logs).toEqual([]);
    const chatty = h.session({ apiKey: KS, baseUrl: BASE_URL, logLevel: "debug" });
    await chatty.createSession({ visualId: "v" });
    h.faults.push({ match: "/keep-alive", status: 503, times: 1 });
    await h.clock.advance(11_000);
    await chatty.endSession();
    expect(h.logs.some((l) => l.level === "debug")).toBe(true);
    expect(h.logs.some((l) => l.level === "info" && l.line.includes("READY"))).toBe(true);
    const token = (h.calls.find((c) => c.path.endsWith("/init-client"))!.headers.get("authorization") ?? "").slice(7);
    for (const { line } of h.logs) {
      expect(line).not.toContain(KS);
      expect(line).not.toContain(token);
    }
  });
});

function depsOf(harness: Harness) {
  return {
    fetch: harness.fetch,
    RTCPeerConnection: FakePeerConnection,
    clock: harness.clock,
    document: harness.doc,
    deprecations: harness.deprecations,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (line: string) => harness.logs.push({ level: "warn", line }),
      error: () => undefined,
    },
  };
}

describe("keep-alive cadence under slow retries", () => {
  it("skips a beat instead of overlapping when a keep-alive is still retrying", async () => {
    const h = createHarness();
    const retryConfig = { maxAttempts: 3, initialDelayMs: 6_000, maxDelayMs: 6_000, backoffMultiplier: 1 };
    const s = h.session({ apiKey: KS, baseUrl: BASE_URL, retryConfig }, { random: () => 1 });
    await s.createSession({ visualId: "v" });
    h.faults.push({ match: "/keep-alive", status: 503, times: 2 });
    // Tick at 10 s retries at 16 s and 22 s (passing the 20 s beat); the next keep-alive starts at 30 s.
    await h.clock.advance(31_000);
    const times = h.calls.filter((c) => c.path.endsWith("/keep-alive")).map((c) => c.at - h.calls[0]!.at);
    expect(times).toEqual([10_000, 16_000, 22_000, 30_000]);
    expect(s.getSessionState()).toBe("READY");
  });
});
