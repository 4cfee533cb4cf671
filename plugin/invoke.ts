/**
 * The plugin's Invoke: a provider function (provider/definitions, FUNCTIONS) called by its token
 * `svc:index:<name>`. Arguments are checked against the definition before any API call; the result's secret fields
 * (the schema's `secret: true` outputs) go back wrapped as secrets, and every field does when an argument came as a
 * secret, so a program's secret never comes back in plain text.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { FUNCTIONS } from "../provider/definitions";
import { checkArguments, type FunctionDefinition, secretResults } from "../provider/definitions/defineFunction";
import { type Props, secretKeys, unwrapSecrets, wrapSecrets } from "./properties";
import { typeToken } from "./schema";

export class FunctionInvoker {
  private readonly functions: Map<string, FunctionDefinition>;

  constructor(functions: readonly FunctionDefinition[] = FUNCTIONS) {
    this.functions = new Map(functions.map((definition) => [typeToken(definition.name), definition]));
  }

  async invoke(request: provproto.InvokeRequest): Promise<provproto.InvokeResponse> {
    const token = request.getTok();
    const definition = this.functions.get(token);
    if (!definition) throw new Error(`unknown function ${token}; this plugin serves ${[...this.functions.keys()].join(", ")}`);
    const raw = (request.getArgs()?.toJavaScript() ?? {}) as Props;
    const args = checkArguments(definition, unwrapSecrets(raw) as Props);
    const result = (await definition.invoke(args)) as Props;
    const secrets = secretKeys(raw).length > 0 ? Object.keys(result) : secretResults(definition);
    const wrapped = JSON.parse(JSON.stringify(wrapSecrets(result, secrets))) as Record<string, structproto.JavaScriptValue>;
    return new provproto.InvokeResponse().setReturn(structproto.Struct.fromJavaScript(wrapped));
  }
}
