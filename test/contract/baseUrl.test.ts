/**
 * The base URL rule (contract/baseUrl.ts) and its users: plain http only to loopback unless the caller opts in, the
 * same for the sdk's SvcClient (an option) and the provider (a setting, see test/provider/connectionSources.test.ts).
 */
import { MockAgent } from "undici";
import { describe, expect, it } from "vitest";
import { insecureHttpProblem } from "../../contract/baseUrl";
import { SvcClient, SvcValidationError } from "../../sdk";
import { AvatarSessionApi, AvatarVideoApi } from "../../sdk/avatar";

describe("insecureHttpProblem", () => {
  it("refuses plain http outside loopback, naming the host (never its userinfo), why, and the caller's opt-in", () => {
    const problem = insecureHttpProblem("http://deploy:hunter2@platform.internal:8080/api_v3", false, "OPT-IN");
    expect(problem).toBe(
      "http://platform.internal:8080 is plain http to a host outside loopback: the credentials every call carries (the admin secret, " +
        "an app token's hash, a session string) would travel unencrypted, readable and changeable by anyone on the way. " +
        "Use https://, or, only on a network you trust, opt in with OPT-IN",
    );
  });

  it("allows https anywhere, http on loopback, and http anywhere once opted in", () => {
    const allowed = [
      "https://api.example.com/api_v3",
      "http://127.0.0.1:4010/api_v3",
      "http://127.255.0.9/api_v3",
      "http://localhost/api_v3",
      "http://LOCALHOST:1/api_v3",
      "http://[::1]:4010/api_v3",
    ];
    for (const url of allowed) expect(insecureHttpProblem(url, false, "x"), url).toBeUndefined();
    const refused = [
      "http://10.0.0.1/api_v3",
      "http://192.168.1.5/api_v3",
      "http://0.0.0.0:4010/api_v3",
      "http://127.0.0.1.nip.io/api_v3",
      "http://[::2]/api_v3",
    ];
    for (const url of refused) {
      expect(insecureHttpProblem(url, false, "x"), url).toMatch(/unencrypted/);
      expect(insecureHttpProblem(url, true, "x"), url).toBeUndefined();
    }
  });
});

describe("SvcClient and plain http", () => {
  const options = { partnerId: 1, auth: { ks: "djJ8c2Vzc2lvbi1zdHJpbmc" } } as const;

  it("refuses a plain http baseUrl outside loopback by default, before any request, saying how to opt in", () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const create = () => new SvcClient({ ...options, baseUrl: "http://platform.internal/api_v3", dispatcher: agent });
    expect(create).toThrow(SvcValidationError);
    expect(create).toThrow(/^SvcClient: baseUrl: http:\/\/platform.internal is plain http .* unencrypted.*the SvcClient option `allowInsecureHttp: true`$/);
  });

  it("accepts it with allowInsecureHttp, and loopback or https without", async () => {
    for (const baseUrl of ["http://127.0.0.1:9/api_v3", "https://platform.internal/api_v3"]) await new SvcClient({ ...options, baseUrl }).close();
    const client = new SvcClient({ ...options, baseUrl: "http://platform.internal/api_v3", allowInsecureHttp: true });
    expect(client.baseUrl).toBe("http://platform.internal/api_v3");
    await client.close();
    expect(() => new SvcClient({ ...options, baseUrl: "https://a/api_v3", allowInsecureHttp: "yes" as never })).toThrow(/allowInsecureHttp/);
  });
});

describe("the avatar backend clients and plain http", () => {
  it("refuse a plain http root outside loopback unless allowInsecureHttp, as SvcClient does (they send the session string)", async () => {
    for (const Client of [AvatarSessionApi, AvatarVideoApi]) {
      expect(() => new Client({ baseUrl: "http://avatar.internal/avatar-api", ks: "djJ8c2Vzc2lvbi1zdHJpbmc" })).toThrow(
        /^avatar(Api|Video)Url: http:\/\/avatar.internal is plain http .*unencrypted.*`allowInsecureHttp: true`$/,
      );
      await new Client({ baseUrl: "http://avatar.internal/avatar-api", allowInsecureHttp: true }).close();
      await new Client({ baseUrl: "http://127.0.0.1:9/avatar-api" }).close();
    }
  });
});
