/**
 * The main example (the root Pulumi.yaml + index.ts, TypeScript, stack `dev`) runs as committed against the
 * emulator, with the connection from SVC_* variables as `npm run demo` gives it, and leaves the repo untouched.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcClient } from "../../sdk";
import { newTestStack, repoRoot, type TestStack } from "../support/pulumi";

describe("the main example, stack dev", () => {
  let emulator: RunningEmulator;
  let t: TestStack;
  let client: SvcClient;
  const gitStatus = () =>
    execFileSync("git", ["status", "--porcelain", "--", "Pulumi.yaml", "Pulumi.dev.yaml", "Pulumi.prod.yaml", "index.ts"], { cwd: repoRoot, encoding: "utf8" });

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    t = await newTestStack(repoRoot, {
      stackName: "dev",
      extraEnv: {
        PULUMI_CONFIG_PASSPHRASE: "pulumi-svc-dev",
        SVC_BASE_URL: emulator.baseUrl,
        SVC_PARTNER_ID: String(emulator.partnerId),
        SVC_ADMIN_SECRET: emulator.adminSecret,
      },
    });
  }, 120_000);
  afterAll(async () => {
    // Only the stack on the temp backend goes: `stack rm` would also delete the committed Pulumi.dev.yaml.
    const { rmSync } = await import("node:fs");
    rmSync(t.tmp, { recursive: true, force: true });
    await client?.close();
    await emulator?.close();
  });

  it("goes up, previews clean, and is destroyed", async () => {
    const before = gitStatus();
    const up = await t.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    expect(up.outputs.pipelineTokenValue?.secret).toBe(true);
    const pipeline = await client.appTokens.get(up.outputs.pipelineTokenId!.value as string);
    expect(pipeline).toMatchObject({ sessionType: 0, sessionPrivileges: "list:*", sessionDuration: 3600, description: "Deployment pipeline (dev)" });
    const webhook = await client.templates.get(up.outputs.webhookTemplateId!.value as string);
    expect(webhook).toMatchObject({ status: 2, systemName: "PUBLISHING_ENTRY_READY_DEV", url: "http://127.0.0.1:4020/hooks/entry-ready" });

    expect((await t.stack.preview()).changeSummary).toEqual({ same: 4 });
    expect((await t.stack.destroy()).summary.resourceChanges).toEqual({ delete: 4 });
    expect((await client.appTokens.list({ statusEqual: 2 })).totalCount).toBe(0);
    expect(gitStatus()).toBe(before);
  }, 240_000);
});
