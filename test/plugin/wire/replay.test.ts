/**
 * Replay of a real engine run (fixtures/engine-grpc.json: `pulumi preview`, `up`, an `up` that updates every
 * resource, `refresh` and `destroy` of fixtures/program, recorded with the engine's gRPC log by
 * `npm run record:grpc`): each request the engine sent the plugin is sent again, in order, to SvcProviderServer
 * on a fresh emulator (a new plugin "process" per command, as the engine starts one), and each answer must be the
 * recorded one under the normaliser of replayCodec.ts (placeholders for ids, token values and the emulator's URL
 * and secret; any number for createdAt and updatedAt). No engine: unit time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as grpc from "@grpc/grpc-js";
import type { ReadResponse } from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Recording } from "./grpcRecording";
import { clientMethodOf, differences, errorText, requestOf, responseJson, substitute } from "./replayCodec";
import { readRequest, startWire, WIRE_PLUGIN_VERSION, type WireHarness } from "./wireHarness";

const FIXTURE = join(__dirname, "fixtures", "engine-grpc.json");
const fixtureText = readFileSync(FIXTURE, "utf8");
const recording = JSON.parse(fixtureText) as Recording;

describe("the recording", () => {
  it("covers every method of the resource lifecycle and the provider's configuration", () => {
    const methods = new Set(recording.commands.flatMap((command) => command.calls.map((call) => call.method)));
    for (const method of ["CheckConfig", "DiffConfig", "Configure", "Check", "Diff", "Create", "Read", "Update", "Delete"]) expect(methods).toContain(method);
  });

  it("holds no credential: placeholders for the admin secret and token values, and only the program's fake secrets", () => {
    expect(fixtureText).not.toMatch(/[0-9a-f]{64}/);
    expect(fixtureText).toContain("{{adminSecret}}");
    expect(fixtureText).toContain("{{token:1}}");
    const secretValues = new Set(
      [...fixtureText.matchAll(/"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",\s*"value": ("(?:[^"\\]|\\.)*")/g)].map(
        (m) => JSON.parse(m[1]!) as string,
      ),
    );
    expect([...secretValues].sort()).toEqual(
      [
        "{{adminSecret}}",
        "{{token:1}}",
        "fake-nested-rotation-1",
        "fake-secret-parameter-value",
        "fake-secret-recipient@example.com",
        "fake-wire-signing-secret-0001",
      ].sort(),
    );
  });
});

describe("replay of a real engine run against the plugin", () => {
  let wire: WireHarness;
  const bindings = new Map<string, string>();
  beforeAll(async () => {
    wire = await startWire({ configure: false, emulator: { partnerId: recording.partnerId } });
    bindings.set("{{baseUrl}}", wire.emulator.baseUrl);
    bindings.set("{{adminSecret}}", wire.emulator.adminSecret);
    bindings.set("{{pluginVersion}}", WIRE_PLUGIN_VERSION);
    bindings.set("{{pluginDir}}", "/plugin");
  });
  afterAll(() => wire?.stop());

  for (const [index, command] of recording.commands.entries()) {
    it(`answers as recorded: ${command.command}`, async () => {
      // The engine starts the plugin afresh for each command.
      if (index > 0) await wire.restartPlugin();
      for (const [i, call] of command.calls.entries()) {
        const where = `call ${i + 1} of ${command.calls.length} (${call.method})`;
        const request = requestOf(call.method, substitute(call.request, bindings));
        const answer = await wire.call(clientMethodOf(call.method), request).then(
          (response) => ({ response: responseJson(call.method, response) }),
          (error: grpc.ServiceError) => ({ error: errorText(error) }),
        );
        const recorded = call.error === undefined ? { response: call.response } : { error: call.error };
        expect(differences(recorded, answer, bindings), where).toEqual([]);
      }
    });
  }

  it("left the account as the run did: each object made was made once and is gone", async () => {
    const creates = recording.commands.flatMap((command) => command.calls.filter((call) => call.method === "Create"));
    expect(creates).toHaveLength(3);
    // The run's last command ended with a Cancel: look with a new plugin process.
    await wire.restartPlugin();
    await wire.configure();
    for (const create of creates) {
      const id = bindings.get(create.response?.id as string);
      expect(id, `${create.request.type} was created`).toBeDefined();
      const read = await wire.call<ReadResponse>("read", readRequest(create.request.type as string, id!, { description: "state in the stack" }));
      expect(read.getId(), `${create.request.type} ${id} is deleted`).toBe("");
    }
    const stats = wire.apiCalls();
    expect(stats["appToken.add"]).toBe(1);
    expect(stats["eventnotification_eventnotificationtemplate.clone"]).toBe(2);
  });
});
