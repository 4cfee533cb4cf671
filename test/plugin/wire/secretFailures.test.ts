/**
 * Every failure path of every method, fed secrets: no failure names a property that came in as a secret (the engine
 * prints a check failure's property value beside its reason), and no answer (failures, error message, error
 * details, returned properties outside their secret wrappers) shows a secret value. One table, over the wire.
 */
import type * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APP_TOKEN,
  checkConfigRequest,
  checkRequest,
  configureRequest,
  createRequest,
  deleteRequest,
  diffConfigRequest,
  diffRequest,
  EMAIL_TEMPLATE,
  HTTP_TEMPLATE,
  type Props,
  readRequest,
  secret,
  startWire,
  struct,
  updateRequest,
  visibleText,
  type WireHarness,
  type WireMethod,
} from "./wireHarness";

/** Obviously fake secret values, each distinct, none may be visible in any answer. */
const S = (n: number) => `fake-failure-secret-${String(n).padStart(4, "0")}`;

interface Case {
  name: string;
  method: WireMethod;
  /** The request, given the emulator's settings (a function: they are known once the wire is up). */
  request: (settings: Props) => unknown;
  /** The top-level properties sent as secrets: no check failure may name one. */
  secretProperties: string[];
  /** The secret values sent: none may be visible. */
  secrets: string[];
  /** An answer, not a failure, is right here (still checked for what it shows). */
  mayPass?: boolean;
}

const account = (settings: Props) => ({ baseUrl: settings.baseUrl, partnerId: settings.partnerId });
const email = (to: unknown): Props => ({ event: "entry.ready", name: "Failures", subject: "s", body: "b", fromEmail: "video@example.com", to });

const CASES: Case[] = [
  // CheckConfig and Configure: a misspelt secret setting, a secret of the wrong kind, a secret the connection refuses.
  ...(["checkConfig", "configure"] as const).flatMap((method): Case[] => {
    const request = (news: Props) => (method === "checkConfig" ? checkConfigRequest(news) : configureRequest(news));
    return [
      {
        name: "misspelt secret setting",
        method,
        request: (s) => request({ ...s, adminsecret: secret(S(1)) }),
        secretProperties: ["adminsecret"],
        secrets: [S(1)],
      },
      {
        name: "secret partner id that is not a number",
        method,
        request: (s) => request({ ...s, partnerId: secret(`${S(2)}`) }),
        secretProperties: ["partnerId"],
        secrets: [S(2)],
      },
      {
        name: "secret timeout of the wrong kind",
        method,
        request: (s) => request({ ...s, requestTimeoutMs: secret({ nested: S(3) }) }),
        secretProperties: ["requestTimeoutMs"],
        secrets: [S(3)],
      },
      {
        name: "secret base URL that is not one",
        method,
        request: (s) => request({ ...s, baseUrl: secret(`not a url ${S(4)}`) }),
        secretProperties: ["baseUrl"],
        secrets: [S(4)],
      },
      {
        name: "admin secret of the wrong kind",
        method,
        request: (s) => request({ ...account(s), adminSecret: secret([S(5)]) }),
        secretProperties: ["adminSecret"],
        secrets: [S(5)],
      },
      {
        name: "unknown setting holding a secret list",
        method,
        request: (s) => request({ ...s, extras: [secret(S(6))] }),
        secretProperties: ["extras"],
        secrets: [S(6)],
      },
    ];
  }),
  {
    name: "DiffConfig of secret settings",
    method: "diffConfig",
    request: (s) => diffConfigRequest({ ...s, adminsecret: secret(S(7)) }, { ...s, adminsecret: secret(S(8)) }),
    secretProperties: ["adminsecret"],
    secrets: [S(7), S(8)],
    mayPass: true,
  },
  // Check: secrets that fail the definition's checks, at the top level, in an object and in a list.
  {
    name: "secret description of the wrong kind",
    method: "check",
    request: () => checkRequest(APP_TOKEN, { description: secret([S(9)]) }),
    secretProperties: ["description"],
    secrets: [S(9)],
  },
  {
    name: "unknown field holding a secret",
    method: "check",
    request: () => checkRequest(APP_TOKEN, { descripton: secret(S(10)) }),
    secretProperties: ["descripton"],
    secrets: [S(10)],
  },
  {
    name: "nested secret of the wrong kind",
    method: "check",
    request: () => checkRequest(APP_TOKEN, { keepers: { rotation: secret({ deep: S(11) }) } }),
    secretProperties: ["keepers"],
    secrets: [S(11)],
  },
  {
    name: "secret recipient that is not an address",
    method: "check",
    request: () => checkRequest(EMAIL_TEMPLATE, email([{ email: secret(`not an address ${S(12)}`) }])),
    secretProperties: ["to"],
    secrets: [S(12)],
  },
  {
    name: "secret signing secret too short",
    method: "check",
    request: () => checkRequest(HTTP_TEMPLATE, { event: "entry.ready", name: "hook", url: "https://hooks.example.com/h", signSecret: secret("fk-1") }),
    secretProperties: ["signSecret"],
    secrets: ["fk-1"],
  },
  {
    name: "secret URL with credentials",
    method: "check",
    request: () =>
      checkRequest(HTTP_TEMPLATE, { event: "entry.ready", name: "hook", url: secret(`ftp://u:${S(13)}@hooks.example.com/h`), signSecret: secret(S(14)) }),
    secretProperties: ["url", "signSecret"],
    secrets: [S(13), S(14)],
  },
  // Create, Update, Read, Delete, Diff: unchecked secrets, an empty id.
  {
    name: "Create of unchecked secret inputs",
    method: "create",
    request: () => createRequest(EMAIL_TEMPLATE, email([{ email: secret(`nope ${S(15)}`) }])),
    secretProperties: ["to"],
    secrets: [S(15)],
  },
  {
    name: "Update of unchecked secret inputs",
    method: "update",
    request: () => updateRequest(APP_TOKEN, "0_x", { description: "d" }, { description: secret([S(16)]) }),
    secretProperties: ["description"],
    secrets: [S(16)],
  },
  {
    name: "Update without an id",
    method: "update",
    request: () => updateRequest(APP_TOKEN, "", { description: secret(S(17)) }, { description: secret(S(17)) }),
    secretProperties: ["description"],
    secrets: [S(17)],
  },
  {
    name: "Read without an id",
    method: "read",
    request: () => readRequest(APP_TOKEN, "", { token: secret(S(18)) }, { description: secret(S(19)) }),
    secretProperties: ["token"],
    secrets: [S(18), S(19)],
  },
  {
    name: "Read of a missing object by a secret-holding state",
    method: "read",
    request: () => readRequest(APP_TOKEN, "0_missing", { token: secret(S(20)) }),
    secretProperties: ["token"],
    secrets: [S(20)],
    mayPass: true,
  },
  {
    name: "Delete without an id",
    method: "delete",
    request: () => deleteRequest(APP_TOKEN, "", { token: secret(S(21)) }),
    secretProperties: ["token"],
    secrets: [S(21)],
  },
  {
    name: "Diff of secrets reshaped",
    method: "diff",
    request: () => diffRequest(EMAIL_TEMPLATE, "1", { to: secret(S(22)) }, { to: secret({ odd: S(23) }) }),
    secretProperties: ["to"],
    secrets: [S(22), S(23)],
    mayPass: true,
  },
  // Invoke: a secret argument of a lookup that fails, and a secret argument the function refuses.
  {
    name: "Invoke of a lookup by a secret id that is not found",
    method: "invoke",
    request: () => new provproto.InvokeRequest().setTok("svc:index:getAppToken").setArgs(struct({ id: secret("0_fakesecretid24") })),
    secretProperties: ["id"],
    secrets: ["fakesecretid24"],
  },
  {
    name: "Invoke with a secret argument of the wrong kind",
    method: "invoke",
    request: () => new provproto.InvokeRequest().setTok("svc:index:getAppToken").setArgs(struct({ id: secret([S(25)]) })),
    secretProperties: ["id"],
    secrets: [S(25)],
  },
];

/** Everything a reader of an answer sees outside secret wrappers, and the properties its check failures name. */
function seen(answer: unknown): { text: string; properties: string[] } {
  if (answer instanceof Error) return { text: `${visibleText(answer)} ${(answer as grpc.ServiceError).details ?? ""}`, properties: [] };
  if (answer instanceof provproto.CheckResponse) {
    const failures = answer.getFailuresList();
    return {
      text: `${failures.map((f) => `${f.getProperty()} ${f.getReason()}`).join("\n")} ${visibleText(answer.getInputs())}`,
      properties: failures.map((f) => f.getProperty()),
    };
  }
  const structs = ["getProperties", "getInputs", "getReturn"].flatMap((getter) => {
    const get = (answer as Record<string, unknown>)[getter];
    return typeof get === "function" ? [visibleText(get.call(answer))] : [];
  });
  const lists = ["getDiffsList", "getReplacesList"].flatMap((getter) => {
    const get = (answer as Record<string, unknown>)[getter];
    return typeof get === "function" ? [(get.call(answer) as string[]).join(" ")] : [];
  });
  return { text: [...structs, ...lists].join(" "), properties: [] };
}

describe("no failure names or shows a secret, on any method", () => {
  let wire: WireHarness;
  beforeAll(async () => {
    wire = await startWire();
  });
  afterAll(() => wire?.stop());

  for (const testCase of CASES) {
    it(`${testCase.method}: ${testCase.name}`, async () => {
      const answer = await wire.call(testCase.method, testCase.request(wire.settings)).catch((error: unknown) => error);
      const { text, properties } = seen(answer);
      for (const value of testCase.secrets) expect(text, `${testCase.name} shows a secret`).not.toContain(value);
      for (const property of properties) expect(testCase.secretProperties, `${testCase.name} names ${property}`).not.toContain(property);
      const failed = answer instanceof Error || (answer instanceof provproto.CheckResponse && answer.getFailuresList().length > 0);
      if (!testCase.mayPass) expect(failed, `${testCase.name} is a failure path`).toBe(true);
    });
  }
});
