/**
 * The provider runtime's HTTP, pinned with nock: the exact requests a create sends, and how read maps the
 * platform's answers (gone vs. a failure that must fail loudly), with no server at all.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { providerRuntime } from "../support/providerRuntime";

/** A provider process of this file's own, with the runtime's handlers. */
const { session: providerSession, appToken: appTokenProvider, httpNotificationTemplate: httpTemplateProvider } = providerRuntime();

const BASE = "https://svc.nock.test";
const ADMIN_SECRET = "nock-admin-secret-value";
const KS = "djJ8bm9jay1rcy1zdHJpbmc";
const token = {
  id: "0_nock1",
  token: "f".repeat(64),
  partnerId: 42,
  status: 2,
  sessionType: 0,
  sessionDuration: 0,
  hashType: "SHA256",
  expiry: 0,
  createdAt: 1,
  updatedAt: 1,
  objectType: "SvcAppToken",
};

// nock is ESM-only and this project compiles to CommonJS: load it the ESM way.
let nock: typeof import("nock", { with: { "resolution-mode": "import" }}).default;

describe("provider runtime over nock", () => {
  beforeAll(async () => {
    nock = (await import("nock")).default;
    nock.disableNetConnect();
    const values: Record<string, string> = {
      "svc:baseUrl": `${BASE}/api_v3`,
      "svc:partnerId": "42",
      "svc:adminSecret": ADMIN_SECRET,
      "svc:requestTimeoutMs": "2000",
    };
    providerSession.configure({ get: (key) => values[key] });
  });
  afterEach(() => nock.cleanAll());
  afterAll(async () => {
    nock.enableNetConnect();
    await providerSession.close();
  });

  const session = () =>
    nock(BASE)
      .post("/api_v3/service/session/action/start", (body) => body.secret === ADMIN_SECRET && body.partnerId === "42" && body.type === "2")
      .reply(200, JSON.stringify(KS));

  it("creates with exactly the checked inputs, form-encoded, with the ks as a parameter", async () => {
    session();
    let sent: Record<string, string> = {};
    nock(BASE)
      .post("/api_v3/service/appToken/action/add", (body) => ((sent = body), true))
      .reply(200, { ...token, description: "from nock" });
    const { inputs } = await appTokenProvider.check({}, { description: "from nock", sessionPrivileges: "list:*" });
    const { id, outs } = await appTokenProvider.create(inputs);
    expect(id).toBe("0_nock1");
    expect(outs.token).toBe("f".repeat(64));
    expect(sent).toMatchObject({
      ks: KS,
      format: "1",
      "appToken[objectType]": "SvcAppToken",
      "appToken[hashType]": "SHA256",
      "appToken[sessionType]": "0",
      "appToken[sessionDuration]": "0",
      "appToken[sessionPrivileges]": "list:*",
      "appToken[description]": "from nock",
      "appToken[expiry]": "0",
    });
  });

  it("reads APP_TOKEN_ID_NOT_FOUND as gone, and any other failure as an error without secrets", async () => {
    nock(BASE)
      .post("/api_v3/service/appToken/action/get")
      .reply(200, {
        code: "APP_TOKEN_ID_NOT_FOUND",
        message: 'Application token id "0_nock1" not found',
        objectType: "SvcAPIException",
        args: { ID: "0_nock1" },
      });
    expect(await appTokenProvider.read("0_nock1", { tokenId: "0_nock1" })).toEqual({ id: "" });

    nock(BASE)
      .post("/api_v3/service/appToken/action/get")
      .reply(200, { code: "SERVICE_FORBIDDEN", message: `forbidden for ks ${KS}`, objectType: "SvcAPIException", args: [] });
    const error = (await appTokenProvider.read("0_nock1", { tokenId: "0_nock1" }).then(
      () => new Error("read should have failed"),
      (e: unknown) => e,
    )) as Error & { code?: string };
    expect(error).toMatchObject({ code: "SERVICE_FORBIDDEN" });
    expect(String(error.message)).not.toContain(KS);
    expect(JSON.stringify(error)).not.toContain(ADMIN_SECRET);
  });

  it("a platform error that quotes a secret input (the signing secret) does not carry it", async () => {
    const signSecret = "quoted-signing-secret words";
    session();
    nock(BASE)
      .post("/api_v3/service/eventnotification_eventnotificationtemplate/action/update")
      .reply(200, { code: "INVALID_SIGN_SECRET", message: `signing secret ${signSecret} refused`, objectType: "SvcAPIException", args: { VALUE: signSecret } });
    const olds = { templateId: "2001", name: "hooks", url: "https://hooks.example.com/a", signSecret: "old-signing-secret-value", active: true };
    const news = { ...olds, signSecret };
    const error = (await httpTemplateProvider.update("2001", olds, news).then(
      () => new Error("update should have failed"),
      (e: unknown) => e,
    )) as Error & { code?: string };
    expect(error).toMatchObject({ code: "INVALID_SIGN_SECRET" });
    expect(error.message).toContain("refused");
    expect(error.message).not.toContain(signSecret);
    expect(JSON.stringify(error)).not.toContain(signSecret);
  });
});
