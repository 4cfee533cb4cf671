/**
 * Between the engine's log form of the provider protocol (protobuf JSON) and the messages of
 * @pulumi/pulumi/proto: a recorded request becomes the message the engine sent, an answer of the plugin becomes the
 * JSON the engine would have logged, and the two are compared by the replay's normaliser (`matches`).
 *
 * The normaliser, in full: a recorded string `{{name}}` is a placeholder (see grpcRecording.ts) that matches any
 * string and binds it, or must equal what it is bound to; `createdAt` and `updatedAt` match any number (the
 * platform's clock); everything else must be equal, keys and order of lists included.
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { WireMethod } from "./wireHarness";

type Json = Record<string, unknown>;
type MessageClass = new () => object;

/** Each recorded method: the client method that calls it and the request's message type. */
const METHODS: Record<string, { call: WireMethod; request: MessageClass }> = {
  Handshake: { call: "handshake", request: provproto.ProviderHandshakeRequest },
  GetPluginInfo: { call: "getPluginInfo", request: emptyproto.Empty },
  GetSchema: { call: "getSchema", request: provproto.GetSchemaRequest },
  CheckConfig: { call: "checkConfig", request: provproto.CheckRequest },
  DiffConfig: { call: "diffConfig", request: provproto.DiffRequest },
  Configure: { call: "configure", request: provproto.ConfigureRequest },
  Check: { call: "check", request: provproto.CheckRequest },
  Diff: { call: "diff", request: provproto.DiffRequest },
  Create: { call: "create", request: provproto.CreateRequest },
  Read: { call: "read", request: provproto.ReadRequest },
  Update: { call: "update", request: provproto.UpdateRequest },
  Delete: { call: "delete", request: provproto.DeleteRequest },
  Cancel: { call: "cancel", request: emptyproto.Empty },
};

/** Request fields that hold property values (google.protobuf.Struct). */
const STRUCT_FIELDS = new Set(["news", "olds", "oldinputs", "oldoutputs", "properties", "inputs", "args"]);
/** Request fields that are maps of text. */
const MAP_FIELDS = new Set(["variables"]);

export function clientMethodOf(method: string): WireMethod {
  const known = METHODS[method];
  if (!known) throw new Error(`the replay does not know the method ${method}: add it to METHODS`);
  return known.call;
}

/** The message the engine sent, from its log form. Every field is set: one the codec cannot set fails the replay. */
export function requestOf(method: string, json: Json): object {
  const known = METHODS[method];
  if (!known) throw new Error(`the replay does not know the method ${method}: add it to METHODS`);
  const message = new known.request() as Record<string, unknown>;
  const setters = new Map<string, string>();
  for (let proto = Object.getPrototypeOf(message); proto; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name.startsWith("set")) setters.set(name.slice(3).toLowerCase(), name);
  }
  for (const [key, value] of Object.entries(json)) {
    const field = key.toLowerCase();
    if (MAP_FIELDS.has(field)) {
      const map = (message[`get${key[0]!.toUpperCase()}${key.slice(1)}Map`] as () => { set(k: string, v: unknown): void }).call(message);
      for (const [k, v] of Object.entries(value as Json)) map.set(k, v);
      continue;
    }
    const setter = setters.get(Array.isArray(value) ? `${field}list` : field);
    if (!setter) throw new Error(`the replay cannot set ${method} request field "${key}": extend requestOf`);
    const converted = STRUCT_FIELDS.has(field) ? structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>) : value;
    (message[setter] as (v: unknown) => void).call(message, converted);
  }
  return message;
}

/** The plugin's answer in the engine's log form (protobuf JSON: default values left out, enums by name). */
export function responseJson(method: string, message: unknown): Json {
  const struct = (value: structproto.Struct | undefined) => value?.toJavaScript();
  const json: Json = {};
  const put = (key: string, value: unknown) => {
    const isDefault = value === undefined || value === "" || value === false || value === 0 || (Array.isArray(value) && value.length === 0);
    if (!isDefault) json[key] = value;
  };
  if (message instanceof provproto.CheckResponse) {
    put("inputs", struct(message.getInputs()));
    put(
      "failures",
      message
        .getFailuresList()
        .map((f) => Object.fromEntries(Object.entries({ property: f.getProperty(), reason: f.getReason() }).filter(([, v]) => v !== ""))),
    );
  } else if (message instanceof provproto.DiffResponse) {
    put("replaces", message.getReplacesList());
    put("stables", message.getStablesList());
    put("deleteBeforeReplace", message.getDeletebeforereplace());
    put("changes", enumName(provproto.DiffResponse.DiffChanges, message.getChanges()));
    put("diffs", message.getDiffsList());
    const detailed: Json = {};
    for (const [key, diff] of message.getDetaileddiffMap().entries()) {
      const entry: Json = {};
      if (diff.getKind() !== 0) entry.kind = enumName(provproto.PropertyDiff.Kind, diff.getKind());
      if (diff.getInputdiff()) entry.inputDiff = true;
      detailed[key] = entry;
    }
    if (Object.keys(detailed).length > 0) json.detailedDiff = detailed;
    put("hasDetailedDiff", message.getHasdetaileddiff());
  } else if (message instanceof provproto.CreateResponse) {
    put("id", message.getId());
    put("properties", struct(message.getProperties()));
  } else if (message instanceof provproto.ReadResponse) {
    put("id", message.getId());
    put("properties", struct(message.getProperties()));
    put("inputs", struct(message.getInputs()));
  } else if (message instanceof provproto.UpdateResponse) {
    put("properties", struct(message.getProperties()));
  } else if (message instanceof provproto.ConfigureResponse) {
    put("acceptSecrets", message.getAcceptsecrets());
    put("supportsPreview", message.getSupportspreview());
    put("acceptResources", message.getAcceptresources());
    put("acceptOutputs", message.getAcceptoutputs());
    put("supportsAutonamingConfiguration", message.getSupportsAutonamingConfiguration());
  } else if (message instanceof plugproto.PluginInfo) {
    put("version", message.getVersion());
  } else if (message instanceof provproto.GetSchemaResponse) {
    put("schema", message.getSchema());
  } else if (!(message instanceof emptyproto.Empty)) {
    throw new Error(`the replay cannot read the answer of ${method}: extend responseJson`);
  }
  return json;
}

/** A failed call as the engine logs it: `rpc error: code = <Code> desc = <message>`. */
export function errorText(error: grpc.ServiceError): string {
  const name = (grpc.status[error.code] ?? String(error.code)).toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
  return `rpc error: code = ${name} desc = ${error.details}`;
}

function enumName(table: object, value: number): string | undefined {
  return Object.entries(table).find(([, v]) => v === value)?.[0];
}

const PLACEHOLDER = /^\{\{[^}]+\}\}$/;
const CLOCK_FIELDS = new Set(["createdAt", "updatedAt"]);

/**
 * Where `actual` differs from `recorded` under the normaliser (empty: they match); binds the placeholders it meets.
 * Placeholders inside longer text (a URL in a message) are replaced by their bound values first.
 */
export function differences(recorded: unknown, actual: unknown, bindings: Map<string, string>, path = "", key = ""): string[] {
  if (typeof recorded === "string" && PLACEHOLDER.test(recorded)) {
    if (typeof actual !== "string") return [`${path}: expected text for ${recorded}, got ${JSON.stringify(actual)}`];
    const bound = bindings.get(recorded);
    if (bound === undefined) {
      bindings.set(recorded, actual);
      return [];
    }
    return bound === actual ? [] : [`${path}: ${recorded} is ${JSON.stringify(bound)} but the answer has ${JSON.stringify(actual)}`];
  }
  if (typeof recorded === "string" && recorded.includes("{{")) recorded = substitute(recorded, bindings);
  if (CLOCK_FIELDS.has(key) && typeof recorded === "number")
    return typeof actual === "number" ? [] : [`${path}: expected a time, got ${JSON.stringify(actual)}`];
  if (Array.isArray(recorded)) {
    if (!Array.isArray(actual) || actual.length !== recorded.length) return [`${path}: expected ${JSON.stringify(recorded)}, got ${JSON.stringify(actual)}`];
    return recorded.flatMap((item, i) => differences(item, actual[i], bindings, `${path}[${i}]`));
  }
  if (recorded !== null && typeof recorded === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    const keys = new Set([...Object.keys(recorded), ...Object.keys(actual)]);
    return [...keys].flatMap((k) => differences((recorded as Json)[k], (actual as Json)[k], bindings, `${path}.${k}`, k));
  }
  return recorded === actual ? [] : [`${path}: expected ${JSON.stringify(recorded)}, got ${JSON.stringify(actual)}`];
}

/** `value` with every bound placeholder replaced by its value (a request about to be sent). */
export function substitute<T>(value: T, bindings: Map<string, string>): T {
  if (typeof value === "string") {
    let text: string = value;
    for (const [placeholder, bound] of bindings) text = text.split(placeholder).join(bound);
    return text as T;
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, bindings)) as T;
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, bindings)])) as T;
  return value;
}
