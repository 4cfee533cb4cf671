/**
 * The native plugin `pulumi-resource-svc`: Pulumi's provider protocol over gRPC, served the way Pulumi's own
 * dynamic-provider host serves it (the generated stubs inside @pulumi/pulumi), on the same handlers the dynamic
 * provider runs (provider/runtime/handlers.ts). One process serves a whole operation, so the runtime is
 * loaded once, not once per `pulumi` command step.
 *
 * Beyond the dynamic host: CheckConfig and DiffConfig (an account change replaces), Configure with its arguments,
 * a detailed diff, Read without properties (`pulumi import`), secrets in and out (acceptSecrets), and Cancel.
 */
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { choiceOf } from "../provider/core/namedAccounts";
import { PartialCreateError } from "../provider/core/errors";
import type { DiagnosticsSink } from "../provider/core/operationLog";
import type { ProviderProcessCore } from "../provider/core/providerProcessCore";
import { isUnknown, UNKNOWN } from "../provider/core/unknowns";
import { checkFailures, diffResponse, partialFailure, respond, toStruct, unimplemented, withoutSecretProperty } from "./answers";
import { withDiagnostics } from "./engineLog";
import { keyPaths, type Props, registerSecretTexts, secretPaths, unwrapSecrets, wrapSecretPaths } from "./properties";
import type { ProviderHandlers, Reply } from "./providerMethods";
import { DIFF_FIELDS, plainStruct, READ_FIELDS } from "./plainRequests";
import type { ResourceRuntime } from "./resourceRuntime";
import { isProviderSetting, lookupOf, secretSettings, settingsFailures } from "./settings";
import { servesAccountOf, settingText } from "./accountMoves";
import { sameValue } from "../provider/core/diff";

type Call<T> = { request: T };

/**
 * How a server gets its resource runtime (the definitions, their handlers, the functions, the schema): called once,
 * at the first request about a resource. The plugin's main requires it then (a process that has answered only
 * Configure has not evaluated it); SvcProviderServer (server.ts) builds it at once.
 */
export type RuntimeLoader = (session: ProviderProcessCore, version: string) => ResourceRuntime;

/** The account a provider reaches: a change of it replaces the provider and, with it, its resources. */
const ACCOUNT_KEYS = ["baseUrl", "partnerId"] as const;

export class ProviderServer {
  private loadedRuntime?: ResourceRuntime;

  constructor(
    private readonly loadRuntime: RuntimeLoader,
    private readonly version: string,
    /** Where operations report retries, recoveries and slow calls (the engine's log service); none in unit tests. */
    private readonly diagnostics: DiagnosticsSink | undefined,
    /** What this server's operations share (clients, Cancel, ledger, diagnostics scope): one per server. */
    readonly session: ProviderProcessCore,
  ) {}

  /** The resource runtime, loaded once, at the first request that needs it. */
  protected runtime(): ResourceRuntime {
    this.loadedRuntime ??= this.loadRuntime(this.session, this.version);
    return this.loadedRuntime;
  }

  /** Every method of the protocol (typed from the stubs' IResourceProviderServer), bound to this server. */
  service(): ProviderHandlers {
    const unserved = (what: string) => (_call: unknown, reply: Reply<never>) => reply(notServed(what));
    return {
      handshake: unserved("Handshake"),
      parameterize: unserved("Parameterize"),
      getSchema: this.getSchema.bind(this),
      checkConfig: this.checkConfig.bind(this),
      diffConfig: this.diffConfig.bind(this),
      configure: this.configure.bind(this),
      invoke: this.invoke.bind(this),
      call: unserved("Call"),
      check: withDiagnostics(this.session.diagnostics, this.diagnostics, "check", this.check.bind(this)),
      diff: withDiagnostics(this.session.diagnostics, this.diagnostics, "diff", this.diff.bind(this)),
      create: withDiagnostics(this.session.diagnostics, this.diagnostics, "create", this.create.bind(this)),
      read: withDiagnostics(this.session.diagnostics, this.diagnostics, "read", this.read.bind(this)),
      list: (_call, reply) => reply(unimplemented("List is not implemented")),
      update: withDiagnostics(this.session.diagnostics, this.diagnostics, "update", this.update.bind(this)),
      delete: withDiagnostics(this.session.diagnostics, this.diagnostics, "delete", this.delete.bind(this)),
      construct: unserved("Construct"),
      cancel: this.cancel.bind(this),
      getPluginInfo: this.getPluginInfo.bind(this),
      attach: unserved("Attach"),
      getMapping: unserved("GetMapping"),
      getMappings: unserved("GetMappings"),
    };
  }

  getPluginInfo(_call: unknown, reply: Reply<plugproto.PluginInfo>): void {
    reply(null, new plugproto.PluginInfo().setVersion(this.version));
  }

  getSchema(_call: unknown, reply: Reply<provproto.GetSchemaResponse>): void {
    reply(null, new provproto.GetSchemaResponse().setSchema(this.runtime().schema()));
  }

  /** The provider's settings are checked before any resource runs: `pulumi preview` reports missing credentials. */
  checkConfig(call: Call<provproto.CheckRequest>, reply: Reply<provproto.CheckResponse>): void {
    respond(reply, async () => {
      const raw = call.request.getNews()?.toJavaScript() ?? {};
      const cameAsSecret = secretPaths(raw);
      const failures = settingsFailures(unwrapSecrets(raw) as Props, new Set(cameAsSecret.map((path) => String(path[0]))));
      const inputs = wrapSecretPaths(unwrapSecrets(raw) as Props, [...keyPaths(secretSettings()), ...cameAsSecret]);
      const response = new provproto.CheckResponse().setInputs(toStruct(inputs));
      return response.setFailuresList(checkFailures(failures));
    });
  }

  /** A change of account (base URL or partner id) replaces the provider; credentials alone update it in place. */
  diffConfig(call: Call<provproto.DiffRequest>, reply: Reply<provproto.DiffResponse>): void {
    respond(reply, async () => {
      const olds = unwrapSecrets(call.request.getOldInputs()?.toJavaScript() ?? call.request.getOlds()?.toJavaScript() ?? {}) as Props;
      const news = unwrapSecrets(call.request.getNews()?.toJavaScript() ?? {}) as Props;
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(isProviderSetting);
      const changed = keys.filter((key) => isUnknown(news[key]) || !sameValue(settingText(olds[key]), settingText(news[key])));
      // Only an account the old config named can have moved: old inputs without one (the environment gave it, or the
      // old provider was the dynamic providers' host, as in a move to the plugin) leave it to each resource's diff,
      // which compares the partner in its state with the one the new config reaches.
      const moved = changed.filter((key) => (ACCOUNT_KEYS as readonly string[]).includes(key) && String(olds[key] ?? "") !== "");
      // The engine asks this too when a resource moves to this provider from another (an explicit provider of one
      // account, moving to named accounts): an old account this provider still serves, as its own or by name (same
      // partner and base URL), is no move; each resource's diff then holds its state's partner to where it now goes.
      const replaces = moved.length > 0 && !servesAccountOf(olds, news) ? moved : [];
      return diffResponse(changed, replaces, false);
    });
  }

  configure(call: Call<provproto.ConfigureRequest>, reply: Reply<provproto.ConfigureResponse>): void {
    respond(reply, async () => {
      const args = unwrapSecrets(call.request.getArgs()?.toJavaScript() ?? {}) as Props;
      // Without args (older engines), the variables map holds the stack config as "svc:config:<name>".
      if (Object.keys(args).length === 0) {
        for (const [key, value] of call.request.getVariablesMap().entries()) {
          const name = key.replace(/^svc:config:/, "").replace(/^svc:/, "");
          if (isProviderSetting(name)) args[name] = value;
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
  invoke(call: Call<provproto.InvokeRequest>, reply: Reply<provproto.InvokeResponse>): void {
    const unknown = this.runtime().invoker.unknown(call.request.getTok());
    if (unknown) {
      reply(unimplemented(unknown));
      return;
    }
    respond(reply, () => this.runtime().invoker.invoke(call.request));
  }

  check(call: Call<provproto.CheckRequest>, reply: Reply<provproto.CheckResponse>): void {
    respond(reply, async () => {
      const { resources } = this.runtime();
      const resource = resources.of(call.request.getUrn(), call.request.getType());
      const rawNews = call.request.getNews()?.toJavaScript() ?? {};
      const olds = unwrapSecrets(call.request.getOlds()?.toJavaScript() ?? {}) as Props;
      const result = await resource.handlers.check(olds, unwrapSecrets(rawNews) as Props);
      const paths = secretPaths(rawNews);
      const inputs = wrapSecretPaths(result.inputs, [...keyPaths(resource.secretInputs), ...paths]);
      const response = new provproto.CheckResponse().setInputs(toStruct(inputs));
      const failures = result.failures.map((f) => withoutSecretProperty(f, paths));
      return response.setFailuresList(checkFailures(failures));
    });
  }

  diff(call: Call<provproto.DiffRequest>, reply: Reply<provproto.DiffResponse>): void {
    respond(reply, async () => {
      const { resources } = this.runtime();
      const resource = resources.of(call.request.getUrn(), call.request.getType());
      const olds = unwrapSecrets(plainStruct(call.request, DIFF_FIELDS.olds, () => call.request.getOlds())) as Props;
      const news = unwrapSecrets(plainStruct(call.request, DIFF_FIELDS.news, () => call.request.getNews())) as Props;
      const outcome = await resource.handlers.diff(call.request.getId(), olds, news);
      return diffResponse(outcome.changed ?? [], outcome.replaces, outcome.deleteBeforeReplace === true);
    });
  }

  create(call: Call<provproto.CreateRequest>, reply: Reply<provproto.CreateResponse>): void {
    respond(reply, async () => {
      const { resources } = this.runtime();
      const resource = resources.of(call.request.getUrn(), call.request.getType());
      const raw = call.request.getProperties()?.toJavaScript() ?? {};
      const secrets = [...keyPaths(resource.secrets), ...secretPaths(raw)];
      registerSecretTexts(raw);
      const inputs = await resources.checkedInputs(resource, "Create", {}, unwrapSecrets(raw) as Props);
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
  read(call: Call<provproto.ReadRequest>, reply: Reply<provproto.ReadResponse>): void {
    respond(reply, async () => {
      const { resources } = this.runtime();
      const resource = resources.of(call.request.getUrn(), call.request.getType());
      const id = resources.requireId(resource, "Read", call.request.getId());
      const raw = plainStruct(call.request, READ_FIELDS.properties, () => call.request.getProperties());
      const rawInputs = plainStruct(call.request, READ_FIELDS.inputs, () => call.request.getInputs());
      const props = unwrapSecrets(raw) as Props;
      const result = await resource.handlers.read(id, props);
      // Read by id alone (`pulumi import`, or .get): say which account was searched, not the engine's bare "does not exist".
      if (!result.id && Object.keys(props).length === 0) throw resources.notFound(resource.definition, id, this.session.accountNameOf(choiceOf(props)));
      const response = new provproto.ReadResponse().setId(result.id);
      if (!result.id || !result.props) return response;
      // A secret of the state or of the inputs stays one in both: read maps outputs back onto inputs.
      const secrets = [...keyPaths(resource.secrets), ...secretPaths(raw), ...secretPaths(rawInputs)];
      response.setProperties(toStruct(wrapSecretPaths(result.props, secrets)));
      return response.setInputs(toStruct(wrapSecretPaths(result.inputs ?? {}, secrets)));
    });
  }

  update(call: Call<provproto.UpdateRequest>, reply: Reply<provproto.UpdateResponse>): void {
    respond(reply, async () => {
      const { resources } = this.runtime();
      const resource = resources.of(call.request.getUrn(), call.request.getType());
      const id = resources.requireId(resource, "Update", call.request.getId());
      const rawNews = call.request.getNews()?.toJavaScript() ?? {};
      registerSecretTexts(rawNews);
      const olds = unwrapSecrets(call.request.getOlds()?.toJavaScript() ?? {}) as Props;
      const oldInputs = unwrapSecrets(call.request.getOldInputs()?.toJavaScript() ?? olds) as Props;
      const news = await resources.checkedInputs(resource, "Update", oldInputs, unwrapSecrets(rawNews) as Props);
      const secrets = [...keyPaths(resource.secrets), ...secretPaths(rawNews)];
      // A preview: the state as it is, with the new inputs; no call made.
      if (call.request.getPreview()) return new provproto.UpdateResponse().setProperties(toStruct(wrapSecretPaths({ ...olds, ...news }, secrets)));
      const { outs } = await resource.handlers.update(id, olds, news);
      return new provproto.UpdateResponse().setProperties(toStruct(wrapSecretPaths(outs, secrets)));
    });
  }

  delete(call: Call<provproto.DeleteRequest>, reply: Reply<emptyproto.Empty>): void {
    respond(reply, async () => {
      const { resources } = this.runtime();
      const resource = resources.of(call.request.getUrn(), call.request.getType());
      await resource.handlers.delete(
        resources.requireId(resource, "Delete", call.request.getId()),
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
  cancel(_call: unknown, reply: Reply<emptyproto.Empty>): void {
    this.session.cancel();
    reply(null, new emptyproto.Empty());
  }
}

/** A method of the protocol the plugin does not serve. */
function notServed(what: string) {
  return unimplemented(`${what} is not implemented by pulumi-resource-svc`);
}
