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

/**
 * `value` as a Struct, exactly as its JSON text would be (a property or object key whose value is undefined is
 * left out, undefined in a list and a number that is not finite are null, toJSON is applied), built in one walk
 * without the text: a refresh answers two of these per resource (docs/bench.md, "Where a Read's time goes").
 */
export function toStruct(value: Props): structproto.Struct {
  return structOf(value as Record<string, unknown>);
}

function structOf(object: Record<string, unknown>): structproto.Struct {
  const struct = new structproto.Struct();
  const fields = struct.getFieldsMap();
  for (const key of Object.keys(object)) {
    const item = protoValue(object[key]);
    if (item) fields.set(key, item);
  }
  return struct;
}

/** The Value of what JSON.stringify would write for `value`; undefined when it would leave it out. */
function protoValue(value: unknown): structproto.Value | undefined {
  switch (typeof value) {
    case "string":
      return new structproto.Value().setStringValue(value);
    case "number":
      // JSON writes -0 as 0.
      return Number.isFinite(value) ? new structproto.Value().setNumberValue(value === 0 ? 0 : value) : nullValue();
    case "boolean":
      return new structproto.Value().setBoolValue(value);
    case "object": {
      if (value === null) return nullValue();
      if (Array.isArray(value))
        return new structproto.Value().setListValue(new structproto.ListValue().setValuesList(value.map((item) => protoValue(item) ?? nullValue())));
      const prototype = Object.getPrototypeOf(value);
      const plain = (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
      if (plain) return new structproto.Value().setStructValue(structOf(value as Record<string, unknown>));
      // A Date, a boxed value, a class instance, a toJSON: whatever its JSON is (rare in a state, not worth a rule each).
      const text = JSON.stringify(value) as string | undefined;
      return text === undefined ? undefined : protoValue(JSON.parse(text));
    }
    case "bigint":
      // As JSON.stringify: a state cannot hold one.
      throw new TypeError("Do not know how to serialize a BigInt");
    default:
      // undefined, a function, a symbol: left out, as in JSON.
      return undefined;
  }
}

const nullValue = () => new structproto.Value().setNullValue(structproto.NullValue.NULL_VALUE);

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
