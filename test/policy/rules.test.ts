/**
 * The policy pack's rules as functions (policy/rules.ts) and how it recognises svc resources of both providers
 * (policy/resources.ts): every rule broken and kept, at its edges. The engine runs them in test/policy/policyPack.test.ts.
 */
import { describe, expect, it } from "vitest";
import { stackOf, svcTypeOf } from "../../policy/resources";
import { adminTokenExpiry, emailFromDomain, templateSignSecret, webhookHttps } from "../../policy/rules";
import { shimText } from "../../provider/resources/shim";

describe("svc resources, whichever provider made them", () => {
  it("knows the native, the dynamic and the generic dynamic type tokens, and nothing else", () => {
    expect(svcTypeOf("svc:index:AppToken", {})).toBe("AppToken");
    expect(svcTypeOf("pulumi-nodejs:dynamic/svc:HttpNotificationTemplate", {})).toBe("HttpNotificationTemplate");
    expect(svcTypeOf("pulumi-nodejs:dynamic:Resource", { __provider: shimText("emailNotificationTemplate") })).toBe("EmailNotificationTemplate");
    expect(svcTypeOf("pulumi-nodejs:dynamic:Resource", { __provider: "exports.handler = () => ({})" })).toBeUndefined();
    expect(svcTypeOf("svc:index:Provider", {})).toBeUndefined();
    expect(svcTypeOf("aws:s3/bucket:Bucket", {})).toBeUndefined();
    expect(stackOf("urn:pulumi:prod-eu::project::svc:index:AppToken::ci")).toBe("prod-eu");
  });
});

describe("the rules", () => {
  it("an ADMIN token in a prod* stack must expire; USER tokens and other stacks are free", () => {
    expect(adminTokenExpiry("AppToken", { sessionType: "ADMIN" }, "prod")).toMatch(/^an ADMIN app token in stack prod must expire.*not set/);
    expect(adminTokenExpiry("AppToken", { sessionType: "ADMIN", expiry: 0 }, "production")).toContain("it is 0");
    expect(adminTokenExpiry("AppToken", { sessionType: "ADMIN", expiry: 1_900_000_000 }, "prod")).toBeUndefined();
    expect(adminTokenExpiry("AppToken", { sessionType: "USER" }, "prod")).toBeUndefined();
    expect(adminTokenExpiry("AppToken", { sessionType: "ADMIN" }, "staging")).toBeUndefined();
    expect(adminTokenExpiry("HttpNotificationTemplate", { sessionType: "ADMIN" }, "prod")).toBeUndefined();
  });

  it("webhook URLs are https, or http on loopback only; the message never shows the path or query", () => {
    for (const url of ["https://hooks.example.com/x", "http://127.0.0.1:8080/x", "http://localhost/x", "http://[::1]:9/x"]) {
      expect(webhookHttps("HttpNotificationTemplate", { url }), url).toBeUndefined();
    }
    expect(webhookHttps("HttpNotificationTemplate", { url: "http://hooks.example.com/x?token=abc" })).toBe(
      "webhook URLs must be https outside loopback (this one is http://hooks.example.com)",
    );
    expect(webhookHttps("HttpNotificationTemplate", { url: "http://hooks.localhost.example.com/" })).toContain("must be https");
    expect(webhookHttps("HttpNotificationTemplate", { url: "ftp://127.0.0.1/x" })).toContain("this one is ftp://127.0.0.1");
    expect(webhookHttps("HttpNotificationTemplate", { url: "not a url" })).toContain("a value that is not a URL");
    expect(webhookHttps("HttpNotificationTemplate", {})).toBeUndefined();
  });

  it("every webhook template declares signSecret, and the message never holds it", () => {
    expect(templateSignSecret("HttpNotificationTemplate", {})).toContain("must declare signSecret");
    expect(templateSignSecret("HttpNotificationTemplate", { signSecret: "" })).toContain("must declare signSecret");
    expect(templateSignSecret("HttpNotificationTemplate", { signSecret: "a-long-signing-secret" })).toBeUndefined();
    expect(templateSignSecret("EmailNotificationTemplate", {})).toBeUndefined();
  });

  it("an email template's fromEmail is in an allowed domain; none configured refuses every sender", () => {
    expect(emailFromDomain("EmailNotificationTemplate", { fromEmail: "video@Example.com" }, ["example.com"])).toBeUndefined();
    expect(emailFromDomain("EmailNotificationTemplate", { fromEmail: "video@mail.example.com" }, ["example.com"])).toBe(
      "email fromEmail must be in an allowed domain (example.com); this one is in mail.example.com",
    );
    for (const fromEmail of ["video@evil.com@example.com", "nobody", "@example.com"]) {
      expect(emailFromDomain("EmailNotificationTemplate", { fromEmail }, ["example.com"]), fromEmail).toContain("not an address with a domain");
    }
    expect(emailFromDomain("EmailNotificationTemplate", { fromEmail: "video@example.com" }, [])).toContain("none is configured");
    expect(emailFromDomain("EmailNotificationTemplate", {}, ["example.com"])).toBeUndefined();
  });
});
