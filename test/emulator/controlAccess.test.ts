/**
 * Issue 19 item 11: the control API (which hands out the admin secret) and the avatar APIs' CORS `*` are for
 * loopback only. Bound to another address, the control API needs the control token, or is off; CORS admits only
 * the listed origins.
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createEmulatorApp, createEmulatorContext, startEmulator, type EmulatorOptions } from "../../emulator";
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

/** A raw HTTP/1.1 request with the Host and Origin a browser would send (fetch cannot set Host). */
function rawRequest(port: number, path: string, headers: Record<string, string>, method = "GET", body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.once("error", reject);
    req.end(body);
  });
}

describe("issue 23: the loopback control API refuses what a browser can be made to send", () => {
  it("a Host that is not a loopback name (DNS rebinding) is refused with 403, the admin secret not shown", async () => {
    const app = emulator({});
    for (const url of [
      "http://attacker.example:4010/_emulator/account",
      "http://192.168.1.20:4010/_emulator/account",
      "http://attacker.example/avatar-video/_emulator/configuration",
    ]) {
      const res = await app.request(url, url.includes("avatar") ? { method: "POST", body: "{}" } : {});
      expect(res.status, url).toBe(403);
      const text = await res.text();
      expect(text, url).not.toContain(ADMIN_SECRET);
      expect(JSON.parse(text).error, url).toMatch(/^the control API refuses requests addressed to .*\(DNS rebinding guard\)$/);
    }
  });

  it("a request from a web page's Origin is refused with 403 and changes nothing", async () => {
    const ctx = createEmulatorContext({ partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET, quiet: true });
    open.push(async () => {
      await avatarStateOf(ctx).media.close();
      await ctx.close();
    });
    const app = createEmulatorApp(ctx);
    for (const origin of ["https://page.example", "null", "http://localhost:3000", "https://localhost"]) {
      const res = await app.request("/_emulator/faults", { method: "POST", headers: { origin, "content-type": "application/json" }, body: '{"errorRate":1}' });
      expect(res.status, origin).toBe(403);
      expect((await res.json()).error, origin).toBe(
        `the control API refuses requests from the origin ${JSON.stringify(origin)}: only the emulator's own origin may call it (a web page must not)`,
      );
    }
    expect(ctx.faults.get()).not.toHaveProperty("errorRate");
    // The emulator's own origin passes.
    const own = await app.request("/_emulator/faults", {
      method: "POST",
      headers: { origin: "http://localhost", "content-type": "application/json" },
      body: '{"errorRate":1}',
    });
    expect(own.status).toBe(200);
    expect(ctx.faults.get()).toMatchObject({ errorRate: 1 });
  });

  it("over a socket: only loopback names at the emulator's own port pass, and Origin must be that same origin", async () => {
    const emu = await startEmulator({ quiet: true, partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET });
    open.push(() => emu.close());
    const port = emu.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`]) {
      const res = await rawRequest(port, "/_emulator/account", { host });
      expect(res.status, host).toBe(200);
      expect(JSON.parse(res.text), host).toEqual({ partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET });
    }
    for (const host of [`rebind.attacker.example:${port}`, `127.0.0.1:${port + 1}`, "127.0.0.1", `0.0.0.0:${port}`]) {
      const res = await rawRequest(port, "/_emulator/account", { host });
      expect(res.status, host).toBe(403);
      expect(res.text, host).not.toContain(ADMIN_SECRET);
    }
    const own = await rawRequest(port, "/_emulator/stats/reset", { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` }, "POST");
    expect(own.status).toBe(200);
    const otherPort = await rawRequest(port, "/_emulator/stats/reset", { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port + 1}` }, "POST");
    expect(otherPort.status).toBe(403);
    // api_v3 is not the control API: a browser-style Origin there is the avatar/browser library's business, not refused.
    const api = await rawRequest(
      port,
      "/api_v3/service/session/action/start",
      { host: `127.0.0.1:${port}`, origin: "https://page.example", "content-type": "application/x-www-form-urlencoded" },
      "POST",
      "format=1",
    );
    expect(api.status).toBe(200);
  });
});
