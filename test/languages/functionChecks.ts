/**
 * What every language's example checks of the provider functions and the typed schema, run by the per-language
 * plugin tests (python, go, yaml) on their stack: the token read back by getAppToken is the token and a secret
 * output; the catalog lookup (getSystemTemplates) names the emulator's email system template of entry.ready; a typo
 * in an enum value fails `pulumi preview`, naming the allowed values.
 */
import { expect } from "vitest";
import { templateMatchesEvent } from "../../contract/events";
import type { PluginProject } from "./pluginProject";

/** After the first `up`: `outputs` are the stack's outputs with --show-secrets. */
export async function expectFunctionOutputs(p: PluginProject, outputs: Record<string, unknown>): Promise<void> {
  expect(outputs.pipelineTokenLookup).toBe(outputs.pipelineToken);
  expect(JSON.parse(await p.pulumi("stack", "output", "--json")).pipelineTokenLookup).toBe("[secret]");
  const { objects } = await p.client.emailTemplates.listTemplates({});
  const entryReady = objects.find((t) => templateMatchesEvent(t, "entry.ready"));
  expect(outputs.entryReadyEmailSystemName).toBe(entryReady?.systemName);
  // The lookup's copy of the token is as secret in the state as the resource's.
  expect(p.backendText()).not.toContain(String(outputs.pipelineToken));
}

/** The example's hashType comes from stack config: a typo there fails the preview; then `restore` is set back. */
export async function expectEnumTypoRefused(p: PluginProject, restore: string, preview = () => p.pulumi("preview")): Promise<void> {
  await p.pulumi("config", "set", "hashType", "SHA265");
  await expect(preview()).rejects.toThrow(/hashType: [^\n]*"SHA1"\|"SHA256"\|"SHA512"\|"MD5"/);
  await p.pulumi("config", "set", "hashType", restore);
}
