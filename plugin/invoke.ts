/**
 * The plugin's Invoke: a provider function (provider/definitions, FUNCTIONS) called by its token
 * `svc:index:<name>`. Arguments are checked against the definition before any API call; the result's secret fields
 * (the schema's `secret: true` outputs) go back wrapped as secrets, and every field does when an argument came as a
 * secret, so a program's secret never comes back in plain text, nor in a failure's message.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { ProviderProcessCore } from "../provider/core/providerProcessCore";
import { FUNCTIONS } from "../provider/definitions";
import { checkArguments, type FunctionDefinition, secretResults } from "../provider/definitions/defineFunction";
import { keyPaths, type Props, secretPaths, secretTexts, unwrapSecrets, withoutSecretTexts, wrapSecretPaths } from "./properties";
import { typeToken } from "../provider/resources/typeToken";

export class FunctionInvoker {
  private readonly functions: Map<string, FunctionDefinition>;

  /** `session`: the plugin server's, whose clients and Cancel the lookups use. */
  constructor(
    private readonly session: ProviderProcessCore,
    functions: readonly FunctionDefinition[] = FUNCTIONS,
  ) {
    this.functions = new Map(functions.map((definition) => [typeToken(definition.name), definition]));
  }

  /** Why `token` cannot be invoked (the plugin answers UNIMPLEMENTED with it), or undefined when it is served. */
  unknown(token: string): string | undefined {
    return this.functions.has(token) ? undefined : `unknown function ${token}; this plugin serves ${[...this.functions.keys()].join(", ")}`;
  }

  async invoke(request: provproto.InvokeRequest): Promise<provproto.InvokeResponse> {
    const token = request.getTok();
    const definition = this.functions.get(token);
    if (!definition) throw new Error(this.unknown(token));
    const raw = (request.getArgs()?.toJavaScript() ?? {}) as Props;
    const { account, ...args } = checkArguments(definition, unwrapSecrets(raw) as Props);
    // The account searched: a named one (`account`), or the provider's own; an unknown name fails before any call.
    const ctx = this.session.contextOfChoice(typeof account === "string" ? { account } : {});
    // A failure may quote an argument ("not found: <id>"): one that came as a secret is hidden.
    const result = (await definition.invoke(ctx, args).catch((error: unknown) => {
      throw withoutSecretTexts(error, secretTexts(raw));
    })) as Props;
    // A secret argument, at any depth, makes the whole result secret: which field it went into is not known.
    const secrets = secretPaths(raw).length > 0 ? Object.keys(result) : secretResults(definition);
    const plainResult = JSON.parse(JSON.stringify(result)) as Props;
    const wrapped = wrapSecretPaths(plainResult, keyPaths(secrets)) as Record<string, structproto.JavaScriptValue>;
    return new provproto.InvokeResponse().setReturn(structproto.Struct.fromJavaScript(wrapped));
  }
}
