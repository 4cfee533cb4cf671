/**
 * The native plugin `pulumi-resource-svc`: Pulumi's provider protocol over gRPC, served the way Pulumi's own
 * dynamic-provider host serves it (the generated stubs inside @pulumi/pulumi), on the same handlers the dynamic
 * provider runs (provider/runtime/handlers.ts). One process serves a whole operation, so the runtime is
 * loaded once, not once per `pulumi` command step.
 *
 * Beyond the dynamic host: CheckConfig and DiffConfig (an account change replaces), Configure with its arguments,
 * a detailed diff, Read without properties (`pulumi import`), secrets in and out (acceptSecrets), and Cancel.
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import * as anyproto from "google-protobuf/google/protobuf/any_pb";
import type { CheckFailure } from "../provider/core/check";
import { SETTINGS } from "../provider/core/connection";
import type { ConnectionInput } from "../provider/core/connectionInput";
import { PartialCreateError } from "../provider/core/errors";
import { isUnknown, UNKNOWN } from "../provider/core/unknowns";
import { fieldsOf, type ResourceDefinition } from "../provider/definitions/define";
import { isResourceType, type ResourceType } from "../provider/generated/fieldTable";
import { type DefinitionHandlers, handlersFor } from "../provider/runtime/handlers";
import { FunctionInvoker } from "./invoke";
import { keyPaths, type PropertyPath, type Props, secretPaths, unwrapSecrets, wrapSecretPaths } from "./properties";
import type { DiagnosticsSink } from "../provider/core/operationLog";
import { ProviderProcess } from "../provider/core/providerProcess";
import { withDiagnostics } from "./engineLog";
import { packageSchema } from "./schema";
import { typeNameOf, typeToken } from "../provider/resources/typeToken";
import { lookupOf, secretSettings, settingsFailures } from "./settings";

type Callback<T> = (error: grpc.ServiceError | Partial<grpc.StatusObject> | null, value?: T | null, metadata?: grpc.Metadata) => void;
type Call<T> = { request: T };

interface Resource {
  definition: ResourceDefinition;
  handlers: DefinitionHandlers<Props, Props>;
  secrets: string[];
  secretInputs: string[];
  /** The outputs that are not inputs: unknown in a preview of a create. */
  outputOnly: string[];
}

/** The account a provider reaches: a change of it replaces the provider and, with it, its resources. */
const ACCOUNT_KEYS = ["baseUrl", "partnerId"] as const;

export class SvcProviderServer {
  /** The resources this plugin serves, by type name: a key of the generated field table (one per definition). */
  private readonly resources: { [T in ResourceType]?: Resource } = {};
  /** The package schema as GetSchema sends it: made at the first GetSchema (most operations never ask for it). */
  private schemaText?: string;
  private readonly invoker: FunctionInvoker;
  private readonly definitions: readonly ResourceDefinition[];

  constructor(
    definitions: readonly ResourceDefinition[],
    private readonly version: string,
    /** Where operations report retries, recoveries and slow calls (the engine's log service); none in unit tests. */
    private readonly diagnostics?: DiagnosticsSink,
    /** What this server's operations share (clients, Cancel, ledger, diagnostics scope): one per server. */
    readonly session: ProviderProcess = new ProviderProcess(),
  ) {
    this.invoker = new FunctionInvoker(session);
    for (const definition of definitions) {
      if (!isResourceType(definition.type))
        throw new Error(`${definition.type} is not a resource of the package (its generated field table); the plugin serves those`);
      const fields = fieldsOf(definition);
      // Deletes of a replaced provider's resources go through the old provider process, which keeps the old account.
      this.resources[definition.type] = {
        definition,
        handlers: handlersFor(definition, session, "replace"),
        secrets: fields.secrets,
        secretInputs: fields.secretInputs,
        outputOnly: fields.outputKeys.filter((key) => !fields.inputKeys.includes(key)),
      };
    }
    this.definitions = definitions;
  }

  /** The service implementation for grpc-js: every method of the protocol (the stubs' own type), bound to this server. */
  service(): IResourceProviderServer {
    const unimplemented = (what: string) => (_call: unknown, callback: (error: Partial<grpc.StatusObject>) => void) =>
      callback({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by pulumi-resource-svc` });
    return {
      handshake: unimplemented("Handshake"),
      parameterize: unimplemented("Parameterize"),
      getSchema: this.getSchema.bind(this),
      checkConfig: this.checkConfig.bind(this),
      diffConfig: this.diffConfig.bind(this),
      configure: this.configure.bind(this),
      invoke: this.invoke.bind(this),
      call: unimplemented("Call"),
      check: withDiagnostics(this.session.diagnostics, this.diagnostics, "check", this.check.bind(this)),
      diff: withDiagnostics(this.session.diagnostics, this.diagnostics, "diff", this.diff.bind(this)),
      create: withDiagnostics(this.session.diagnostics, this.diagnostics, "create", this.create.bind(this)),
      read: withDiagnostics(this.session.diagnostics, this.diagnostics, "read", this.read.bind(this)),
      list: (call: { emit(event: string, error: unknown): void }) =>
        call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),
      update: withDiagnostics(this.session.diagnostics, this.diagnostics, "update", this.update.bind(this)),
      delete: withDiagnostics(this.session.diagnostics, this.diagnostics, "delete", this.delete.bind(this)),
      construct: unimplemented("Construct"),
      cancel: this.cancel.bind(this),
      getPluginInfo: this.getPluginInfo.bind(this),
      attach: unimplemented("Attach"),
      getMapping: unimplemented("GetMapping"),
      getMappings: unimplemented("GetMappings"),
    };
  }

  getPluginInfo(_call: unknown, callback: Callback<plugproto.PluginInfo>): void {
    callback(null, new plugproto.PluginInfo().setVersion(this.version));
  }

  getSchema(_call: unknown, callback: Callback<provproto.GetSchemaResponse>): void {
    this.schemaText ??= JSON.stringify(packageSchema(this.definitions, this.version));
    callback(null, new provproto.GetSchemaResponse().setSchema(this.schemaText));
  }

  /** The provider's settings are checked before any resource runs: `pulumi preview` reports missing credentials. */
  checkConfig(call: Call<provproto.CheckRequest>, callback: Callback<provproto.CheckResponse>): void {
    respond(callback, async () => {
      const raw = call.request.getNews()?.toJavaScript() ?? {};
      const cameAsSecret = secretPaths(raw);
      const failures = settingsFailures(unwrapSecrets(raw) as Props, new Set(cameAsSecret.map((path) => String(path[0]))));
      const inputs = wrapSecretPaths(unwrapSecrets(raw) as Props, [...keyPaths(secretSettings()), ...cameAsSecret]);
      const response = new provproto.CheckResponse().setInputs(toStruct(inputs));
      return response.setFailuresList(failures.map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason)));
    });
  }

  /** A change of account (base URL or partner id) replaces the provider; credentials alone update it in place. */
  diffConfig(call: Call<provproto.DiffRequest>, callback: Callback<provproto.DiffResponse>): void {
    respond(callback, async () => {
      const olds = unwrapSecrets(call.request.getOldInputs()?.toJavaScript() ?? call.request.getOlds()?.toJavaScript() ?? {}) as Props;
      const news = unwrapSecrets(call.request.getNews()?.toJavaScript() ?? {}) as Props;
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((key) => key in SETTINGS);
      const changed = keys.filter((key) => isUnknown(news[key]) || String(olds[key] ?? "") !== String(news[key] ?? ""));
      // Only an account the old config named can have moved: old inputs without one (the environment gave it, or the
      // old provider was the dynamic providers' host, as in a move to the plugin) leave it to each resource's diff,
      // which compares the partner in its state with the one the new config reaches.
      const replaces = changed.filter((key) => (ACCOUNT_KEYS as readonly string[]).includes(key) && String(olds[key] ?? "") !== "");
      return diffResponse(changed, replaces, false);
    });
  }

  configure(call: Call<provproto.ConfigureRequest>, callback: Callback<provproto.ConfigureResponse>): void {
    respond(callback, async () => {
      const args = unwrapSecrets(call.request.getArgs()?.toJavaScript() ?? {}) as Props;
      // Without args (older engines), the variables map holds the stack config as "svc:config:<name>".
      if (Object.keys(args).length === 0) {
        for (const [key, value] of call.request.getVariablesMap().entries()) {
          const name = key.replace(/^svc:config:/, "").replace(/^svc:/, "");
          if (name in SETTINGS) args[name] = value;
        }
      }
      // The same checks as CheckConfig: a peer that skips it gets the reason here, before any resource runs.
      const failures = settingsFailures(args);
      if (failures.length > 0) throw new Error(`invalid provider configuration: ${failures.map((f) => f.reason).join("; ")}`);
      this.session.configure({ get: (key) => lookupOf(args)(key) });
      return new provproto.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(false).setAcceptresources(false).setAcceptoutputs(false);
    });
  }

  /** A provider function (getAppToken, ...): plugin/invoke.ts. */
  invoke(call: Call<provproto.InvokeRequest>, callback: Callback<provproto.InvokeResponse>): void {
    const unknown = this.invoker.unknown(call.request.getTok());
    if (unknown) {
      callback({ code: grpc.status.UNIMPLEMENTED, details: unknown });
      return;
    }
    respond(callback, () => this.invoker.invoke(call.request));
  }

  check(call: Call<provproto.CheckRequest>, callback: Callback<provproto.CheckResponse>): void {
    respond(callback, async () => {
      const resource = this.resourceOf(call.request.getUrn(), call.request.getType());
      const rawNews = call.request.getNews()?.toJavaScript() ?? {};
      const olds = unwrapSecrets(call.request.getOlds()?.toJavaScript() ?? {}) as Props;
      const result = await resource.handlers.check(olds, unwrapSecrets(rawNews) as Props);
      const paths = secretPaths(rawNews);
      const inputs = wrapSecretPaths(result.inputs, [...keyPaths(resource.secretInputs), ...paths]);
      const response = new provproto.CheckResponse().setInputs(toStruct(inputs));
      const failures = result.failures.map((f) => withoutSecretProperty(f, paths));
      return response.setFailuresList(failures.map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason)));
    });
  }

  diff(call: Call<provproto.DiffRequest>, callback: Callback<provproto.DiffResponse>): void {
    respond(callback, async () => {
      const resource = this.resourceOf(call.request.getUrn(), call.request.getType());
      const olds = unwrapSecrets(call.request.getOlds()?.toJavaScript() ?? {}) as Props;
      const news = unwrapSecrets(call.request.getNews()?.toJavaScript() ?? {}) as Props;
      const outcome = await resource.handlers.diff(call.request.getId(), olds, news);
      return diffResponse(outcome.changed ?? [], outcome.replaces, outcome.deleteBeforeReplace === true);
    });
  }

  create(call: Call<provproto.CreateRequest>, callback: Callback<provproto.CreateResponse>): void {
    respond(callback, async () => {
      const resource = this.resourceOf(call.request.getUrn(), call.request.getType());
      const raw = call.request.getProperties()?.toJavaScript() ?? {};
      const secrets = [...keyPaths(resource.secrets), ...secretPaths(raw)];
      const inputs = await checkedInputs(resource, "Create", {}, unwrapSecrets(raw) as Props);
      // A preview (only asked of plugins that say they support it): what the create would give, with no call made.
      if (call.request.getPreview()) {
        const outs = { ...inputs, ...Object.fromEntries(resource.outputOnly.map((key) => [key, UNKNOWN])) };
        return new provproto.CreateResponse().setId("").setProperties(toStruct(wrapSecretPaths(outs, secrets)));
      }
      try {
        const { id, outs } = await resource.handlers.create(inputs);
        return new provproto.CreateResponse().setId(id).setProperties(toStruct(wrapSecretPaths(outs, secrets)));
      } catch (error) {
        throw error instanceof PartialCreateError ? partialFailure(error, wrapSecretPaths(error.properties, secrets)) : error;
      }
    });
  }

  /** Refresh, and `pulumi import` (no properties: the definition reads the object and the inputs that reproduce it). */
  read(call: Call<provproto.ReadRequest>, callback: Callback<provproto.ReadResponse>): void {
    respond(callback, async () => {
      const resource = this.resourceOf(call.request.getUrn(), call.request.getType());
      const id = requireId(resource, "Read", call.request.getId());
      const raw = call.request.getProperties()?.toJavaScript() ?? {};
      const rawInputs = call.request.getInputs()?.toJavaScript() ?? {};
      const props = unwrapSecrets(raw) as Props;
      const result = await resource.handlers.read(id, props);
      // Read by id alone (`pulumi import`, or .get): say which account was searched, not the engine's bare "does not exist".
      if (!result.id && Object.keys(props).length === 0)
        throw notFound(resource.definition, id, this.session.accountNameOf(props.connection as ConnectionInput | undefined));
      const response = new provproto.ReadResponse().setId(result.id);
      if (!result.id || !result.props) return response;
      // A secret of the state or of the inputs stays one in both: read maps outputs back onto inputs.
      const secrets = [...keyPaths(resource.secrets), ...secretPaths(raw), ...secretPaths(rawInputs)];
      response.setProperties(toStruct(wrapSecretPaths(result.props, secrets)));
      return response.setInputs(toStruct(wrapSecretPaths(result.inputs ?? {}, secrets)));
    });
  }

  update(call: Call<provproto.UpdateRequest>, callback: Callback<provproto.UpdateResponse>): void {
    respond(callback, async () => {
      const resource = this.resourceOf(call.request.getUrn(), call.request.getType());
      const id = requireId(resource, "Update", call.request.getId());
      const rawNews = call.request.getNews()?.toJavaScript() ?? {};
      const olds = unwrapSecrets(call.request.getOlds()?.toJavaScript() ?? {}) as Props;
      const oldInputs = unwrapSecrets(call.request.getOldInputs()?.toJavaScript() ?? olds) as Props;
      const news = await checkedInputs(resource, "Update", oldInputs, unwrapSecrets(rawNews) as Props);
      const secrets = [...keyPaths(resource.secrets), ...secretPaths(rawNews)];
      // A preview: the state as it is, with the new inputs; no call made.
      if (call.request.getPreview()) return new provproto.UpdateResponse().setProperties(toStruct(wrapSecretPaths({ ...olds, ...news }, secrets)));
      const { outs } = await resource.handlers.update(id, olds, news);
      return new provproto.UpdateResponse().setProperties(toStruct(wrapSecretPaths(outs, secrets)));
    });
  }

  delete(call: Call<provproto.DeleteRequest>, callback: Callback<emptyproto.Empty>): void {
    respond(callback, async () => {
      const resource = this.resourceOf(call.request.getUrn(), call.request.getType());
      await resource.handlers.delete(
        requireId(resource, "Delete", call.request.getId()),
        unwrapSecrets(call.request.getProperties()?.toJavaScript() ?? {}) as Props,
      );
      return new emptyproto.Empty();
    });
  }

  /**
   * The engine's first Ctrl-C (cancellation): it starts no new step but still waits for the answers of those in
   * flight and records them. Operations are aborted; a create whose request was already sent looks up what it made
   * and reports it as a partial create (provider/core/recovery.ts), so the engine records the object.
   */
  cancel(_call: unknown, callback: Callback<emptyproto.Empty>): void {
    this.session.cancel();
    callback(null, new emptyproto.Empty());
  }

  /** The resource a request is about: its type token (or its URN's), as a type name of the registry. */
  private resourceOf(urn: string, type?: string): Resource {
    // URN: urn:pulumi:<stack>::<project>::<parent types$>type::<name>
    const token = type || (urn.split("::")[2] ?? "").split("$").pop() || "";
    const name = typeNameOf(token);
    const resource = name !== undefined && isResourceType(name) ? this.resources[name] : undefined;
    if (!resource) throw new Error(`unknown resource type ${token}; this plugin serves ${Object.keys(this.resources).map(typeToken).join(", ")}`);
    return resource;
  }
}

/** `where`: the account by its host (a baseUrl may carry user:password@, which never goes into a message). */
function notFound(definition: ResourceDefinition, id: string, where: string): Error {
  return new Error(
    `${definition.type} ${JSON.stringify(id)} was not found in ${where} (or it is deleted); check the id (${definition.idDescription}) and the stack's svc:baseUrl and svc:partnerId; nothing was read`,
  );
}

/** The id of a request that names one object; an empty one is refused, naming the method, before any call. */
function requireId(resource: Resource, method: string, id: string): string {
  if (id === "")
    throw new Error(`${method} of ${typeToken(resource.definition.type)}: id is required (${resource.definition.idDescription}); nothing was called`);
  return id;
}

/**
 * The inputs of a Create or Update, checked as Check checks them: the engine only sends checked inputs, but a
 * request that is not (a peer's, a replay's) is refused naming the fields before any call to the platform.
 */
async function checkedInputs(resource: Resource, method: string, olds: Props, news: Props): Promise<Props> {
  const { inputs, failures } = await resource.handlers.check(olds, news);
  if (failures.length === 0) return inputs;
  throw new Error(`${method} of ${typeToken(resource.definition.type)} refused before any call: ${failures.map((f) => f.reason).join("; ")}`);
}

/**
 * The engine prints a failure's property value beside its reason: a property that holds a secret anywhere is
 * reported without it (the reason names the field, never the value).
 */
function withoutSecretProperty(failure: CheckFailure, secrets: readonly PropertyPath[]): CheckFailure {
  return secrets.some((path) => path[0] === failure.property) ? { ...failure, property: "" } : failure;
}

function toStruct(value: Props): structproto.Struct {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Record<string, structproto.JavaScriptValue>);
}

function diffResponse(changed: string[], replaces: string[], deleteBeforeReplace: boolean): provproto.DiffResponse {
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

/** A create that made an object and could not finish: the engine records it (id and properties) as a partial failure. */
function partialFailure(error: PartialCreateError, properties: Props): grpc.ServiceError {
  const detail = new provproto.ErrorResourceInitFailed().setId(error.id).setProperties(toStruct(properties)).setReasonsList(error.reasons);
  const details = new anyproto.Any();
  details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusproto.Status().setCode(grpc.status.UNKNOWN).setMessage(error.message).setDetailsList([details]);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return Object.assign(new Error(error.message), { code: grpc.status.UNKNOWN, details: error.message, metadata }) as grpc.ServiceError;
}

/** Runs a handler and answers; errors go back with their (already redacted) message, never with inputs. */
function respond<T>(callback: Callback<T>, run: () => Promise<T>): void {
  run().then(
    (value) => callback(null, value),
    (error: unknown) => {
      if (isServiceError(error)) return callback(error, null, error.metadata);
      const message = error instanceof Error ? error.message : String(error);
      callback({ code: grpc.status.UNKNOWN, details: message, message } as Partial<grpc.StatusObject>);
    },
  );
}

function isServiceError(error: unknown): error is grpc.ServiceError {
  return error instanceof Error && "metadata" in error && (error as grpc.ServiceError).metadata instanceof grpc.Metadata;
}
