/**
 * The contract is the one place each wire fact lives: these tests tie the sides to it, so a side that keeps its own
 * copy (and drifts) fails here.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM_TEMPLATES } from "../../emulator/events/catalog";
import { TEMPLATE_EVENTS } from "../../provider/schemas/httpNotificationTemplateInputs";
import { AVATAR_OPERATIONS, AVATAR_RETRY_STATUSES, avatarStatusMeaning, isAvatarRetryStatus } from "../../contract/avatar";
import { EVENT_KEYS, EVENTS, templateMatchesEvent } from "../../contract/events";
import { isNotFound, NOT_FOUND_CODES, SecureHashingAlgo } from "../../contract/platform";
import { isAllowedWebhookUrl, parseSignatureAlgorithm, SIGNATURE_ALGORITHMS, signatureAlgorithmByLength, signatureAlgorithmOf } from "../../contract/webhooks";
import { avatarErrorFromStatus } from "../../sdk/avatar/errors";
import { errorFromStatus } from "../../sdk/browser/errors";
import { TRANSPORT_DEFAULTS } from "../../sdk/transport";
import { isNotFoundAfterRetriedDelete } from "../../sdk/platform/actionSafety";
import { isGone } from "../../provider/runtime/errors";
import { AppToken, HttpNotificationTemplate } from "../../provider";

describe("events", () => {
  it("the provider's events are the contract's, and every event has an HTTP system template in the emulator", () => {
    expect(TEMPLATE_EVENTS).toBe(EVENTS);
    for (const key of EVENT_KEYS) {
      const http = SYSTEM_TEMPLATES.filter((t) => t.objectType === "SvcHttpNotificationTemplate" && templateMatchesEvent(t, key));
      expect(
        http.map((t) => t.event),
        key,
      ).toEqual([key]);
    }
  });
});

describe("webhook signatures", () => {
  it("maps every secureHashingAlgo to a header name and a hex length, SHA256 by default", () => {
    expect(Object.keys(SIGNATURE_ALGORITHMS)).toEqual(Object.keys(SecureHashingAlgo));
    expect([1, 2, 3, undefined, 9].map(signatureAlgorithmOf)).toEqual(["sha1", "sha256", "sha512", "sha256", "sha256"]);
    expect([40, 64, 128, 32].map(signatureAlgorithmByLength)).toEqual(["sha1", "sha256", "sha512", undefined]);
    expect(["SHA512", " sha1 ", "md5"].map(parseSignatureAlgorithm)).toEqual(["sha512", "sha1", undefined]);
  });
  it("webhook URLs: https anywhere, plain http only on loopback", () => {
    const ok = ["https://hooks.example.com/x", "http://127.0.0.1:8080/h", "http://127.5.6.7/h", "http://localhost/h", "http://[::1]:9/h"];
    const refused = ["http://example.com/h", "http://10.0.0.1/h", "http://127.0.0.1.example.com/h", "ftp://example.com/h", "", "nope"];
    expect(ok.filter(isAllowedWebhookUrl)).toEqual(ok);
    expect(refused.filter(isAllowedWebhookUrl)).toEqual([]);
  });
});

describe("not found", () => {
  it("the provider, the sdk's delete rule and the contract agree on every not-found code", () => {
    for (const code of NOT_FOUND_CODES) {
      expect(isNotFound(code)).toBe(true);
      expect(isGone({ code })).toBe(true);
      expect(isNotFoundAfterRetriedDelete("delete", 2, code)).toBe(true);
    }
    expect(isGone({ code: "INVALID_KS" })).toBe(false);
    expect(isNotFoundAfterRetriedDelete("delete", 2, "SOMETHING_NOT_FOUND")).toBe(false);
  });
});

describe("avatar endpoints", () => {
  it("both clients retry the same statuses as the sdk transport, and only repeat-safe operations", () => {
    expect([...AVATAR_RETRY_STATUSES]).toEqual([...TRANSPORT_DEFAULTS.retryStatuses]);
    expect(
      Object.entries(AVATAR_OPERATIONS)
        .filter(([, o]) => !o.repeatSafe)
        .map(([op]) => op),
    ).toEqual(["create", "init-client", "say-text", "say-audio"]);
    expect(isAvatarRetryStatus("create", 503)).toBe(false);
    expect(isAvatarRetryStatus("keep-alive", 503)).toBe(true);
    expect(isAvatarRetryStatus("keep-alive", 404)).toBe(false);
  });
  it("both clients read a status's meaning from the one table", () => {
    const cases: [number, string, string][] = [
      [400, "AVATAR_BAD_REQUEST", "API_REQUEST_FAILED"],
      [401, "AVATAR_UNAUTHORIZED", "UNAUTHORIZED"],
      [403, "AVATAR_FORBIDDEN", "UNAUTHORIZED"],
      [404, "AVATAR_SESSION_NOT_FOUND", "SESSION_NOT_FOUND"],
      [500, "AVATAR_SERVER_ERROR", "API_REQUEST_FAILED"],
      [418, "AVATAR_HTTP_ERROR", "API_REQUEST_FAILED"],
    ];
    for (const [status, backend, browser] of cases) {
      expect(avatarErrorFromStatus("op", status, undefined).code, String(status)).toBe(backend);
      expect(errorFromStatus("op", status, undefined).code, String(status)).toBe(browser);
    }
    expect(avatarStatusMeaning(410)).toBe("gone");
    expect(avatarStatusMeaning(503)).toBe("server-error");
  });
});

describe("resource type tokens", () => {
  it("isInstance compares with the token the engine registers (pulumi-nodejs:dynamic/svc:...), and refuses look-alikes", () => {
    expect(AppToken.__pulumiType).toBe("pulumi-nodejs:dynamic/svc:AppToken");
    expect(HttpNotificationTemplate.__pulumiType).toBe("pulumi-nodejs:dynamic/svc:HttpNotificationTemplate");
    expect(AppToken.isInstance({ __pulumiType: AppToken.__pulumiType })).toBe(false); // not a Pulumi resource
    expect(HttpNotificationTemplate.isInstance(undefined)).toBe(false);
  });
});
