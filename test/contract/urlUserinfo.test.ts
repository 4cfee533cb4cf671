/**
 * A URL's `user:password@` never reaches a message: the one function (contract/urlUserinfo.ts), the sdk's redact()
 * that every sdk error, event and log line passes through, the transport's errors, and the emulator's log. The
 * provider's and the plugin's messages: test/provider/connectionMessages.test.ts.
 */
import * as fc from "fast-check";
import { MockAgent } from "undici";
import { describe, expect, it, vi } from "vitest";
import { stripUserinfo } from "../../contract/urlUserinfo";
import { createEmulatorContext } from "../../emulator";
import { SvcClient, SvcError } from "../../sdk";
import { redact, redactValue } from "../../sdk/core/redact";

const PASSWORD = "hunter2-pa55";

describe("stripUserinfo", () => {
  it("drops the userinfo of every URL in a text, and nothing else", () => {
    const cases: [string, string][] = [
      ["https://deploy:hunter2-pa55@api.example.com/api_v3", "https://api.example.com/api_v3"],
      ["http://user@127.0.0.1:4010/api_v3/", "http://127.0.0.1:4010/api_v3/"],
      ["at HTTPS://a:b@h.example and at ftp://c:d@e.example/x?y=z@w", "at HTTPS://h.example and at ftp://e.example/x?y=z@w"],
      // A password with an unencoded @: WHATWG takes everything up to the last @ before the host as userinfo.
      ["https://u:p@ss@host.example/p", "https://host.example/p"],
      ["https://u:p%40ss@host.example", "https://host.example"],
      ['{"baseUrl":"https://u:p@h.example/api_v3","note":"mail me@example.com"}', '{"baseUrl":"https://h.example/api_v3","note":"mail me@example.com"}'],
      ["no url: user@example.com, a@b", "no url: user@example.com, a@b"],
      ["https://h.example/path@not-userinfo", "https://h.example/path@not-userinfo"],
    ];
    for (const [text, expected] of cases) expect(stripUserinfo(text), text).toBe(expected);
  });

  it("drops userinfo holding characters the URL parser accepts and percent-encodes: ' \" space ` < >", () => {
    for (const odd of ["'", '"', " ", "`", "<", ">"]) {
      const url = `https://deploy:pa${odd}ss-${PASSWORD}@api.example.com/api_v3`;
      expect(new URL(url).password, `the parser takes ${JSON.stringify(odd)} into the password`).not.toBe("");
      expect(stripUserinfo(`failed: ${url} (retrying)`)).toBe("failed: https://api.example.com/api_v3 (retrying)");
    }
  });

  it("property: what is left of a URL, parsed again, has the same host and no userinfo (the URL parser is the oracle)", () => {
    const userinfoChar = fc.constantFrom(..."abcXYZ019:'\" `<>!$%&()*+,;=-._~[]{}|^".split(""));
    fc.assert(
      fc.property(fc.string({ unit: userinfoChar, minLength: 1, maxLength: 24 }), fc.constantFrom("https", "http", "ftp", "git+ssh"), (userinfo, scheme) => {
        const url = `${scheme}://${userinfo}@host.example/p?q=1`;
        const parsed = new URL(url);
        fc.pre(parsed.username !== "" || parsed.password !== "");
        const out = stripUserinfo(`see ${url}`);
        expect(out.startsWith("see ")).toBe(true);
        const again = new URL(out.slice(4));
        expect(again.username + again.password).toBe("");
        expect(again.host).toBe(parsed.host);
        expect(again.pathname + again.search).toBe(parsed.pathname + parsed.search);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the sdk", () => {
  it("redact() and redactValue() strip userinfo: every sdk error, event and log line goes through them", () => {
    expect(redact(`POST https://deploy:${PASSWORD}@api.example.com/api_v3/service/x failed`)).toBe("POST https://api.example.com/api_v3/service/x failed");
    expect(JSON.stringify(redactValue({ detail: { url: `http://u:${PASSWORD}@127.0.0.1/x` } }))).not.toContain(PASSWORD);
    expect(new SvcError("NETWORK_ERROR", `connect to https://u:${PASSWORD}@h.example refused`).message).not.toContain(PASSWORD);
  });

  it("the transport's errors never carry a baseUrl's userinfo, even when a lower layer quotes the URL", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const origin = "https://127.0.0.1:9443";
    const baseUrl = `https://deploy:${PASSWORD}@127.0.0.1:9443/api_v3`;
    const pool = agent.get(origin);
    // A failure whose text names the URL it was sent to, as a proxy or an agent may.
    pool
      .intercept({ path: /.*/, method: "POST" })
      .replyWithError(Object.assign(new Error(`socket hang up (${baseUrl}/service/session/action/start)`), { code: "UND_ERR_SOCKET" }))
      .persist();
    const client = new SvcClient({
      baseUrl,
      partnerId: 1,
      auth: { ks: "djJ8c2Vzc2lvbi1zdHJpbmc" },
      dispatcher: agent,
      maxRetries: 1,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
    });
    const error = (await client.appTokens.list().catch((e: unknown) => e)) as SvcError;
    expect(SvcError.isSvcError(error)).toBe(true);
    const texts = [error.message, JSON.stringify(error), JSON.stringify(error.cause), String(error), require("node:util").inspect(error)];
    for (const text of texts) expect(text).not.toContain(PASSWORD);
    expect(JSON.stringify(error.cause)).toContain("https://127.0.0.1:9443/api_v3/service"); // the host is kept
    await client.close();
    await agent.close();
  });
});

describe("the emulator", () => {
  it("logs no userinfo", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    const ctx = createEmulatorContext({});
    ctx.log(`delivery to https://hook:${PASSWORD}@receiver.example/hooks failed`);
    spy.mockRestore();
    await ctx.close();
    expect(lines).toEqual(["[svc-emulator] delivery to https://receiver.example/hooks failed"]);
  });
});
