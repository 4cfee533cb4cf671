/**
 * An end-to-end fixture: the emulator in this process, and a stack of the scenario-driven test program
 * (test/e2e/fixtures/platform) whose connection comes from stack config (`svc:*`, the admin secret as a secret).
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcClient } from "../../sdk";
import { newTestStack, repoRoot, type TestStack, type TestStackOptions } from "./pulumi";
import { emulatorSecrets, FIXED_TEST_SECRETS } from "./secretScan";

export const SIGN_SECRET = FIXED_TEST_SECRETS.e2eSignSecret;
export const platformProgram = join(repoRoot, "test", "e2e", "fixtures", "platform");

export interface Scenario {
  tokens?: Record<string, Record<string, unknown>>;
  templates?: Record<string, Record<string, unknown>>;
  /** EmailNotificationTemplates by name. */
  emailTemplates?: Record<string, Record<string, unknown>>;
  /** Existing objects read by id (AppToken.get / HttpNotificationTemplate.get), not managed. */
  tokenLookups?: Record<string, string>;
  templateLookups?: Record<string, string>;
}

/** The operations of a summary that change something (reads of looked-up objects and same steps do not). */
export function changes(summary: Record<string, number | undefined>): Record<string, number | undefined> {
  return Object.fromEntries(Object.entries(summary).filter(([op]) => op !== "same" && op !== "read"));
}

export interface PlatformStack extends TestStack {
  emulator: RunningEmulator;
  /** An admin client of the emulator's account, for out-of-band changes and checks. */
  client: SvcClient;
  setScenario(scenario: Scenario): Promise<void>;
  /** Calls per `service.action` since the last reset. */
  stats(): Promise<Record<string, number>>;
  resetStats(): Promise<void>;
  /** From now on the program's resources are served by the native plugin (the Pulumi.yaml names its folder). */
  usePlugin(): Promise<void>;
  control(path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** Which provider serves the program's resources: the dynamic providers, or the native plugin (dist/pulumi-resource-svc). */
export type ProviderKind = "dynamic" | "plugin";
export const PROVIDER_KINDS: readonly ProviderKind[] = ["dynamic", "plugin"];
export const pluginDir = join(repoRoot, "dist", "pulumi-resource-svc");

/**
 * `requestTimeoutMs`: the stack's svc:requestTimeoutMs. A create cut while its request is in flight (Cancel, a kill) is
 * looked for until that timeout: the interruption tests set a short one.
 */
export async function platformStack(options: TestStackOptions & { provider?: ProviderKind; requestTimeoutMs?: number } = {}): Promise<PlatformStack> {
  const emulator = await startEmulator({ quiet: true, delivery: { maxAttempts: 3, initialDelayMs: 20 } } as Parameters<typeof startEmulator>[0]);
  const t = await newTestStack(platformProgram, { copyProgram: true, ...options });
  // Every account, token value and signing secret the emulator holds when the stack closes is searched for.
  t.scan.addSource(() => emulatorSecrets(emulator));
  const usePlugin = async () => {
    // The plugin from the build, by path (the first of the engine's ways to find a plugin).
    appendFileSync(join(t.workDir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`);
    await t.stack.setConfig("providerKind", { value: "plugin" });
  };
  if (options.provider === "plugin") await usePlugin();
  await t.stack.setAllConfig({
    "svc:baseUrl": { value: emulator.baseUrl },
    "svc:partnerId": { value: String(emulator.partnerId) },
    "svc:adminSecret": { value: emulator.adminSecret, secret: true },
    signSecret: { value: SIGN_SECRET, secret: true },
    ...(options.requestTimeoutMs === undefined ? {} : { "svc:requestTimeoutMs": { value: String(options.requestTimeoutMs) } }),
  });
  const client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
  const control = async (path: string, body?: unknown) => {
    const res = await request(`${emulator.controlUrl}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.body.json();
  };
  return {
    ...t,
    emulator,
    client,
    control,
    async setScenario(scenario) {
      await t.stack.setConfig("scenario", { value: JSON.stringify(scenario) });
    },
    async stats() {
      return (await control("/stats")) as Record<string, number>;
    },
    async resetStats() {
      await control("/stats/reset", {});
    },
    usePlugin,
    /** Runs the secret scan (it fails the test on a hit), and releases the stack, client and emulator either way. */
    async close() {
      try {
        await t.cleanup();
      } finally {
        await client.close();
        await emulator.close();
      }
    },
  };
}

/** Plain values of stack outputs. */
export function values(outputs: OutputMap): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));
}
