/**
 * The plugin applies the same connection rules to a provider's config in CheckConfig (so `pulumi preview` reports
 * them, before any resource runs): an explicit provider that names only its account takes no SVC_* credentials of
 * the plugin's environment, and plain http outside loopback needs `allowInsecureHttp` beside the baseUrl.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SvcProviderServer } from "../../plugin/server";
import { DEFINITIONS } from "../../provider/definitions";

const server = new SvcProviderServer(DEFINITIONS, "0.0.0-test");

/** CheckConfig's failures for a provider's inputs. */
async function failuresOf(news: Record<string, unknown>): Promise<{ property: string; reason: string }[]> {
  const request = new provproto.CheckRequest()
    .setUrn("urn:pulumi:dev::p::pulumi:providers:svc::second")
    .setNews(structproto.Struct.fromJavaScript(news as never));
  const response = await new Promise<provproto.CheckResponse>((resolve, reject) =>
    server.checkConfig({ request }, (error, value) => (error ? reject(error) : resolve(value as provproto.CheckResponse))),
  );
  return response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the plugin's CheckConfig", () => {
  it("refuses an explicit provider that names only its account while SVC_* holds another account's credentials", async () => {
    vi.stubEnv("SVC_BASE_URL", "https://first.example/api_v3");
    vi.stubEnv("SVC_PARTNER_ID", "1");
    vi.stubEnv("SVC_ADMIN_SECRET", "first-account-admin-secret");
    const failures = await failuresOf({ baseUrl: "https://second.example/api_v3", partnerId: 2 });
    expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^No credentials for the account `svc:baseUrl` and `svc:partnerId` names/) }]);
    expect(JSON.stringify(failures)).not.toContain("first-account-admin-secret");
    // The same provider with its own credentials, or the environment's own account, is fine.
    expect(await failuresOf({ baseUrl: "https://second.example/api_v3", partnerId: 2, adminSecret: "second" })).toEqual([]);
    expect(await failuresOf({ baseUrl: "https://first.example/api_v3", partnerId: 1 })).toEqual([]);
    expect(await failuresOf({})).toEqual([]);
  });

  it("refuses plain http outside loopback unless allowInsecureHttp is set beside the baseUrl", async () => {
    const provider = { baseUrl: "http://platform.internal/api_v3", partnerId: 2, adminSecret: "second" };
    const [failure] = await failuresOf(provider);
    expect(failure?.reason).toMatch(/^`svc:baseUrl`: http:\/\/platform.internal is plain http .* would travel unencrypted.*allowInsecureHttp: true/);
    expect(await failuresOf({ ...provider, allowInsecureHttp: true })).toEqual([]);
    expect(await failuresOf({ ...provider, baseUrl: "http://127.0.0.1:4010/api_v3" })).toEqual([]);
  });
});
