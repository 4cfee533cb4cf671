/** Shared fixtures for the sdk unit tests: a MockAgent with the network disabled and a client on it. */
import { MockAgent } from "undici";
import { SvcClient, type SvcClientOptions, type TransportEvent } from "../../sdk";

export const ORIGIN = "http://127.0.0.1:9999";
export const BASE_URL = `${ORIGIN}/api_v3`;
export const PARTNER_ID = 4242;
export const ADMIN_SECRET = "adminsecret-0123456789abcdef";
export const KS = "djJ8NDI0MnxFAKEKSFORTESTSabcdefghijklmnop";

export interface Harness {
  agent: MockAgent;
  pool: ReturnType<MockAgent["get"]>;
  client: SvcClient;
  events: TransportEvent[];
}

export function harness(overrides: Partial<SvcClientOptions> = {}): Harness {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const events: TransportEvent[] = [];
  const client = new SvcClient({
    baseUrl: BASE_URL,
    partnerId: PARTNER_ID,
    auth: { ks: KS },
    dispatcher: agent,
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 5 },
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  return { agent, pool: agent.get(ORIGIN), client, events };
}

/** Parse a captured form body into a plain object. */
export function form(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(String(body)));
}

export function appTokenJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "0_abc123",
    token: "a".repeat(64),
    partnerId: PARTNER_ID,
    status: 2,
    sessionType: 0,
    sessionDuration: 0,
    sessionPrivileges: "",
    sessionUserId: "",
    hashType: "SHA256",
    description: "ci",
    expiry: 0,
    createdAt: 1700000000,
    updatedAt: 1700000000,
    objectType: "SvcAppToken",
    ...overrides,
  };
}

export function apiError(code: string, message: string, args: Record<string, unknown> | unknown[] = []): Record<string, unknown> {
  return { code, message, objectType: "SvcAPIException", args };
}

/** A mock reply that records each request's form body. */
export function recorder(bodies: Record<string, string>[], data: unknown, statusCode = 200) {
  return (opts: { body?: unknown }) => {
    bodies.push(form(opts.body));
    return { statusCode, data: JSON.stringify(data), responseOptions: { headers: { "content-type": "application/json" } } };
  };
}
