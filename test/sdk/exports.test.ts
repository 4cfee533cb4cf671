/**
 * The package's export map: the subpaths package.json exposes, and what each public entry exports at runtime.
 * Internals (the redaction registry, the transport, the form encoder, status-to-error factories) must not leak;
 * a new public name is a deliberate change of this list.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> };
const load = (path: string) => require(path) as Record<string, unknown>;
const INTERNALS = [
  "registerSecret",
  "redact",
  "redactValue",
  "createTransport",
  "TRANSPORT_DEFAULTS",
  "encodeForm",
  "avatarErrorFromStatus",
  "errorFromStatus",
];

describe("package export map", () => {
  it("exposes exactly these subpaths", () => {
    expect(Object.keys(pkg.exports).sort()).toEqual(
      [
        ".",
        "./native",
        "./schema.json",
        "./dist/provider/runtime",
        "./emulator",
        "./package.json",
        "./provider-runtime",
        "./sdk",
        "./sdk/avatar",
        "./sdk/client",
        "./sdk/client/fakes",
      ].sort(),
    );
  });

  it("pulumi-svc: the resources", () => {
    expect(Object.keys(load("pulumi-svc")).sort()).toEqual(["AppToken", "EmailNotificationTemplate", "HttpNotificationTemplate", "TEMPLATE_EVENTS"]);
  });

  it("pulumi-svc/sdk: the client, errors, webhooks and the wire contract, no internals", () => {
    expect(Object.keys(load("pulumi-svc/sdk")).sort()).toEqual(
      [
        "AppToken",
        "AppTokenListResponse",
        "AppTokenSession",
        "AppTokenStatus",
        "AppTokens",
        "ClientSessions",
        "EVENTS",
        "EmailFormat",
        "EmailNotificationTemplate",
        "EmailNotificationTemplateListResponse",
        "EmailNotificationTemplates",
        "EmailPriority",
        "EventNotificationTemplate",
        "EventNotificationTemplateListResponse",
        "EventNotificationTemplates",
        "EventObjectType",
        "EventType",
        "HashType",
        "HttpMethod",
        "MemoryReplayStore",
        "Notification",
        "OBJECT_TYPES",
        "PostgresReplayStore",
        "RECOMMENDED_ALGORITHMS",
        "SIGNATURE_ALGORITHM_HEADER",
        "SIGNATURE_HEADER",
        "SecureHashingAlgo",
        "SessionHandle",
        "SessionService",
        "SessionType",
        "SqliteReplayStore",
        "SvcAbortError",
        "SvcApiError",
        "SvcClient",
        "SvcError",
        "SvcHttpError",
        "SvcNetworkError",
        "SvcResponseError",
        "SvcSessionError",
        "SvcTimeoutError",
        "SvcValidationError",
        "TemplateStatus",
        "TemplateType",
        "appTokenHash",
        "computeSignature",
        "createWebhookHandler",
        "paginate",
        "postgresReplaySchema",
        "verifySignature",
        "webhookMiddleware",
      ].sort(),
    );
  });

  it("pulumi-svc/sdk/avatar: the two backend clients, their error and the contract a caller sees", () => {
    expect(Object.keys(load("pulumi-svc/sdk/avatar")).sort()).toEqual(
      [
        "AVATAR_PATHS",
        "AvatarApiError",
        "AvatarSessionApi",
        "AvatarVideoApi",
        "EndReason",
        "IDLE_TIMEOUT_MS",
        "KEEP_ALIVE_INTERVAL_MS",
        "SOURCE_ONLY_CHECK",
        "TTSLanguage",
        "TTS_LANGUAGES",
      ].sort(),
    );
  });

  it("pulumi-svc/sdk/client/fakes: the test doubles of the browser library, its own entry", () => {
    expect(Object.keys(load("pulumi-svc/sdk/client/fakes")).sort()).toEqual(
      ["FAKE_OFFER_SDP", "FakeClock", "FakeDocument", "FakeElement", "FakePeerConnection", "FakeVideoElement", "settle"].sort(),
    );
  });

  it("no public entry exports an internal", () => {
    for (const entry of [
      "pulumi-svc",
      "pulumi-svc/sdk",
      "pulumi-svc/sdk/avatar",
      "pulumi-svc/sdk/client",
      "pulumi-svc/sdk/client/fakes",
      "pulumi-svc/emulator",
      "pulumi-svc/provider-runtime",
    ]) {
      const names = Object.keys(load(entry));
      expect(
        names.filter((name) => INTERNALS.includes(name)),
        entry,
      ).toEqual([]);
    }
  });
});
