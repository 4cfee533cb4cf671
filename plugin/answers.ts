/**
 * The plugin's answers in the protocol's terms: plain values as Structs, a diff as a DiffResponse, a partial create
 * as the status details the engine records, and a handler's outcome as the reply of its call.
 */
import * as anyproto from "google-protobuf/google/protobuf/any_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import type { CheckFailure } from "../provider/core/check";
import type { PartialCreateError } from "../provider/core/errors";
import { GrpcError, Status } from "./grpcWire";
import type { PropertyPath, Props } from "./properties";
import type { Reply } from "./providerMethods";

export function toStruct(value: Props): structproto.Struct {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Record<string, structproto.JavaScriptValue>);
}

export function checkFailures(failures: readonly CheckFailure[]): provproto.CheckFailure[] {
  return failures.map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason));
}

/**
 * The engine prints a failure's property value beside its reason: a property that holds a secret anywhere is
 * reported without it (the reason names the field, never the value).
 */
export function withoutSecretProperty(failure: CheckFailure, secrets: readonly PropertyPath[]): CheckFailure {
  return secrets.some((path) => path[0] === failure.property) ? { ...failure, property: "" } : failure;
}

export function diffResponse(changed: string[], replaces: string[], deleteBeforeReplace: boolean): provproto.DiffResponse {
  const response = new provproto.DiffResponse()
    .setChanges(changed.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE)
    .setReplacesList(replaces)
    .setDiffsList(changed)
    .setDeletebeforereplace(deleteBeforeReplace)
    .setHasdetaileddiff(true);
  const detailed = response.getDetaileddiffMap();
  for (const key of changed) {
    const kind = replaces.includes(key) ? provproto.PropertyDiff.Kind.UPDATE_REPLACE : provproto.PropertyDiff.Kind.UPDATE;
    detailed.set(key, new provproto.PropertyDiff().setKind(kind).setInputdiff(true));
  }
  return response;
}

/**
 * A create that made an object and could not finish: the engine records it (id and properties) as a partial failure,
 * read from the status details (`grpc-status-details-bin`: a google.rpc.Status holding an ErrorResourceInitFailed).
 */
export function partialFailure(error: PartialCreateError, properties: Props): GrpcError {
  const detail = new provproto.ErrorResourceInitFailed().setId(error.id).setProperties(toStruct(properties)).setReasonsList(error.reasons);
  const details = new anyproto.Any();
  details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusproto.Status().setCode(Status.UNKNOWN).setMessage(error.message).setDetailsList([details]);
  return new GrpcError(Status.UNKNOWN, error.message, status.serializeBinary());
}

export function unimplemented(details: string): GrpcError {
  return new GrpcError(Status.UNIMPLEMENTED, details);
}

/** Runs a handler and answers; errors go back with their (already redacted) message, never with inputs. */
export function respond<T>(reply: Reply<T>, run: () => Promise<T>): void {
  run().then(
    (value) => reply(null, value),
    (error: unknown) => reply(error instanceof GrpcError ? error : new GrpcError(Status.UNKNOWN, error instanceof Error ? error.message : String(error))),
  );
}
