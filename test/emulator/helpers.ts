/** Test helpers: raw api_v3 calls (no sdk) against an in-process app or a running emulator. */
import { request } from "undici";
import { afterEach, beforeEach } from "vitest";
import { createEmulatorApp, createEmulatorContext, type EmulatorContext, type EmulatorOptions } from "../../emulator/index";

export type Params = Record<string, string | number>;
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const PARTNER_ID = 424242;
export const ADMIN_SECRET = "test-admin-secret-0123456789";

export interface InProcess {
  ctx: EmulatorContext;
  app: ReturnType<typeof createEmulatorApp>;
  /** POST /api_v3/service/S/action/A with a form body and format=1; returns the parsed JSON (or "" for empty). */
  call(service: string, action: string, params?: Params): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  adminKs(privileges?: string): Promise<string>;
  close(): Promise<void>;
}

export function form(params: Params): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
}

export function inProcess(opts: EmulatorOptions = {}): InProcess {
  const ctx = createEmulatorContext({ partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET, quiet: true, ...opts });
  const app = createEmulatorApp(ctx);
  const call = async (service: string, action: string, params: Params = {}) => {
    const res = await app.request(`/api_v3/service/${service}/action/${action}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ format: 1, ...params }),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    const text = await res.text();
    return text === "" ? "" : JSON.parse(text);
  };
  return {
    ctx,
    app,
    call,
    adminKs: (privileges = "disableentitlement") =>
      call("session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2, userId: "admin", privileges }),
    close: () => ctx.close(),
  };
}

/** Raw HTTP call to a running emulator. */
export async function httpCall(baseUrl: string, service: string, action: string, params: Params = {}): Promise<any> {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await request(`${baseUrl}/service/${service}/action/${action}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form({ format: 1, ...params }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text}`);
  return text === "" ? "" : JSON.parse(text);
}

/** A fresh in-process emulator and an account-admin ks (with disableentitlement) for each test of a describe. */
export function freshEmulator(opts: EmulatorOptions = {}): { emu: InProcess; ks: string } {
  const current = {} as { emu: InProcess; ks: string };
  beforeEach(async () => {
    current.emu = inProcess(opts);
    current.ks = await current.emu.adminKs();
  });
  afterEach(() => current.emu.close());
  return current;
}
