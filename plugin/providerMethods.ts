/**
 * Pulumi's provider protocol, method by method: the path the engine calls and the message class its request is
 * read with, typed from the protocol's generated stubs (`IResourceProviderServer` and `ResourceProviderService` of
 * @pulumi/pulumi/proto/provider_grpc_pb). Only their types are taken: the stubs' module requires grpc-js, which the
 * plugin does not load (it serves gRPC on node:http2 itself, grpcServer.ts). A method the stubs gain and this table
 * lacks, a wrong path or a wrong request class is a compile error.
 */
import type * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import type { IResourceProviderServer, ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { type RunningGrpcServer, type ServedMethod, serveGrpc } from "./grpcServer";
import { GrpcError, Status } from "./grpcWire";
import { decodeDiffRequest, decodeReadRequest } from "./plainRequests";

/** The protocol's methods by the stubs' names (`check`, `getPluginInfo`...): IResourceProviderServer's own keys. */
export type ProviderMethod = keyof {
  [K in keyof IResourceProviderServer as string extends K ? never : number extends K ? never : K]: true;
};

type Messages<M> =
  M extends grpc.handleUnaryCall<infer Req, infer Res> ? [Req, Res] : M extends grpc.handleServerStreamingCall<infer Req, infer Res> ? [Req, Res] : never;

export type RequestOf<K extends ProviderMethod> = Messages<IResourceProviderServer[K]>[0];
export type ResponseOf<K extends ProviderMethod> = Messages<IResourceProviderServer[K]>[1];

/** How a handler answers: an error (GrpcError, or any Error: UNKNOWN with its message), or the response. */
export type Reply<T> = (error: GrpcError | Error | null, value?: T | null) => void;
/** A handler of one method: the request as the engine sent it, and how to answer. */
export type Handler<Req, Res> = (call: { request: Req }, reply: Reply<Res>) => void;

/** Every method of the protocol with its handler: what SvcProviderServer.service() gives the transport. */
export type ProviderHandlers = { [K in ProviderMethod]: Handler<RequestOf<K>, ResponseOf<K>> };

interface MethodSpec<K extends ProviderMethod> {
  path: (typeof ResourceProviderService)[K]["path"];
  request: { deserializeBinary(bytes: Uint8Array): RequestOf<K> };
}

/** Each method's path and request class, as the stubs have them. */
export const PROVIDER_METHODS: { [K in ProviderMethod]: MethodSpec<K> } = {
  handshake: { path: "/pulumirpc.ResourceProvider/Handshake", request: provproto.ProviderHandshakeRequest },
  parameterize: { path: "/pulumirpc.ResourceProvider/Parameterize", request: provproto.ParameterizeRequest },
  getSchema: { path: "/pulumirpc.ResourceProvider/GetSchema", request: provproto.GetSchemaRequest },
  checkConfig: { path: "/pulumirpc.ResourceProvider/CheckConfig", request: provproto.CheckRequest },
  diffConfig: { path: "/pulumirpc.ResourceProvider/DiffConfig", request: provproto.DiffRequest },
  configure: { path: "/pulumirpc.ResourceProvider/Configure", request: provproto.ConfigureRequest },
  invoke: { path: "/pulumirpc.ResourceProvider/Invoke", request: provproto.InvokeRequest },
  call: { path: "/pulumirpc.ResourceProvider/Call", request: provproto.CallRequest },
  check: { path: "/pulumirpc.ResourceProvider/Check", request: provproto.CheckRequest },
  // Read and Diff (a refresh sends both per resource): their Structs read as plain values from the bytes (plainRequests.ts).
  diff: { path: "/pulumirpc.ResourceProvider/Diff", request: { deserializeBinary: decodeDiffRequest } },
  create: { path: "/pulumirpc.ResourceProvider/Create", request: provproto.CreateRequest },
  read: { path: "/pulumirpc.ResourceProvider/Read", request: { deserializeBinary: decodeReadRequest } },
  list: { path: "/pulumirpc.ResourceProvider/List", request: provproto.ListRequest },
  update: { path: "/pulumirpc.ResourceProvider/Update", request: provproto.UpdateRequest },
  delete: { path: "/pulumirpc.ResourceProvider/Delete", request: provproto.DeleteRequest },
  construct: { path: "/pulumirpc.ResourceProvider/Construct", request: provproto.ConstructRequest },
  cancel: { path: "/pulumirpc.ResourceProvider/Cancel", request: emptyproto.Empty },
  getPluginInfo: { path: "/pulumirpc.ResourceProvider/GetPluginInfo", request: emptyproto.Empty },
  attach: { path: "/pulumirpc.ResourceProvider/Attach", request: plugproto.PluginAttach },
  getMapping: { path: "/pulumirpc.ResourceProvider/GetMapping", request: provproto.GetMappingRequest },
  getMappings: { path: "/pulumirpc.ResourceProvider/GetMappings", request: provproto.GetMappingsRequest },
};

/** The transport's table (path -> method) for `handlers`: each request read with its class, each answer serialized. */
export function servedMethods(handlers: ProviderHandlers): Map<string, ServedMethod> {
  const served = new Map<string, ServedMethod>();
  const add = <K extends ProviderMethod>(name: K) => served.set(PROVIDER_METHODS[name].path, servedMethod(PROVIDER_METHODS[name], handlers[name]));
  for (const name of Object.keys(PROVIDER_METHODS) as ProviderMethod[]) add(name);
  return served;
}

function servedMethod<K extends ProviderMethod>(spec: MethodSpec<K>, handler: Handler<RequestOf<K>, ResponseOf<K>>): ServedMethod {
  return {
    handle(bytes, answer) {
      let request: RequestOf<K>;
      try {
        request = spec.request.deserializeBinary(bytes);
      } catch (error) {
        answer(new GrpcError(Status.INTERNAL, `Error deserializing request: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
      handler({ request }, (error, value) => answer(error, value ? value.serializeBinary() : undefined));
    },
  };
}

/** The largest request taken (as Pulumi's own provider servers: 400 MiB), e.g. a Read of a very large state. */
export const MAX_REQUEST_BYTES = 400 * 1024 * 1024;

/** Serves the protocol with `handlers` on 127.0.0.1 (the port is the system's: the engine reads it from stdout). */
export function serveProvider(handlers: ProviderHandlers): Promise<RunningGrpcServer> {
  return serveGrpc(servedMethods(handlers), { maxReceiveMessageBytes: MAX_REQUEST_BYTES });
}
