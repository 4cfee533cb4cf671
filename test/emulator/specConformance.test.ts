/**
 * Where the emulator used to be looser than the spec (docs/design.md "Spec deviations"): api_v3 takes POST only,
 * appToken[objectType] is required, webhook URLs are https (http only on loopback), and template calls need the
 * event notification plugin (FEATURE_FORBIDDEN without it, as the real service answers). Each test fails if the
 * looser behaviour comes back.
 */
import { describe, expect, it } from "vitest";
import { SvcClient, SvcValidationError } from "../../sdk";
import { form, freshEmulator, PARTNER_ID, type InProcess } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";

describe("spec conformance of the emulator", () => {
  const fresh = freshEmulator();
  const call: InProcess["call"] = (...args) => fresh.emu.call(...args);

  it("api_v3 answers only POST: any other method is 405 with Allow: POST, and nothing runs", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const res = await fresh.emu.app.request(`/api_v3/service/appToken/action/list?format=1&ks=${encodeURIComponent(fresh.ks)}`, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toEqual({ error: `api_v3 takes POST, not ${method}` });
    }
    expect((await fresh.emu.app.request(`/api_v3/?service=session&action=start&format=1`, { method: "GET" })).status).toBe(405);
    expect(fresh.emu.ctx.stats.snapshot()["appToken.list"]).toBeUndefined();
    const ok = await fresh.emu.app.request("/api_v3/service/appToken/action/list", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ format: 1, ks: fresh.ks }),
    });
    expect((await ok.json()).objectType).toBe("SvcAppTokenListResponse");
  });

  it("appToken add and update require appToken[objectType] = SvcAppToken", async () => {
    const missing = await call("appToken", "add", { ks: fresh.ks, "appToken[description]": "x" });
    expect(missing).toMatchObject({ code: "MISSING_MANDATORY_PARAMETER", args: { PARAM_NAME: "appToken:objectType" } });
    const wrong = await call("appToken", "add", { ks: fresh.ks, "appToken[objectType]": "SvcMediaEntry" });
    expect(wrong).toMatchObject({ code: "INVALID_OBJECT_TYPE", args: { TYPE: "SvcMediaEntry" } });
    const t = await call("appToken", "add", { ks: fresh.ks, "appToken[objectType]": "SvcAppToken" });
    expect(t.objectType).toBe("SvcAppToken");
    expect((await call("appToken", "update", { ks: fresh.ks, id: t.id, "appToken[description]": "y" })).code).toBe("MISSING_MANDATORY_PARAMETER");
    expect(
      (await call("appToken", "update", { ks: fresh.ks, id: t.id, "appToken[objectType]": "SvcAppToken", "appToken[description]": "y" })).description,
    ).toBe("y");
  });

  it("webhook URLs: https, or http on a loopback address only (clone and update)", async () => {
    const clone = (url: string) =>
      call(SVC, "clone", {
        ks: fresh.ks,
        id: "101",
        "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
        "eventNotificationTemplate[name]": "hook",
        "eventNotificationTemplate[url]": url,
      });
    for (const url of ["http://example.test/hook", "http://10.0.0.5/hook", "ftp://example.test/hook", "not a url"]) {
      expect(await clone(url), url).toMatchObject({ code: "INVALID_FIELD_VALUE", args: { FIELD_NAME: "SvcHttpNotificationTemplate::url" } });
    }
    for (const url of ["https://example.test/hook", "http://127.0.0.1:9/hook", "http://localhost:9/hook", "http://[::1]:9/hook"]) {
      expect((await clone(url)).url, url).toBe(url);
    }
    const t = await clone("https://example.test/hook");
    const update = await call(SVC, "update", {
      ks: fresh.ks,
      id: t.id,
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[url]": "http://example.test/v2",
    });
    expect(update.code).toBe("INVALID_FIELD_VALUE");
  });

  it("the sdk refuses a plain-http webhook URL before any call", async () => {
    const client = new SvcClient({ baseUrl: "http://127.0.0.1:9/api_v3", partnerId: PARTNER_ID, auth: { ks: "unused" } });
    try {
      const error = await client.templates
        .clone("101", { name: "hook", url: "http://example.test/hook", signSecret: "sign-secret-0123456789" })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SvcValidationError);
      expect((error as Error).message).toMatch(/url.*https:\/\//);
    } finally {
      await client.close();
    }
  });

  it("template calls need the event notification plugin: FEATURE_FORBIDDEN without it, and no deliveries", async () => {
    const control = (path: string, body?: unknown) =>
      fresh.emu.app.request(
        `/_emulator${path}`,
        body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
      );
    expect(await (await control(`/partners/${PARTNER_ID}/features`)).json()).toEqual({ eventNotification: true });
    const t = await call(SVC, "clone", {
      ks: fresh.ks,
      id: "101",
      "eventNotificationTemplate[name]": "hook",
      "eventNotificationTemplate[url]": "http://127.0.0.1:9/hook",
    });
    await call(SVC, "updateStatus", { ks: fresh.ks, id: t.id, status: 2 });

    expect(await (await control(`/partners/${PARTNER_ID}/features`, { eventNotification: false })).json()).toEqual({ eventNotification: false });
    for (const [action, params] of [
      ["listTemplates", {}],
      ["get", { id: t.id }],
      ["list", {}],
      ["clone", { id: "101" }],
    ] as const) {
      expect(await call(SVC, action, { ks: fresh.ks, ...params }), action).toMatchObject({ code: "FEATURE_FORBIDDEN", args: { FEATURE: "eventNotification" } });
    }
    const raised = await (await control("/trigger", { event: "entry.added" })).json();
    expect(raised.deliveryIds).toEqual([]);
    // Still a session error first: the plugin is checked once the caller is known.
    expect((await call(SVC, "list", {})).code).toBe("MISSING_KS");

    await control(`/partners/${PARTNER_ID}/features`, { eventNotification: true });
    expect((await call(SVC, "get", { ks: fresh.ks, id: t.id })).id).toBe(t.id);
    expect((await (await control(`/partners/999/features`)).json()).error).toBe("no account 999");
  });
});
