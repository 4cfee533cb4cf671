/**
 * The native plugin on the wire, in this process: `SvcProviderServer` behind the plugin's own gRPC server on
 * loopback (plugin/grpcServer.ts, as the plugin process serves it), a grpc-js client of Pulumi's generated stubs, and the emulator in this process as the platform. Requests are
 * the protocol's own protobuf messages (built here from plain values), so what a test sends is what the engine
 * sends, serialized and all. No engine, no child process: unit time.
 *
 *   const wire = await startWire();              // emulator + server + client, Configure'd for the emulator
 *   const res = await wire.call("check", checkRequest(APP_TOKEN, { description: "x" }));
 *   wire.apiCalls();                             // platform calls since start (or since wire.resetApiCalls())
 *   await wire.restartPlugin();                  // a new plugin "process" on the same emulator (the next command)
 *   await wire.stop();
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { type RunningEmulator, type StartEmulatorOptions, startEmulator } from "../../../emulator";
import { UNKNOWN } from "../../../provider/core/unknowns";
import { DEFINITIONS } from "../../../provider/definitions";
import type { ResourceDefinition } from "../../../provider/definitions/define";
import { secret } from "../../../plugin/properties";
import { serveProvider } from "../../../plugin/providerMethods";
import { SvcProviderServer } from "../../../plugin/server";

export { secret, UNKNOWN };
export type Props = Record<string, unknown>;

export const APP_TOKEN = "svc:index:AppToken";
export const HTTP_TEMPLATE = "svc:index:HttpNotificationTemplate";
export const EMAIL_TEMPLATE = "svc:index:EmailNotificationTemplate";
/** The version the plugin under test reports (GetPluginInfo). */
export const WIRE_PLUGIN_VERSION = "0.0.0-wire";
export const RESOURCE_TYPES = [APP_TOKEN, HTTP_TEMPLATE, EMAIL_TEMPLATE] as const;

/** The unary methods of the service, by their grpc-js client names. */
export type WireMethod =
  | "getPluginInfo"
  | "getSchema"
  | "checkConfig"
  | "diffConfig"
  | "configure"
  | "check"
  | "diff"
  | "create"
  | "read"
  | "update"
  | "delete"
  | "invoke"
  | "call"
  | "construct"
  | "parameterize"
  | "handshake"
  | "attach"
  | "getMapping"
  | "getMappings"
  | "cancel";

export interface WireHarness {
  emulator: RunningEmulator;
  server: SvcProviderServer;
  client: provrpc.ResourceProviderClient;
  /** host:port of the plugin's gRPC server. */
  address: string;
  /** The settings of the emulator's account (the admin secret wrapped as a secret), as Configure takes them. */
  settings: Props;
  /** One unary call over gRPC: the response message, or a rejection with the grpc-js ServiceError. */
  call<T = unknown>(method: WireMethod, request: unknown): Promise<T>;
  /** Configure with `settings` (default: the emulator's account). */
  configure(settings?: Props): Promise<provproto.ConfigureResponse>;
  /** Calls the emulator answered, by `service.action`, since start or the last reset. */
  apiCalls(): Record<string, number>;
  resetApiCalls(): void;
  /**
   * A new plugin server (and client) on the same emulator, with a provider process of its own (the old one closed:
   * configuration, clients, a Cancel): what the engine's next command gets, a new plugin process.
   */
  restartPlugin(): Promise<void>;
  stop(): Promise<void>;
}

export interface WireOptions {
  /** Configure the plugin for the emulator's account before returning (default true). */
  configure?: boolean;
  /** Definitions to serve (default: the package's, provider/definitions). */
  definitions?: readonly ResourceDefinition[];
  emulator?: StartEmulatorOptions;
}

/**
 * A plugin configured against a stand-in platform (a plain HTTP server on loopback answering with `handler`), for
 * what the emulator will not say: a huge error, an error that quotes what it was sent.
 */
export async function startWireOnStandIn(handler: RequestListener, adminSecret: string): Promise<{ wire: WireHarness; stop(): Promise<void> }> {
  const platform = createServer(handler);
  await new Promise<void>((resolve) => platform.listen(0, "127.0.0.1", resolve));
  const wire = await startWire({ configure: false });
  const { port } = platform.address() as AddressInfo;
  await wire.configure({ baseUrl: `http://127.0.0.1:${port}/api_v3`, partnerId: 1, adminSecret: secret(adminSecret), requestTimeoutMs: 5_000 });
  return {
    wire,
    stop: async () => {
      await wire.stop();
      await new Promise((resolve) => platform.close(resolve));
    },
  };
}

export async function startWire(options: WireOptions = {}): Promise<WireHarness> {
  const emulator = await startEmulator({ quiet: true, ...options.emulator });
  let plugin = await startPlugin(options.definitions ?? DEFINITIONS);
  const settings: Props = { baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, adminSecret: secret(emulator.adminSecret) };
  const call = <T>(method: WireMethod, request: unknown) =>
    new Promise<T>((resolve, reject) => {
      const unary = (plugin.client as unknown as Record<string, (req: unknown, cb: (e: grpc.ServiceError | null, r: T) => void) => void>)[method];
      if (!unary) throw new Error(`no client method ${method}`);
      unary.call(plugin.client, request, (error, response) => (error ? reject(error) : resolve(response)));
    });
  const harness: WireHarness = {
    emulator,
    get server() {
      return plugin.server;
    },
    get client() {
      return plugin.client;
    },
    get address() {
      return plugin.address;
    },
    settings,
    call,
    configure: (given = settings) => call<provproto.ConfigureResponse>("configure", configureRequest(given)),
    apiCalls: () => emulator.ctx.stats.snapshot(),
    resetApiCalls: () => emulator.ctx.stats.reset(),
    async restartPlugin() {
      await plugin.stop();
      plugin = await startPlugin(options.definitions ?? DEFINITIONS);
    },
    async stop() {
      await plugin.stop();
      await emulator.close();
    },
  };
  if (options.configure !== false) await harness.configure();
  return harness;
}

/** The plugin's server and a client of it; stop() also closes the clients of the server's provider process. */
async function startPlugin(definitions: readonly ResourceDefinition[]) {
  const server = new SvcProviderServer(definitions, WIRE_PLUGIN_VERSION);
  const grpcServer = await serveProvider(server.service());
  const address = `127.0.0.1:${grpcServer.port}`;
  const client = new provrpc.ResourceProviderClient(address, grpc.credentials.createInsecure());
  return {
    server,
    client,
    address,
    async stop() {
      client.close();
      await grpcServer.close();
      await server.session.close();
    },
  };
}

/** A unary call to a method path the service may not have (e.g. one a newer engine knows): the raw grpc-js error. */
export function callPath(wire: WireHarness, path: string, request: Uint8Array = new Uint8Array()): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    wire.client.makeUnaryRequest(
      path,
      (value: Uint8Array) => Buffer.from(value),
      (value: Buffer) => new Uint8Array(value),
      request,
      (error, response) => (error ? reject(error) : resolve(response as Uint8Array)),
    ),
  );
}

// ---- request builders: plain values in, protocol messages out ----

export function urnOf(type: string, name = "wire"): string {
  return `urn:pulumi:test::wire::${type}::${name}`;
}

export function struct(value: Props): structproto.Struct {
  return structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);
}

export function checkRequest(type: string, news: Props, olds: Props = {}, name?: string): provproto.CheckRequest {
  return new provproto.CheckRequest().setUrn(urnOf(type, name)).setType(type).setNews(struct(news)).setOlds(struct(olds));
}

export function checkConfigRequest(news: Props, olds: Props = {}): provproto.CheckRequest {
  return checkRequest("pulumi:providers:svc", news, olds, "default");
}

export function diffConfigRequest(olds: Props, news: Props): provproto.DiffRequest {
  return new provproto.DiffRequest()
    .setUrn(urnOf("pulumi:providers:svc", "default"))
    .setType("pulumi:providers:svc")
    .setOlds(struct(olds))
    .setOldInputs(struct(olds))
    .setNews(struct(news));
}

export function configureRequest(args: Props): provproto.ConfigureRequest {
  return new provproto.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true).setAcceptresources(true);
}

export function diffRequest(type: string, id: string, olds: Props, news: Props, oldInputs?: Props): provproto.DiffRequest {
  return new provproto.DiffRequest()
    .setUrn(urnOf(type))
    .setType(type)
    .setId(id)
    .setOlds(struct(olds))
    .setOldInputs(struct(oldInputs ?? olds))
    .setNews(struct(news));
}

export function createRequest(type: string, properties: Props, options: { preview?: boolean; name?: string } = {}): provproto.CreateRequest {
  return new provproto.CreateRequest()
    .setUrn(urnOf(type, options.name))
    .setType(type)
    .setProperties(struct(properties))
    .setPreview(options.preview === true);
}

export function readRequest(type: string, id: string, properties: Props = {}, inputs: Props = {}): provproto.ReadRequest {
  return new provproto.ReadRequest().setUrn(urnOf(type)).setType(type).setId(id).setProperties(struct(properties)).setInputs(struct(inputs));
}

export function updateRequest(
  type: string,
  id: string,
  olds: Props,
  news: Props,
  options: { preview?: boolean; oldInputs?: Props } = {},
): provproto.UpdateRequest {
  return new provproto.UpdateRequest()
    .setUrn(urnOf(type))
    .setType(type)
    .setId(id)
    .setOlds(struct(olds))
    .setOldInputs(struct(options.oldInputs ?? olds))
    .setNews(struct(news))
    .setPreview(options.preview === true);
}

export function deleteRequest(type: string, id: string, properties: Props = {}): provproto.DeleteRequest {
  return new provproto.DeleteRequest().setUrn(urnOf(type)).setType(type).setId(id).setProperties(struct(properties));
}

export const empty = () => new emptyproto.Empty();

// ---- reading answers ----

/** A Struct of an answer as plain values (secrets still wrapped: what the engine would store). */
export function valuesOf(value: structproto.Struct | undefined): Props {
  return (value?.toJavaScript() ?? {}) as Props;
}

export function failuresOf(response: provproto.CheckResponse): { property: string; reason: string }[] {
  return response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

/** The partial-create detail (id and properties the engine records) a failed Create carried, if any. */
export function initFailureOf(error: grpc.ServiceError): { id: string; properties: Props; reasons: string[] } | undefined {
  const [bytes] = error.metadata?.get("grpc-status-details-bin") ?? [];
  if (!bytes) return undefined;
  const status = statusproto.Status.deserializeBinary(new Uint8Array(bytes as Buffer));
  const detail = status.getDetailsList().find((any) => any.getTypeName() === "pulumirpc.ErrorResourceInitFailed");
  if (!detail) return undefined;
  const failed = provproto.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
  return { id: failed.getId(), properties: valuesOf(failed.getProperties()), reasons: failed.getReasonsList() };
}

const SIG_KEY = "4dabf18193072939515e22adb298388d";

/** Whether the value at `path` (or one of its ancestors) is wrapped as a secret. */
export function isSecretAt(props: Props, path: readonly (string | number)[]): boolean {
  let current: unknown = props;
  for (const key of path) {
    if (current !== null && typeof current === "object" && SIG_KEY in current) return true;
    if (current === null || typeof current !== "object") return false;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current !== null && typeof current === "object" && SIG_KEY in current;
}

/**
 * What a reader of an answer sees in plain text: its values with every secret wrapper replaced by "[secret]" (as
 * the engine shows and encrypts them), plus an error's message and details. A test secret found here is a leak.
 */
export function visibleText(value: unknown): string {
  if (value instanceof Error) {
    const failure = initFailureOf(value as grpc.ServiceError);
    return `${value.message} ${failure ? `${failure.id} ${failure.reasons.join(" ")} ${visibleText(failure.properties)}` : ""}`;
  }
  if (value instanceof structproto.Struct) return visibleText(valuesOf(value));
  // A whole message would hide its Structs' secret wrappers in protobuf form: pass its Structs instead.
  if (value && typeof value === "object" && "serializeBinary" in value) throw new Error("visibleText takes a Struct, an Error or plain values");
  return JSON.stringify(masked(value));
}

function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== "object") return value;
  if (SIG_KEY in value) return "[secret]";
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, masked(item)]));
}
