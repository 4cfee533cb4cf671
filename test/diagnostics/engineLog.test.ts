/**
 * Diagnostics through the engine's log service, without the engine: the plugin's server sends what an operation met
 * (a throttling pause, a retry and its cause, a recovered create, its summary) to a fake `pulumirpc.Engine` over real
 * gRPC, each line on the URN of the resource it is about, before the operation answers; never a secret.
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EngineLog, engineAddressOf } from "../../plugin/engineLog";
import { SvcProviderServer } from "../../plugin/server";
import { type DiagnosticsSink, OperationLog, type Severity } from "../../provider/core/operationLog";
import { ProviderProcess } from "../../provider/core/providerProcess";
import { noteTransportEvent, recordEvent, SLOW_CALL_MS } from "../../provider/core/telemetry";
import { appToken, DEFINITIONS, httpNotificationTemplate } from "../../provider/definitions";
import type { ResourceDefinition } from "../../provider/definitions/define";
import { handlersFor } from "../../provider/runtime/handlers";
import { registerSecret } from "../../sdk/core/redact";

interface Line {
  severity: number;
  message: string;
  urn: string;
}

/** A `pulumirpc.Engine` that records what it is told (its Log only: the plugin calls nothing else). */
async function fakeEngine(): Promise<{ address: string; lines: Line[]; close(): Promise<void> }> {
  const lines: Line[] = [];
  const server = new grpc.Server();
  server.addService(engrpc.EngineService, {
    log(call: { request: engproto.LogRequest }, callback: (error: null, value: emptyproto.Empty) => void) {
      lines.push({ severity: call.request.getSeverity(), message: call.request.getMessage(), urn: call.request.getUrn() });
      callback(null, new emptyproto.Empty());
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { address: `127.0.0.1:${port}`, lines, close: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}

const INFO = 1;
const DEBUG = 0;
const urnOf = (type: string, name: string) => `urn:pulumi:test::diag::svc:index:${type}::${name}`;

describe("diagnostics through the engine's log service", () => {
  let emulator: RunningEmulator;
  let engine: Awaited<ReturnType<typeof fakeEngine>>;
  let engineLog: EngineLog;
  let service: Record<string, (call: unknown, callback: (error: unknown, value?: unknown) => void) => void>;
  /** The plugin server's provider process (its diagnostics scope and clients). */
  const session = new ProviderProcess();
  /** A diagnostics scope of its own, for the lines sent without the plugin. */
  const operationLog = new OperationLog();

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    engine = await fakeEngine();
    engineLog = new EngineLog(engine.address);
    service = new SvcProviderServer(DEFINITIONS, "0.0.0-test", engineLog, session).service() as unknown as typeof service;
    const config: Record<string, string> = {
      "svc:baseUrl": emulator.baseUrl,
      "svc:partnerId": String(emulator.partnerId),
      "svc:adminSecret": emulator.adminSecret,
    };
    session.configure({ get: (key) => config[key] });
  });
  beforeEach(() => {
    emulator.ctx.faults.set({});
    engine.lines.length = 0;
  });
  afterAll(async () => {
    engineLog?.close();
    await session.close();
    await engine?.close();
    await emulator?.close();
  });

  /** Calls the plugin's Create as the engine would; resolves with the id once it answered. */
  async function create(type: string, name: string, inputs: Record<string, unknown>): Promise<{ id: string; linesAtAnswer: Line[] }> {
    const definition: ResourceDefinition = type === "AppToken" ? appToken : httpNotificationTemplate;
    const checked = await handlersFor(definition, session).check({}, inputs);
    expect(checked.failures, JSON.stringify(checked.failures)).toEqual([]);
    const request = new provproto.CreateRequest()
      .setUrn(urnOf(type, name))
      .setType(`svc:index:${type}`)
      .setProperties(structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(checked.inputs))));
    return new Promise((resolve, reject) =>
      service.create?.({ request }, (error, value) =>
        error ? reject(error) : resolve({ id: (value as provproto.CreateResponse).getId(), linesAtAnswer: [...engine.lines] }),
      ),
    );
  }

  it("a throttling pause, a retry with its cause and a recovered create, on the token's URN, sent before the answer", async () => {
    // add: 429 (retried), then committed with its answer lost (recovered); the recovery's list: 503 (retried).
    emulator.ctx.faults.set({ next: ["throttle", "commitThenDrop", "error"], retryAfterSeconds: 0, pathIncludes: "/appToken/action/" });
    const template = create("HttpNotificationTemplate", "quiet", {
      event: "entry.ready",
      name: "diagnostics quiet",
      url: "https://hooks.example/quiet",
      signSecret: "diagnostics-sign-secret-0123456789",
    });
    const token = await create("AppToken", "ci", { description: "diagnostics ci" });
    await template;

    const onToken = token.linesAtAnswer.filter((line) => line.urn === urnOf("AppToken", "ci"));
    expect(onToken).toEqual(
      expect.arrayContaining([
        {
          severity: INFO,
          urn: urnOf("AppToken", "ci"),
          message: expect.stringMatching(/^the platform is throttling requests \(429\): pausing \d+ ms before attempt 2 of appToken\.add/),
        },
        {
          severity: INFO,
          urn: urnOf("AppToken", "ci"),
          message: expect.stringMatching(/^retrying appToken\.list in \d+ ms \(attempt 2\): the platform answered 503/),
        },
        {
          severity: INFO,
          urn: urnOf("AppToken", "ci"),
          message: expect.stringMatching(
            new RegExp(`^recovered a create whose answer was lost \\(.+\\): found app token ${token.id} made by it and adopted it`),
          ),
        },
        { severity: DEBUG, urn: urnOf("AppToken", "ci"), message: expect.stringMatching(/^create: \d+ API requests, 2 retries, \d+ ms$/) },
      ]),
    );
    // The template's create ran beside it on the same client and met no fault: nothing of the token's is on its URN.
    const onTemplate = engine.lines.filter((line) => line.urn === urnOf("HttpNotificationTemplate", "quiet"));
    expect(onTemplate.map((line) => line.severity)).toEqual([DEBUG]);
    expect(engine.lines.every((line) => [urnOf("AppToken", "ci"), urnOf("HttpNotificationTemplate", "quiet")].includes(line.urn))).toBe(true);
  });

  it("an operation that met nothing sends only its summary, at debug", async () => {
    await create("AppToken", "calm", { description: "diagnostics calm" });
    expect(engine.lines).toEqual([
      { severity: DEBUG, urn: urnOf("AppToken", "calm"), message: expect.stringMatching(/^create: \d+ API requests?, 0 retries, \d+ ms$/) },
    ]);
  });

  it("a secret in a cause never reaches the engine (the sdk's redaction)", async () => {
    const adminSecret = "planted-admin-secret-4f1d";
    registerSecret(adminSecret);
    const ks = `djJ8${"A".repeat(40)}`;
    const sink = new EngineLog(engine.address);
    try {
      await operationLog.run(sink, urnOf("AppToken", "leaky"), "create", async (finish) => {
        recordEvent(operationLog.diagnose, {
          type: "recovery",
          resource: "app token",
          outcome: "createdAgain",
          round: 1,
          cause: `502: upstream said ks=${ks} secret=${adminSecret}`,
        });
        recordEvent(operationLog.diagnose, { type: "retry", service: "appToken", action: "add", reason: `status 503 ${adminSecret}`, delayMs: 10 });
        await finish();
      });
    } finally {
      sink.close();
    }
    const text = JSON.stringify(engine.lines);
    expect(engine.lines).toHaveLength(2);
    expect(text).not.toContain(adminSecret);
    expect(text).not.toContain(ks);
    expect(text).toContain("[REDACTED]");
  });

  it("a slow answer is reported with its call and time; a quick one is not", async () => {
    const lines: { severity: Severity; message: string; urn: string }[] = [];
    const sink: DiagnosticsSink = { log: async (severity, message, urn) => void lines.push({ severity, message, urn }) };
    const answer = (ms: number) =>
      ({
        type: "response",
        service: "appToken",
        action: "get",
        method: "POST",
        path: "/api_v3/service/appToken/action/get",
        attempt: 1,
        status: 200,
        ms,
      }) as const;
    await operationLog.run(sink, urnOf("AppToken", "slow"), "read", async (finish) => {
      noteTransportEvent(operationLog, answer(SLOW_CALL_MS - 1));
      noteTransportEvent(operationLog, answer(SLOW_CALL_MS + 1234));
      await finish();
    });
    expect(lines.filter((line) => line.severity === "info")).toEqual([
      { severity: "info", urn: urnOf("AppToken", "slow"), message: `slow answer: appToken.get took ${SLOW_CALL_MS + 1234} ms (status 200)` },
    ]);
  });

  it("outside an operation (the dynamic provider), nothing is sent and nothing fails", () => {
    expect(() => recordEvent(operationLog.diagnose, { type: "retry", reason: "status 503", delayMs: 1 })).not.toThrow();
    expect(engine.lines).toEqual([]);
  });

  it("a sink that fails never fails the operation", async () => {
    const broken: DiagnosticsSink = {
      log: (_severity: Severity) => Promise.reject(new Error("engine gone")),
    };
    const result = await operationLog.run(broken, urnOf("AppToken", "x"), "create", async (finish) => {
      recordEvent(operationLog.diagnose, { type: "retry", reason: "status 503", delayMs: 1 });
      await finish();
      return "done";
    });
    expect(result).toBe("done");
  });

  it("one scope for operations with sinks of their own: each operation's lines reach its own sink", async () => {
    const seen: Record<string, string[]> = { a: [], b: [] };
    const sinkOf = (name: "a" | "b"): DiagnosticsSink => ({
      log: async (_severity: Severity, message: string, urn: string) => {
        seen[name]!.push(`${urn.split("::").at(-1)} ${message}`);
      },
    });
    const shared = new OperationLog();
    const [logA, logB] = [shared, shared];
    const operation = (log: OperationLog, sink: DiagnosticsSink, name: string, delays: number[]) =>
      log.run(sink, urnOf("AppToken", name), "create", async (finish) => {
        for (const [i, ms] of delays.entries()) {
          await new Promise((resolve) => setTimeout(resolve, ms));
          log.diagnose("info", `line ${i}`);
        }
        await finish();
      });
    // Interleaved: each operation awaits while the other writes.
    await Promise.all([operation(logA, sinkOf("a"), "ta", [5, 1, 8]), operation(logB, sinkOf("b"), "tb", [1, 9, 1])]);
    expect(seen).toEqual({ a: ["ta line 0", "ta line 1", "ta line 2"], b: ["tb line 0", "tb line 1", "tb line 2"] });
    // Outside any operation, neither log sends anything.
    logA.diagnose("info", "stray");
    expect(seen.a).toHaveLength(3);
  });

  it("finds the engine's address among the arguments the engine passes", () => {
    expect(engineAddressOf(["127.0.0.1:4242"])).toBe("127.0.0.1:4242");
    expect(engineAddressOf(["--logtostderr", "-v=9", "--logflow", "--tracing", "file:/tmp/t.json", "127.0.0.1:4242"])).toBe("127.0.0.1:4242");
    expect(engineAddressOf([])).toBeUndefined();
  });
});
