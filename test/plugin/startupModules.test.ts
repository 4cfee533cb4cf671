/**
 * What a plugin process loads before it serves its first Configure is a fixed list (docs/plugin.md, "What one process
 * costs"): Pulumi starts one process per explicit provider, so every module here is paid once per account of a stack,
 * before any work. A heavy import (zod, the sdk, undici, the schema's generation) must not creep back into it
 * unnoticed. The plugin runs from its compiled files (dist/plugin/main.js: the bundle's module graph, file by file)
 * with a preload that writes the modules loaded so far when asked (SIGUSR2), after the port and after Configure.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";
import { APP_TOKEN, checkRequest, configureRequest, createRequest, valuesOf } from "./wire/wireHarness";

/**
 * The packages a process has loaded before its first Configure: the protocol's stubs (their messages alone). Not zod:
 * the settings are checked by their rules without it (provider/core/settingRules.ts).
 */
const PACKAGES = ["@pulumi/pulumi", "google-protobuf"];

/**
 * The project's own modules (compiled) loaded by then: the gRPC transport, the server, the settings and their rules,
 * of the sdk its redaction alone (one registry of secrets for the whole process). Not the sdk's client: the provider
 * process requires it at its first client. Not the resource runtime (definitions, handlers, schema, functions): the
 * server requires it at its first request about a resource.
 */
const OWN_MODULES = [
  "contract/baseUrl.js",
  "contract/hashTypes.js",
  "contract/notFound.js",
  "contract/urlUserinfo.js",
  "contract/webhookUrl.js",
  "plugin/accountMoves.js",
  "plugin/answers.js",
  "plugin/engineLog.js",
  "plugin/grpcServer.js",
  "plugin/grpcUnaryCall.js",
  "plugin/grpcWire.js",
  "plugin/main.js",
  "plugin/plainRequests.js",
  "plugin/plainStructs.js",
  "plugin/properties.js",
  "plugin/providerMethods.js",
  "plugin/providerServer.js",
  "plugin/settings.js",
  // The error code's redaction and cap (safeErrorCode), shared by the sdk's errors and the provider's messages: node:util and redact.js only.
  "sdk/core/errors.js",
  "sdk/core/redact.js",
];

/** Loaded by then from the folder of the provider's core (its file list changes with the code). */
const OWN_FOLDERS = ["provider/core/"];

/** Of the provider's core, never by then: what makes the sdk's clients needs the sdk (ProviderProcess imports it). */
const CORE_NOT_AT_START = ["provider/core/providerProcess.js", "provider/core/connectionInput.js", "provider/core/recovery.js"];

/** Folders of which nothing is loaded before a request about a resource. */
const RUNTIME_FOLDERS = ["provider/definitions/", "provider/runtime/", "provider/generated/"];

/** Files of these are never loaded before a platform call; grpc-js never (the plugin serves gRPC on node:http2). */
const NEVER = ["undici", "@grpc/grpc-js", "@grpc/proto-loader", "protobufjs"];

/** Loaded with the first request about a resource (the runtime's definitions and the sdk's client check with zod). */
const AFTER_CHECK = ["zod"];

const PROBE = `
const { writeFileSync } = require("node:fs");
process.on("SIGUSR2", () => writeFileSync(process.env.SVC_MODULES_OUT, JSON.stringify(Object.keys(require.cache))));
`;

interface Loaded {
  packages: string[];
  own: string[];
}

function classify(files: string[]): Loaded {
  const packages = new Set<string>();
  const own = new Set<string>();
  for (const file of files.filter((f) => f.startsWith(repoRoot))) {
    const inPackage = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (inPackage) packages.add(inPackage[1]!);
    else own.add(relative(join(repoRoot, "dist"), file));
  }
  return { packages: [...packages].sort(), own: [...own].sort() };
}

describe("the plugin process's modules before its first Configure", () => {
  let dir: string;
  let plugin: ChildProcess;
  let client: provrpc.ResourceProviderClient;
  const out = () => join(dir, "modules.json");

  /** The modules the plugin has loaded by now. */
  async function loadedNow(): Promise<Loaded> {
    rmSync(out(), { force: true });
    plugin.kill("SIGUSR2");
    for (let i = 0; i < 200; i++) {
      try {
        return classify(JSON.parse(readFileSync(out(), "utf8")) as string[]);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    throw new Error("the plugin did not write its module list");
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "plugin-modules-"));
    writeFileSync(join(dir, "probe.cjs"), PROBE);
    plugin = spawn(process.execPath, ["--require", join(dir, "probe.cjs"), join(repoRoot, "dist", "plugin", "main.js")], {
      env: { ...process.env, SVC_MODULES_OUT: out(), SVC_ENGINE_LOG: "off" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const port = await new Promise<string>((resolve, reject) => {
      plugin.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port`)));
      plugin.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    });
    client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });

  afterAll(() => {
    client?.close();
    plugin?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("are the expected list, at the port and after Configure", async () => {
    const atPort = await loadedNow();
    await new Promise<provproto.ConfigureResponse>((resolve, reject) =>
      client.configure(
        configureRequest({ baseUrl: "http://127.0.0.1:9", partnerId: "1", adminSecret: "not-a-real-secret" }),
        (error: grpc.ServiceError | null, response: provproto.ConfigureResponse) => (error ? reject(error) : resolve(response)),
      ),
    );
    const afterConfigure = await loadedNow();
    expect(afterConfigure).toEqual(atPort);
    expect(atPort.packages).toEqual(PACKAGES);
    const listed = atPort.own.filter((file) => !OWN_FOLDERS.some((folder) => file.startsWith(folder)));
    expect(listed).toEqual(OWN_MODULES);
    expect(atPort.packages.filter((name) => NEVER.includes(name))).toEqual([]);
    expect(atPort.own.filter((file) => RUNTIME_FOLDERS.some((folder) => file.startsWith(folder)))).toEqual([]);
    expect(atPort.own.filter((file) => CORE_NOT_AT_START.includes(file))).toEqual([]);
    // The first request about a resource requires the runtime (and answers: the lazy path works compiled).
    const checked = await new Promise<provproto.CheckResponse>((resolve, reject) =>
      client.check(checkRequest(APP_TOKEN, { description: "startup" }), (error: grpc.ServiceError | null, response: provproto.CheckResponse) =>
        error ? reject(error) : resolve(response),
      ),
    );
    expect(checked.getFailuresList()).toEqual([]);
    const afterCheck = await loadedNow();
    expect(afterCheck.own).toContain("plugin/resourceRuntime.js");
    expect(afterCheck.own.filter((file) => file.startsWith("provider/definitions/")).length).toBeGreaterThan(0);
    // zod comes with the runtime (its definitions check inputs with it); the sdk's client waits for the first client.
    expect(afterCheck.packages).toEqual(expect.arrayContaining(AFTER_CHECK));
    expect(afterCheck.own).toContain("contract/platform.js");
    expect(afterCheck.own).not.toContain("sdk/svcClient.js");
    // The first Create makes the first client: the sdk is required then (the lazy path works compiled). Its answer
    // (the platform at port 9 is not there) is not waited for.
    client.create(createRequest(APP_TOKEN, valuesOf(checked.getInputs())), () => {});
    let afterCreate = await loadedNow();
    for (let i = 0; i < 100 && !afterCreate.own.includes("sdk/svcClient.js"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      afterCreate = await loadedNow();
    }
    expect(afterCreate.own).toContain("sdk/svcClient.js");
  });
});
