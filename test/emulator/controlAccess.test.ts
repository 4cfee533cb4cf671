/**
 * Issue 19 item 11: the control API (which hands out the admin secret) and the avatar APIs' CORS `*` are for
 * loopback only. Bound to another address, the control API needs the control token, or is off; CORS admits only
 * the listed origins.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmulatorApp, createEmulatorContext, type EmulatorOptions } from "../../emulator";
import { avatarStateOf } from "../../emulator/avatar";
import { isLoopbackAddress } from "../../emulator/middleware/controlAccess";
import { ADMIN_SECRET, PARTNER_ID } from "./helpers";

const TOKEN = "control-token-0123456789";
const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

function emulator(opts: EmulatorOptions) {
  const ctx = createEmulatorContext({ partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET, quiet: true, ...opts });
  open.push(async () => {
    await avatarStateOf(ctx).media.close();
    await ctx.close();
  });
  return createEmulatorApp(ctx);
}

const preflight = (app: ReturnType<typeof emulator>, origin: string) =>
  app.request("http://emu.test/avatar-api/v1/avatar-session/create", {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
  });

describe("control API and CORS by bind address", () => {
  it("knows loopback addresses", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"]) expect(isLoopbackAddress(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "10.0.0.5", "192.168.1.2", "example.com", "128.0.0.1"]) expect(isLoopbackAddress(host)).toBe(false);
  });

  it("on loopback (the default): the control API is open and CORS admits any origin", async () => {
    const app = emulator({});
    expect(await (await app.request("/_emulator/account")).json()).toEqual({ partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET });
    expect((await preflight(app, "https://page.example")).headers.get("access-control-allow-origin")).toBe("*");
  });

  it("on another address without a token: the control API is off (no admin secret), CORS admits no origin", async () => {
    const app = emulator({ host: "0.0.0.0" });
    for (const [path, method] of [
      ["/_emulator/account", "GET"],
      ["/_emulator/partners", "POST"],
      ["/_emulator/trigger", "POST"],
      ["/avatar-video/_emulator/configuration", "POST"],
    ] as const) {
      const res = await app.request(path, { method, body: method === "POST" ? "{}" : undefined });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(ADMIN_SECRET);
    }
    expect((await preflight(app, "https://page.example")).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("on another address with a token: the control API answers only the bearer token", async () => {
    const app = emulator({ host: "10.1.2.3", controlToken: TOKEN, corsOrigins: ["https://app.example"] });
    expect((await app.request("/_emulator/account")).status).toBe(401);
    const wrong = await app.request("/_emulator/account", { headers: { authorization: "Bearer not-the-token" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain(TOKEN);
    const ok = await app.request("/_emulator/account", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await ok.json()).toEqual({ partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET });
    expect((await preflight(app, "https://app.example")).headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect((await preflight(app, "https://evil.example")).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a short control token at start", () => {
    expect(() => createEmulatorContext({ quiet: true, host: "0.0.0.0", controlToken: "short" })).toThrow(/controlToken/);
  });
});
