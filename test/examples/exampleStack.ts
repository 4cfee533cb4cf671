/**
 * Runs one of examples/ for real: the emulator in this process, and a stack of the example's own program
 * copied into a temp dir (its Pulumi.yaml, tsconfig.json and index.ts, compiled by Pulumi's ts-node as for users).
 */
import { join } from "node:path";
import { request } from "undici";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
// The dist build, as the examples use it (and as users install it): its classes are the ones the examples accept.
import { SvcClient } from "pulumi-svc/sdk";
import { emulatorSecrets } from "../support/secretScan";
import { newTestStack, repoRoot, type TestStack } from "../support/pulumi";

export const examplesDir = join(repoRoot, "examples");

export interface ExampleStack extends TestStack {
  emulator: RunningEmulator;
  /** The account admin, for checks on the server. */
  admin: SvcClient;
  control(path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * `config` is set on the stack (on top of a committed Pulumi.<stack>.yaml, if the example has one); the SVC_* variables of the test's own environment are
 * blanked, so the example runs with exactly what the test gives it.
 */
export async function exampleStack(
  example: string,
  config: (emulator: RunningEmulator) => ConfigMap,
  options: { stackName?: string; emulator?: { partnerId?: number; adminSecret?: string } } = {},
): Promise<ExampleStack> {
  const emulator = await startEmulator({ quiet: true, delivery: { maxAttempts: 3, initialDelayMs: 20 }, ...options.emulator });
  const blankEnv = Object.fromEntries(
    ["SVC_BASE_URL", "SVC_PARTNER_ID", "SVC_ADMIN_SECRET", "SVC_APP_TOKEN_ID", "SVC_APP_TOKEN", "SVC_KS"].map((k) => [k, ""]),
  );
  const t = await newTestStack(join(examplesDir, example), {
    copyProgram: true,
    extraEnv: blankEnv,
    ...(options.stackName ? { stackName: options.stackName } : {}),
  });
  t.scan.addSource(() => emulatorSecrets(emulator));
  await t.stack.setAllConfig(config(emulator));
  const admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
  return {
    ...t,
    emulator,
    admin,
    async control(path, body) {
      const res = await request(`${emulator.controlUrl}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.body.json();
    },
    async close() {
      await t.cleanup();
      await admin.close();
      await emulator.close();
    },
  };
}
