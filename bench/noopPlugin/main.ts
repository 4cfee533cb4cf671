/**
 * The native plugin's floor: the same gRPC server as pulumi-resource-svc (plugin/server.ts, the same schema, check,
 * diff and configuration), with an AppToken whose create, read, update and delete make no call and do no work (its
 * state records no partner, so the account guard of diff has nothing to compare), so
 * `up` of N of them measures the engine, the language host and the plugin's own serving, without the platform.
 * The bench bundles it into a temp folder beside a copy of the plugin's launcher (bench/noopPluginBuild.ts).
 */
import { DEFINITIONS } from "../../provider/definitions";
import { appTokenOutputs } from "../../provider/definitions/appToken";
import type { ResourceDefinition } from "../../provider/definitions/define";
import { serveProvider } from "../../plugin/providerMethods";
import { SvcProviderServer } from "../../plugin/server";
import { PLUGIN_VERSION } from "../../provider/core/pluginRelease";

let next = 0;
const noopAppToken = (definition: ResourceDefinition): ResourceDefinition => ({
  ...definition,
  async create(_ctx, inputs) {
    const id = `noop_${process.pid}_${next++}`;
    // The state a real create would record: the declared fields as the platform echoes them.
    const record = {
      id,
      token: "0".repeat(64),
      status: 2,
      hashType: inputs.hashType,
      sessionType: inputs.sessionType === "ADMIN" ? 2 : 0,
      sessionDuration: inputs.sessionDuration ?? 0,
      sessionPrivileges: inputs.sessionPrivileges,
      sessionUserId: inputs.sessionUserId,
      expiry: inputs.expiry ?? 0,
      createdAt: 0,
      updatedAt: 0,
    };
    return { id, outs: appTokenOutputs({ ...record, description: inputs.description, objectType: "SvcAppToken" } as never, inputs) };
  },
  async read(_ctx, _id, state) {
    return state;
  },
  async update(_ctx, _id, olds, news) {
    return { ...olds, description: news.description };
  },
  async delete() {},
});

async function main(): Promise<void> {
  const definitions = DEFINITIONS.map((d) => (d.type === "AppToken" ? noopAppToken(d) : d));
  const { port } = await serveProvider(new SvcProviderServer(definitions, PLUGIN_VERSION).service());
  process.stdout.write(`${port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`noop pulumi-resource-svc: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
