/**
 * A connection's `user:password@` never reaches a message of the provider or the plugin: the connection's own
 * errors, check failures, and the plugin's not-found answer to `pulumi import` (which names the account searched).
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { SvcProviderServer } from "../../plugin/server";
import { resolveConnection } from "../../provider/core/connection";
import { DEFINITIONS } from "../../provider/definitions";
import { providerRuntime } from "../support/providerRuntime";

const PASSWORD = "hunter2-pa55";

/** The message a ConnectionError (or any error) of `run` carries, or "" when it does not throw. */
function messageOf(run: () => unknown): string {
  try {
    run();
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("connection errors", () => {
  it("name the URL's host, never its userinfo", () => {
    const texts = [
      messageOf(() => resolveConnection(undefined, (key) => ({ "svc:baseUrl": `http://deploy:${PASSWORD}@platform.internal/api_v3` })[key], {})),
      messageOf(() => resolveConnection({ baseUrl: `http://deploy:${PASSWORD}@10.0.0.7/api_v3`, adminSecret: "s" }, () => undefined, {})),
      messageOf(() => resolveConnection(undefined, () => undefined, { SVC_BASE_URL: `http://deploy:${PASSWORD}@10.0.0.8/api_v3`, SVC_PARTNER_ID: "1" })),
    ];
    expect(texts.every((text) => /is plain http/.test(text))).toBe(true);
    for (const text of texts) expect(text).not.toContain(PASSWORD);
    expect(texts[0]).toContain("http://platform.internal");
  });

  it("check failures of a connection carry no userinfo", async () => {
    // A session with no stack config.
    const { failures } = await providerRuntime().appToken.check(
      {},
      { description: "x", connection: { baseUrl: `http://deploy:${PASSWORD}@platform.internal/api_v3`, adminSecret: "s" } },
    );
    expect(failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(failures)).not.toContain(PASSWORD);
  });
});

describe("the plugin's not-found answer", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  const server = new SvcProviderServer(DEFINITIONS, "0.0.0-test");
  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
  });
  afterAll(async () => {
    await server.session.close();
    await emulator?.close();
  });

  it("names the partner and the host searched, never the baseUrl's user:password@", async () => {
    const baseUrl = emulator.baseUrl.replace("http://", `http://deploy:${PASSWORD}@`);
    const args = { baseUrl, partnerId: emulator.partnerId, adminSecret: emulator.adminSecret };
    await new Promise<void>((resolve, reject) =>
      server.configure({ request: new provproto.ConfigureRequest().setArgs(structproto.Struct.fromJavaScript(args)) }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    const request = new provproto.ReadRequest()
      .setId("0_doesnotexist")
      .setUrn("urn:pulumi:dev::p::svc:index:AppToken::imported")
      .setType("svc:index:AppToken")
      .setProperties(structproto.Struct.fromJavaScript({}));
    const failure = await new Promise<{ details?: string; message?: string }>((resolve) =>
      server.read({ request }, (error) => resolve((error ?? {}) as { details?: string; message?: string })),
    );
    expect(failure.details).toMatch(/^AppToken "0_doesnotexist" was not found in partner \d+ at http:\/\/127\.0\.0\.1:\d+\/api_v3/);
    expect(`${failure.details} ${failure.message}`).not.toContain(PASSWORD);
    expect(`${failure.details}`).not.toContain("deploy:");
  });
});
