/**
 * Issue 19 item 12: every boundary gets random and malformed input from a property-based fuzzer (fast-check), and
 * every case must end in a clear error, never a crash, a hang or a 500 with a stack trace:
 * the api_v3 parameter parser and dispatcher, multirequest, the sdk's response decoders (api_v3 and both avatar
 * clients), the webhook receiver and the avatar routes. Runs are bounded (FUZZ_RUNS, default below) and seeded
 * (FUZZ_SEED, default fixed) so a failure repeats; fast-check prints the seed and the shrunk case.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { Hono } from "hono";
import { MockAgent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { avatarStateOf, createAvatarApiRoutes, createAvatarVideoRoutes } from "../../emulator/avatar";
import { AvatarSessionApi } from "../../sdk/avatar";
import { AvatarApiClient } from "../../sdk/browser/avatarApiClient";
import { realClock } from "../../sdk/browser/clock";
import { AvatarError } from "../../sdk/browser/errors";
import { Logger } from "../../sdk/browser/logger";
import { SvcClient, SvcError } from "../../sdk";
import { processWebhook, type WebhookOptions } from "../../sdk/webhooks";
import { fakeAvatarContext, type FakeAvatarContext } from "../avatar/fakeContext";
import { inProcess, type InProcess } from "../emulator/helpers";

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 19_2026);
const params = <T>(extra: fc.Parameters<T> = {}): fc.Parameters<T> => ({ numRuns: RUNS, seed: SEED, endOnFailure: true, ...extra });
/** How many cases ran, per boundary (printed at the end). */
const ran: Record<string, number> = {};
const count = (name: string) => {
  ran[name] = (ran[name] ?? 0) + 1;
};

const STACK = /\n\s+at\s|\.ts:\d+|node:internal/;
const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
function prototypeIntact(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

// ---- shared generators --------------------------------------------------------------------------------------

const NAMES = [
  "ks",
  "format",
  "service",
  "action",
  "id",
  "status",
  "appToken",
  "filter",
  "pager",
  "eventNotificationTemplate",
  "objectType",
  "hashType",
  "sessionType",
  "description",
  "sessionPrivileges",
  "url",
  "name",
  "systemName",
  "signSecret",
  "method",
  "secureHashingAlgo",
  "pageSize",
  "pageIndex",
  "statusEqual",
  "typeEqual",
  "entry",
  "mediaEntry",
  "entryId",
  "secret",
  "partnerId",
  "type",
  "expiry",
  "privileges",
  "widgetId",
  "tokenHash",
  "description__null",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "0",
  "1",
  "2",
  "7",
];
const segment = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
/** A parameter name in any of the wire's spellings: `a[b][c]`, `a:b:c`, `1:a[b]`. */
const paramName = fc.tuple(fc.option(fc.nat(4), { nil: undefined }), fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean()).map(
  ([n, segs, colons]) =>
    (n === undefined ? "" : `${n}:`) +
    (colons
      ? segs.join(":")
      : segs[0] +
        segs
          .slice(1)
          .map((s) => `[${s}]`)
          .join("")),
);
const VALUES = [
  "SvcAppToken",
  "SvcHttpNotificationTemplate",
  "SvcEmailNotificationTemplate",
  "SvcEventNotificationTemplateFilter",
  "SvcHttpNotificationTemplateFilter",
  "SHA256",
  "MD5",
  "2",
  "1",
  "3",
  "-1",
  "1e309",
  "99999999999999999999",
  "",
  "{1:result:id}",
  "{0:result}",
  "{2:result:objects:0:id}",
  "https://127.0.0.1:1/hook",
  "http://localhost:1/x",
  "101",
  "1001",
  "0_missing0",
  "_424242",
  "disableentitlement,edit:*",
];
const paramValue = fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 12 }), fc.integer().map(String));
const TARGETS: Array<[string, string]> = [
  ["appToken", "add"],
  ["appToken", "get"],
  ["appToken", "list"],
  ["appToken", "update"],
  ["appToken", "delete"],
  ["appToken", "startSession"],
  ["eventnotification_eventnotificationtemplate", "listTemplates"],
  ["eventnotification_eventnotificationtemplate", "clone"],
  ["eventnotification_eventnotificationtemplate", "get"],
  ["eventnotification_eventnotificationtemplate", "list"],
  ["eventnotification_eventnotificationtemplate", "update"],
  ["eventnotification_eventnotificationtemplate", "updateStatus"],
  ["eventnotification_eventnotificationtemplate", "delete"],
  ["session", "start"],
  ["session", "startWidgetSession"],
  ["session", "get"],
  ["baseEntry", "add"],
  ["baseEntry", "update"],
  ["media", "add"],
  ["nope", "nothing"],
];

/** An api_v3 answer must be HTTP 200 JSON: a value, or an error object with a code that is not an internal error. */
function expectClearApiAnswer(status: number, text: string): void {
  expect(status).toBe(200);
  expect(text).not.toMatch(STACK);
  if (text === "") return; // a void answer
  if (text.startsWith("<?xml")) {
    // A random `format` parameter asked for XML, the platform's default: still no internal error.
    expect(text).not.toContain("INTERNAL_SERVER_ERROR");
    return;
  }
  const body = JSON.parse(text) as unknown;
  const items = Array.isArray(body) ? body : [body];
  for (const item of items) {
    if (item && typeof item === "object" && (item as { objectType?: unknown }).objectType === "SvcAPIException") {
      const error = item as { code: unknown; message: unknown };
      expect(typeof error.code).toBe("string");
      expect(typeof error.message).toBe("string");
      expect(error.code).not.toBe("INTERNAL_SERVER_ERROR");
    }
  }
}

// ---- api_v3: parameter parser, dispatcher, multirequest -------------------------------------------------------

describe("fuzz: api_v3", () => {
  let emu: InProcess;
  let ks: string;
  beforeAll(async () => {
    emu = inProcess({ delivery: { maxAttempts: 1, initialDelayMs: 1, timeoutMs: 200 } });
    ks = await emu.adminKs();
  });
  afterAll(() => emu.close());

  const post = (path: string, body: string, type: string) => emu.app.request(path, { method: "POST", headers: { "content-type": type }, body });

  it("form bodies with random names and values: a clear platform answer, no prototype pollution", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TARGETS),
        fc.boolean(),
        fc.array(fc.tuple(paramName, paramValue), { maxLength: 12 }),
        async ([service, action], withKs, pairs) => {
          count("api_v3 form");
          const body = new URLSearchParams([["format", "1"], ...(withKs ? [["ks", ks] as [string, string]] : []), ...pairs]).toString();
          const res = await post(`/api_v3/service/${service}/action/${action}`, body, "application/x-www-form-urlencoded");
          expectClearApiAnswer(res.status, await res.text());
          prototypeIntact();
        },
      ),
      params(),
    );
  });

  it("raw bodies of any content type (JSON, form, multipart, text, garbage): a clear answer", async () => {
    const jsonBody = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.dictionary(paramName, fc.oneof(paramValue, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 8 }).map((d) => JSON.stringify({ format: 1, ...d })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TARGETS),
        fc.constantFrom("application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "multipart/form-data", "text/plain", ""),
        fc.oneof(jsonBody, fc.string({ maxLength: 200 }), fc.constant('--x\r\nContent-Disposition: form-data; name="format"\r\n\r\n1\r\n--x--\r\n')),
        async ([service, action], type, body) => {
          count("api_v3 raw body");
          const res = await post(`/api_v3/service/${service}/action/${action}?format=1`, body, type);
          expect(res.status).toBeLessThan(500);
          const text = await res.text();
          expect(text).not.toMatch(STACK);
          if (res.status === 200) expectClearApiAnswer(res.status, text);
          else expect(JSON.parse(text)).toMatchObject({ error: expect.any(String) });
          prototypeIntact();
        },
      ),
      params(),
    );
  });

  it("multirequest with random keys, sub-requests and {N:result} references: one slot per sub-request, each clear", async () => {
    const sub = fc.record({
      key: fc.oneof(fc.nat(12).map(String), fc.constantFrom("-1", "x", "1.5")),
      target: fc.constantFrom(...TARGETS),
      fields: fc.array(fc.tuple(paramName, paramValue), { maxLength: 5 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(sub, { maxLength: 6 }), async (subs) => {
        count("multirequest");
        const pairs: Array<[string, string]> = [
          ["format", "1"],
          ["ks", ks],
        ];
        for (const s of subs) {
          pairs.push([`${s.key}:service`, s.target[0]], [`${s.key}:action`, s.target[1]]);
          for (const [name, value] of s.fields) pairs.push([`${s.key}:${name}`, value]);
        }
        const res = await post("/api_v3/service/multirequest", new URLSearchParams(pairs).toString(), "application/x-www-form-urlencoded");
        const text = await res.text();
        expectClearApiAnswer(res.status, text);
        // At most one slot per numeric key (a random `N:` parameter may overwrite a sub-request with a plain value).
        const slots = new Set(subs.map((s) => s.key).filter((k) => /^\d+$/.test(k)));
        if (!text.startsWith("<?xml")) expect((JSON.parse(text) as unknown[]).length).toBeLessThanOrEqual(slots.size);
        prototypeIntact();
      }),
      params(),
    );
  });
});

// ---- sdk response decoders ----------------------------------------------------------------------------------

const appTokenLike = fc.record(
  {
    id: fc.oneof(fc.string(), fc.integer()),
    partnerId: fc.oneof(fc.integer(), fc.string()),
    status: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
    sessionType: fc.oneof(fc.constantFrom(0, 2), fc.integer(), fc.string()),
    sessionDuration: fc.oneof(fc.integer(), fc.double()),
    hashType: fc.oneof(fc.constantFrom("SHA256", "SHA1", "MD5"), fc.string()),
    expiry: fc.integer(),
    createdAt: fc.integer(),
    updatedAt: fc.integer(),
    objectType: fc.constantFrom("SvcAppToken", "SvcAPIException", "Other"),
    code: fc.oneof(fc.string(), fc.integer()),
    message: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
    args: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })), fc.array(fc.jsonValue({ maxDepth: 1 })), fc.string()),
    objects: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }), fc.string()),
    totalCount: fc.oneof(fc.integer(), fc.string()),
  },
  { requiredKeys: [] },
);
const responseBody = fc.oneof(
  appTokenLike.map((o) => JSON.stringify(o)),
  fc.array(appTokenLike, { maxLength: 3 }).map((a) => JSON.stringify(a)),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 80 }),
  fc.constant(""),
  fc.constant('<?xml version="1.0"?><xml><result>x</result></xml>'),
);
const httpStatus = fc.oneof(fc.constant(200), fc.constantFrom(201, 204, 301, 400, 401, 404, 408, 429, 500, 502, 503), fc.integer({ min: 200, max: 599 }));

describe("fuzz: the sdk's response decoders", () => {
  it("api_v3 answers: every call resolves to a valid value or rejects with an SvcError", async () => {
    await fc.assert(
      fc.asyncProperty(httpStatus, responseBody, fc.constantFrom("get", "list", "templates", "multi", "delete"), async (status, body, call) => {
        count("sdk api_v3 decoder");
        const agent = new MockAgent();
        agent.disableNetConnect();
        agent
          .get("http://127.0.0.1:9999")
          .intercept({ path: /.*/, method: "POST" })
          .reply(status, body, { headers: { "content-type": "application/json" } })
          .persist();
        const client = new SvcClient({
          baseUrl: "http://127.0.0.1:9999/api_v3",
          partnerId: 1,
          auth: { ks: "djJ8ZnV6ei1rcy12YWx1ZQ" },
          dispatcher: agent,
          maxRetries: 0,
        });
        try {
          const attempt =
            call === "get"
              ? client.appTokens.get("0_abc")
              : call === "list"
                ? client.appTokens.list()
                : call === "templates"
                  ? client.templates.list()
                  : call === "delete"
                    ? client.appTokens.delete("0_abc")
                    : client.multirequest([
                        { service: "appToken", action: "get", params: { id: "0_a" } },
                        { service: "appToken", action: "list" },
                      ]);
          const outcome = await attempt.then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          );
          if (!outcome.ok) {
            expect(SvcError.isSvcError(outcome.error)).toBe(true);
            expect((outcome.error as Error).message).not.toMatch(STACK);
          } else if (call === "multi") {
            for (const slot of outcome.value as Array<{ ok: boolean; error?: unknown }>) if (!slot.ok) expect(SvcError.isSvcError(slot.error)).toBe(true);
          }
        } finally {
          await client.close();
          await agent.close();
        }
      }),
      params({ numRuns: Math.max(20, Math.floor(RUNS / 2)) }),
    );
  });

  it("avatar backend answers: resolves to the contract's shape or rejects with an SvcError", async () => {
    await fc.assert(
      fc.asyncProperty(httpStatus, responseBody, fc.constantFrom("create", "initClient", "keepAlive", "end"), async (status, body, op) => {
        count("sdk avatar decoder");
        const agent = new MockAgent();
        agent.disableNetConnect();
        agent.get("https://avatar.test").intercept({ path: /.*/, method: "POST" }).reply(status, body).persist();
        const api = new AvatarSessionApi({
          baseUrl: "https://avatar.test",
          ks: "djJ8ZnV6ei1rcy12YWx1ZQ",
          transportOptions: { dispatcher: agent, maxRetries: 0 },
        });
        const session = { sessionId: "as_1", token: "eyJhbGciOiJIUzI1NiJ9.e30.c2ln" };
        try {
          const attempt =
            op === "create"
              ? api.create({ visualId: "v" })
              : op === "initClient"
                ? api.initClient(session)
                : op === "keepAlive"
                  ? api.keepAlive(session)
                  : api.end(session);
          await attempt.then(
            () => undefined,
            (error: unknown) => {
              expect(SvcError.isSvcError(error)).toBe(true);
              expect((error as Error).message).not.toMatch(STACK);
            },
          );
        } finally {
          await api.close();
          await agent.close();
        }
      }),
      params({ numRuns: Math.max(20, Math.floor(RUNS / 2)) }),
    );
  });

  it("avatar answers in the browser library: resolves or rejects with an AvatarError", async () => {
    await fc.assert(
      fc.asyncProperty(httpStatus, responseBody, fc.constantFrom("create", "initClient", "end", "events"), async (status, body, op) => {
        count("browser avatar decoder");
        const client = new AvatarApiClient({
          baseUrl: "https://avatar.test",
          fetch: async () => new Response(status === 204 ? null : body, { status: Math.max(status, 200) }),
          clock: realClock,
          logger: new Logger("error", { debug() {}, info() {}, warn() {}, error() {} }),
          retry: { maxAttempts: 1, initialDelayMs: 1, maxDelayMs: 1, backoffMultiplier: 1 },
          timeoutMs: 1000,
        });
        const attempt =
          op === "create"
            ? client.create("ks", { visualConfig: { id: "v" } })
            : op === "initClient"
              ? client.initClient("as_1", "jwt")
              : op === "end"
                ? client.end("as_1", "jwt")
                : client.events("as_1", "jwt", 0);
        const error = await attempt.then(
          () => undefined,
          (e: unknown) => e ?? new Error("rejected with nothing"),
        );
        if (error !== undefined) expect(error).toBeInstanceOf(AvatarError);
      }),
      params({ numRuns: Math.max(20, Math.floor(RUNS / 2)) }),
    );
  });
});

// ---- webhook receiver ---------------------------------------------------------------------------------------

describe("fuzz: the webhook receiver", () => {
  const SECRET = "whsec-fuzz-0123456789";
  const MAX_BODY = 4096;
  const sign = (algorithm: string, body: Buffer) => createHash(algorithm).update(SECRET).update(body).digest("hex");
  /** A receiver of its own per case (its own replay memory), recording what reached the callback. Every algorithm the
   * platform signs with is listed (SHA1 must be: the default accepts sha256 and sha512 only). */
  const receiver = () => {
    const events: unknown[] = [];
    const options: WebhookOptions = {
      secret: SECRET,
      maxBodyBytes: MAX_BODY,
      algorithms: ["sha1", "sha256", "sha512"],
      onEvent: (event) => void events.push(event),
    };
    return { options, events };
  };

  it("random bodies and signature headers: 413 when too large, else 401; nothing unsigned reaches the callback, never a throw", async () => {
    const header = fc.oneof(
      fc.constant(undefined),
      fc.string({ maxLength: 140 }),
      fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 40, maxLength: 128 }),
    );
    const algo = fc.oneof(fc.constant(undefined), fc.constantFrom("sha1", "sha256", "sha512", "SHA256", "md5", " sha1 ", ""), fc.string({ maxLength: 8 }));
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 5000 }), header, algo, fc.boolean(), async (bytes, signature, algorithm, asString) => {
        count("webhook random");
        const body = Buffer.from(bytes);
        const { options, events } = receiver();
        const reply = await processWebhook(body, asString ? signature : { signature, algorithm }, options);
        // A random header is never the signature of the body (2^-160 at best): the size check, then the signature.
        expect(reply.status).toBe(body.length > MAX_BODY ? 413 : 401);
        expect(events).toEqual([]);
      }),
      params(),
    );
  });

  /** The contract's notification, written out independently of the receiver's schema (the oracle of the next property). */
  const isNotification = (value: unknown): boolean => {
    const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
    if (!isObject(value) || !isObject(value.object)) return false;
    const strings = ["eventType", "eventObjectType", "templateId", "templateName"].every((k) => typeof value[k] === "string");
    const optionalString = value.templateSystemName === undefined || typeof value.templateSystemName === "string";
    const optionalInteger = value.partnerId === undefined || Number.isSafeInteger(value.partnerId);
    return strings && optionalString && optionalInteger && Number.isSafeInteger(value.eventNotificationJobId) && value.objectType === "SvcHttpNotification";
  };

  it("correctly signed random JSON: 200 only for notifications, else 400; a repeat is a duplicate", async () => {
    const notification = fc.record({
      object: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })),
      eventType: fc.string(),
      eventObjectType: fc.string(),
      eventNotificationJobId: fc.integer(),
      templateId: fc.string(),
      templateName: fc.string(),
      templateSystemName: fc.option(fc.string(), { nil: undefined }),
      partnerId: fc.option(fc.integer(), { nil: undefined }),
      objectType: fc.constant("SvcHttpNotification"),
    });
    // Near misses: every field optional and of a loose type (almost never a notification).
    const notificationLike = fc.record(
      {
        object: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })), fc.jsonValue({ maxDepth: 1 })),
        eventType: fc.oneof(fc.string(), fc.integer()),
        eventObjectType: fc.oneof(fc.string(), fc.integer()),
        eventNotificationJobId: fc.oneof(fc.integer(), fc.double(), fc.string()),
        templateId: fc.oneof(fc.string(), fc.integer()),
        templateName: fc.string(),
        objectType: fc.constantFrom("SvcHttpNotification", "x"),
      },
      { requiredKeys: [] },
    );
    const outcomes = { accepted: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          notification.map((o) => JSON.stringify(o)),
          notificationLike.map((o) => JSON.stringify(o)),
          fc.json({ maxDepth: 3 }),
        ),
        fc.constantFrom("sha1", "sha256", "sha512"),
        async (text, algorithm) => {
          count("webhook signed");
          const body = Buffer.from(text);
          const json = JSON.parse(text) as Record<string, unknown>;
          const expected = body.length > MAX_BODY ? 413 : isNotification(json) ? 200 : 400;
          const { options, events } = receiver();
          const first = await processWebhook(body, { signature: sign(algorithm, body), algorithm }, options);
          expect(first.status).toBe(expected);
          if (expected !== 200) {
            expect(events).toEqual([]);
            if (expected === 400) outcomes.rejected++;
            return;
          }
          outcomes.accepted++;
          expect(first.body).toEqual({ ok: true });
          expect(events).toHaveLength(1);
          expect(events[0]).toMatchObject({
            eventNotificationJobId: json.eventNotificationJobId,
            templateId: json.templateId,
            objectType: "SvcHttpNotification",
          });
          const again = await processWebhook(body, sign(algorithm, body), options);
          expect(again).toEqual({ status: 200, body: { ok: true, duplicate: true } });
          expect(events).toHaveLength(1);
        },
      ),
      params(),
    );
    // Both sides of the claim were exercised, not just one.
    expect(outcomes.accepted).toBeGreaterThanOrEqual(Math.max(1, Math.floor(RUNS / 10)));
    expect(outcomes.rejected).toBeGreaterThanOrEqual(Math.max(1, Math.floor(RUNS / 10)));
  });

  it("options of any shape: accepted or a TypeError naming the option", async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), fc.anything(), async (maxBodyBytes, algorithms, replay) => {
        count("webhook options");
        const attempt = () =>
          processWebhook(Buffer.from("{}"), undefined, { secret: SECRET, onEvent: () => undefined, maxBodyBytes, algorithms, replay } as never);
        const outcome: { status: number } | Error = await attempt().then(
          (reply) => reply,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
        if (outcome instanceof Error) {
          expect(outcome).toBeInstanceOf(TypeError);
          expect(outcome.message).toMatch(/option "(maxBodyBytes|algorithms|replay(\.windowMs|\.leaseMs|\.store)?)"/);
        } else {
          expect(outcome.status).toBe(401);
        }
      }),
      params(),
    );
  });
});

// ---- avatar routes ------------------------------------------------------------------------------------------

describe("fuzz: the avatar routes", () => {
  let ctx: FakeAvatarContext;
  let app: Hono;
  let session: { sessionId: string; token: string };
  let whepPath: string;
  beforeAll(async () => {
    ctx = fakeAvatarContext();
    ctx.addKs("ks-admin", {});
    app = new Hono();
    app.route("/avatar-api", createAvatarApiRoutes(ctx));
    app.route("/avatar-video", createAvatarVideoRoutes(ctx));
    const res = await app.request("http://emu.test/avatar-api/v1/avatar-session/create", {
      method: "POST",
      headers: { authorization: "KS ks-admin", "content-type": "application/json" },
      body: JSON.stringify({ visualConfig: { id: "v" } }),
    });
    session = (await res.json()) as typeof session;
    const init = await app.request(`http://emu.test/avatar-api/v1/avatar-session/${session.sessionId}/init-client`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: "{}",
    });
    whepPath = new URL(((await init.json()) as { whepUrl: string }).whepUrl).pathname;
  });
  afterAll(() => avatarStateOf(ctx).media.close());

  it("random paths, credentials and bodies: a JSON {success:false, error} below 500, never a stack", async () => {
    const op = fc.constantFrom("keep-alive", "say-text", "say-audio", "interrupt", "events", "end", "create", "nope", "whep");
    const body = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.string({ maxLength: 200 }),
      fc
        .array(
          fc.constantFrom(
            "v=0",
            "o=- 1 1 IN IP4 0.0.0.0",
            "s=-",
            "t=0 0",
            "m=video 9 UDP/TLS/RTP/SAVPF 96",
            "m=audio 9 UDP/TLS/RTP/SAVPF 111",
            "a=recvonly",
            "a=mid:0",
            "a=ice-ufrag:x",
            "a=fingerprint:sha-256 00",
            "c=IN IP4 0.0.0.0",
            "a=rtpmap:96 VP8/90000",
            "x",
          ),
          { maxLength: 12 },
        )
        .map((lines) => `${lines.join("\r\n")}\r\n`),
      fc
        .record(
          {
            visualConfig: fc.oneof(fc.record({ id: fc.oneof(fc.string(), fc.integer()) }), fc.jsonValue({ maxDepth: 1 })),
            voiceConfig: fc.oneof(
              fc.record({ language: fc.oneof(fc.constantFrom("en", "fil", "xx"), fc.string()) }, { requiredKeys: [] }),
              fc.jsonValue({ maxDepth: 1 }),
            ),
            text: fc.oneof(fc.string(), fc.integer()),
            turnId: fc.oneof(fc.string(), fc.constant(null)),
            isFinal: fc.jsonValue({ maxDepth: 0 }),
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    );
    const auth = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom("KS ks-admin", "KS nope", "Bearer x.y.z", "Basic abc", ""),
      fc.constant("JWT"),
      fc.string({ maxLength: 40 }),
    );
    const type = fc.constantFrom(
      "application/json",
      "multipart/form-data; boundary=b",
      "multipart/form-data",
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/sdp",
    );
    await fc.assert(
      fc.asyncProperty(
        op,
        fc.oneof(fc.constant("own"), fc.string({ maxLength: 20 })),
        auth,
        body,
        type,
        fc.constantFrom("POST", "GET", "PUT"),
        async (operation, id, authorization, text, contentType, method) => {
          count("avatar routes");
          const sessionId = id === "own" ? session.sessionId : id;
          const path =
            operation === "create"
              ? "/avatar-api/v1/avatar-session/create"
              : operation === "whep"
                ? id === "own"
                  ? whepPath
                  : `/avatar-api/whep/${encodeURIComponent(id)}`
                : operation === "nope"
                  ? `/avatar-video/api/v1/${encodeURIComponent(sessionId)}/list`
                  : `/avatar-api/v1/avatar-session/${encodeURIComponent(sessionId)}/${operation}?after=${encodeURIComponent(id)}`;
          const headers: Record<string, string> = { "content-type": contentType };
          if (authorization !== undefined) headers.authorization = authorization === "JWT" ? `Bearer ${session.token}` : authorization;
          const res = await app.request(`http://emu.test${path}`, { method, headers, ...(method === "GET" ? {} : { body: text }) });
          expect(res.status).toBeLessThan(500);
          const answer = await res.text();
          expect(answer).not.toMatch(STACK);
          if (res.status >= 400 && answer !== "" && res.status !== 404) expect(JSON.parse(answer)).toMatchObject({ success: false, error: expect.any(String) });
          ctx.clock.advance(1);
        },
      ),
      params(),
    );
  });
});

// The figures the report quotes: cases run per boundary in this file.
afterAll(() => {
  console.log(`fuzz cases run (seed ${SEED}): ${JSON.stringify(ran)}`);
});
