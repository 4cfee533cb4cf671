/**
 * Issue 19, the browser library: no page-origin default for baseUrl (the session string never goes to whatever
 * served the page); createSession checks the video container first and attaches the video last, so a failure
 * leaves the instance usable; response bodies are read up to a cap; server text in errors is redacted.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AvatarConfig, AvatarError, SvcAvatarSession } from "../../sdk/browser";
import { MAX_RESPONSE_BYTES } from "../../sdk/browser/boundedBody";
import { FakeElement } from "../../sdk/browser/fakes/fakeDocument";
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

describe("baseUrl never defaults to the page's origin", () => {
  const g = globalThis as { location?: unknown };
  afterEach(() => {
    delete g.location;
  });

  it("in a page without baseUrl, createSession fails INVALID_CONFIGURATION naming baseUrl and sends nothing", async () => {
    g.location = { origin: "https://page.example", href: "https://page.example/app" };
    const sent: string[] = [];
    const s = new SvcAvatarSession({ apiKey: KS }, { fetch: async (input) => (sent.push(input), new Response("{}")) });
    const error = await rejection(s.createSession({ visualId: "v" }));
    expect(error.code).toBe("INVALID_CONFIGURATION");
    expect(error.message).toContain("baseUrl");
    expect(sent).toEqual([]);
    expect(s.getSessionState()).toBe("IDLE");
  });
});

describe("plain http is refused off loopback, before any request", () => {
  const config = (baseUrl: string, extra: Record<string, unknown> = {}) => ({ apiKey: KS, baseUrl, ...extra });

  it("an http:// baseUrl or catalogUrl to another host fails INVALID_CONFIGURATION naming it; the session string is sent nowhere", () => {
    const sent: string[] = [];
    const fetch = async (input: string) => (sent.push(input), new Response("{}"));
    for (const given of [config("http://avatar.example.com/v1"), config("https://avatar.example.com/v1", { catalogUrl: "http://catalog.example.com" })]) {
      let error: unknown;
      try {
        new SvcAvatarSession(given, { fetch });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AvatarError);
      expect((error as AvatarError).code).toBe("INVALID_CONFIGURATION");
      expect((error as AvatarError).message).toMatch(/^(baseUrl|catalogUrl): http:\/\/\S+ is plain http to a host outside loopback.*allowInsecureHttp: true/);
      expect((error as AvatarError).message).not.toContain(KS);
    }
    expect(() => new SvcAvatarSession(config("http://avatar.example.com/v1", { allowInsecureHttp: "yes" }))).toThrow(
      /allowInsecureHttp: expected true or false/,
    );
    expect(sent).toEqual([]);
  });

  it("loopback needs no opt-in, and allowInsecureHttp: true opts in for another host", async () => {
    for (const url of ["http://127.0.0.1:4010/avatar-api", "http://localhost/avatar-api", "http://[::1]:4010/avatar-api"]) {
      expect(() => h.session(config(url))).not.toThrow();
    }
    const optedIn = h.session(config("http://emu.test/avatar-api", { allowInsecureHttp: true }));
    await optedIn.createSession({ visualId: "v" });
    expect(optedIn.getSessionState()).toBe("READY");
  });
});

describe("createSession attaches the video last; a failure leaves the instance usable", () => {
  it("an unknown container is refused before any call; the instance stays IDLE and can create", async () => {
    const s = h.session();
    const error = await rejection(s.createSession({ visualId: "v", videoContainerId: "missing" }));
    expect(error.code).toBe("INVALID_CONFIGURATION");
    expect(h.count("/create")).toBe(0);
    expect(s.getSessionState()).toBe("IDLE");
    await s.createSession({ visualId: "v", videoContainerId: "avatar" });
    expect(s.getSessionState()).toBe("READY");
    expect(h.doc.getElementById("avatar")!.children).toHaveLength(1);
  });

  it("the video is attached once READY; if its container went away meanwhile, the session stays READY and usable", async () => {
    const s = h.session(undefined, {
      fetch: (input, init) => {
        if (input.endsWith("/create")) h.doc.elements.delete("avatar");
        return h.fetch(input, init);
      },
    });
    const error = await rejection(s.createSession({ visualId: "v", videoContainerId: "avatar" }));
    expect(error.code).toBe("INVALID_CONFIGURATION");
    expect(s.getSessionState()).toBe("READY");
    h.doc.elements.set("elsewhere", new FakeElement("elsewhere"));
    s.attachAvatar("elsewhere");
    expect(h.doc.getElementById("elsewhere")!.children).toHaveLength(1);
    await s.sayText("still here");
    await s.endSession();
    expect(s.getSessionState()).toBe("ENDED");
  });
});

describe("the browser client caps the body it reads", () => {
  it("a streamed answer past the cap is refused and no more of it is read", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const huge = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled > 4 * MAX_RESPONSE_BYTES) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
    const s = h.session(undefined, { fetch: async () => new Response(huge(), { status: 200 }) });
    const error = await rejection(s.createSession({ visualId: "v" }));
    expect(error.code).toBe("API_REQUEST_FAILED");
    expect(error.details).toMatchObject({ tooLarge: true });
    expect(pulled).toBeLessThanOrEqual(MAX_RESPONSE_BYTES + 2 * chunk.byteLength);
  });

  it("a declared Content-Length past the cap is refused without reading", async () => {
    const s = h.session(undefined, {
      fetch: async () => new Response("{}", { status: 200, headers: { "content-length": String(MAX_RESPONSE_BYTES + 1) } }),
    });
    expect((await rejection(s.createSession({ visualId: "v" }))).details).toMatchObject({ tooLarge: true });
  });
});

describe("the whepUrl a server answers follows the configured URLs' rule (issue 39, finding 13)", () => {
  /** The harness's fetch, with init-client's whepUrl moved to `origin` (the harness routes by path, whatever the host). */
  const answeringWhepAt =
    (origin: string) =>
    async (input: string, init?: RequestInit): Promise<Response> => {
      const response = await h.fetch(input, init);
      if (!input.endsWith("/init-client")) return response;
      const body = (await response.json()) as { whepUrl: string };
      const moved = new URL(body.whepUrl);
      const whepUrl = origin === "" ? moved.pathname : `${origin}${moved.pathname}`;
      return new Response(JSON.stringify({ ...body, whepUrl }), { status: response.status, headers: response.headers });
    };

  it("plain http off loopback, another scheme or a relative URL is refused before the offer is sent, naming the rule", async () => {
    const cases: [origin: string, why: RegExp][] = [
      ["http://media.example.com", /^http:\/\/media\.example\.com is plain http to a host outside loopback: .*opt in with `allowInsecureHttp: true`$/],
      ["ftp://media.example.com", /^expected an http\(s\) URL$/],
      ["", /^expected an absolute http\(s\) URL$/],
    ];
    for (const [origin, why] of cases) {
      const s = h.session(undefined, { fetch: answeringWhepAt(origin) });
      const error = await rejection(s.createSession({ visualId: "v" }));
      expect(error.code, origin).toBe("RTC_CONNECTION_FAILED");
      const prefix = "the whepUrl init-client answered is refused: ";
      expect(error.message.startsWith(prefix), error.message).toBe(true);
      expect(error.message.slice(prefix.length), origin).toMatch(why);
      expect(error.message).not.toContain(KS);
    }
    expect(h.count("/whep/")).toBe(0);
  });

  it("https to any host, plain http to loopback, and plain http anywhere with allowInsecureHttp: true are used", async () => {
    const used: [origin: string, config?: AvatarConfig][] = [
      ["https://media.example.com", undefined],
      ["http://127.0.0.1:8443", undefined],
      ["http://media.example.com", { apiKey: KS, baseUrl: BASE_URL, allowInsecureHttp: true }],
    ];
    for (const [origin, config] of used) {
      const s = h.session(config, { fetch: answeringWhepAt(origin) });
      await s.createSession({ visualId: "v" });
      expect(s.getSessionState(), origin).toBe("READY");
      await s.endSession();
    }
    expect(h.count("/whep/")).toBeGreaterThanOrEqual(3);
  });
});
