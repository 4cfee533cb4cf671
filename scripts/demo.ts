#!/usr/bin/env node
/**
 * `npm run demo`: the whole product, locally. Starts the platform emulator (state kept in .pulumi-state/), brings
 * the root program's `dev` stack up through the real Pulumi engine (Automation API, local file backend), prints
 * the outputs with secrets masked, shows that `pulumi preview` then finds no change, and fires an event whose
 * signed webhook delivery a local receiver (the sdk's handler) verifies.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { LocalWorkspace, PulumiCommand, type OutputMap } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createWebhookHandler } from "../sdk";
import { engineBinDir, engineEnv, localStateDir, repoRoot } from "./engineEnv";

const RECEIVER_PORT = 4020; // Pulumi.dev.yaml's webhookUrl points here
const say = (line = "") => process.stdout.write(`${line}\n`);
const step = (title: string) => say(`\n== ${title}`);

function masked(outputs: OutputMap): string[] {
  return Object.entries(outputs).map(([key, { value, secret }]) => {
    const shown = secret ? `[secret${typeof value === "string" ? `, ${value.length} characters` : ""}]` : JSON.stringify(value);
    return `  ${key.padEnd(26)} ${shown}`;
  });
}

async function startReceiver(secret: string): Promise<Server | undefined> {
  const handler = createWebhookHandler({
    secret,
    onEvent: (event) =>
      say(
        `  receiver: verified delivery of template ${event.templateId} (${event.templateSystemName ?? event.templateName}), event type ${event.eventType}, object ${String(event.object.id ?? "")}`,
      ),
    onError: (error) => say(`  receiver: handler failed: ${String(error)}`),
  });
  const server = createServer(handler);
  return new Promise((resolve) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      say(
        `  (webhook receiver not started: port ${RECEIVER_PORT} is ${error.code === "EADDRINUSE" ? "in use" : error.message}; deliveries will be retried by the emulator)`,
      );
      resolve(undefined);
    });
    server.listen(RECEIVER_PORT, "127.0.0.1", () => resolve(server));
  });
}

async function main(): Promise<void> {
  step("Starting the platform emulator");
  mkdirSync(localStateDir, { recursive: true });
  const emulator: RunningEmulator = await startEmulator({ stateFile: join(localStateDir, "emulator.db"), quiet: true });
  say(`  api_v3 at ${emulator.baseUrl}, partner ${emulator.partnerId} (state in .pulumi-state/emulator.db)`);
  let receiver: Server | undefined;
  try {
    const envVars = {
      ...engineEnv(),
      SVC_BASE_URL: emulator.baseUrl,
      SVC_PARTNER_ID: String(emulator.partnerId),
      SVC_ADMIN_SECRET: emulator.adminSecret,
    };
    const pulumiCommand = await PulumiCommand.get({ root: join(engineBinDir(), "..") });
    const stack = await LocalWorkspace.createOrSelectStack({ stackName: "dev", workDir: repoRoot }, { pulumiCommand, envVars });

    const signingSecret = (await stack.getConfig("webhookSigningSecret")).value;
    receiver = await startReceiver(signingSecret);

    step("pulumi up --refresh (stack dev)");
    const up = await stack.up({ refresh: true, onOutput: (out) => process.stdout.write(out.replace(/^/gm, "  ")) });
    say();
    say(`  result: ${up.summary.result}; ${JSON.stringify(up.summary.resourceChanges)}`);
    say("  outputs:");
    for (const line of masked(up.outputs)) say(line);

    step("pulumi preview (the program is unchanged, so nothing should change)");
    const preview = await stack.preview();
    const changes = Object.entries(preview.changeSummary).filter(([op]) => op !== "same");
    say(changes.length === 0 ? `  no changes: ${preview.changeSummary.same ?? 0} resources unchanged` : `  changes: ${JSON.stringify(preview.changeSummary)}`);

    step("A platform event: an entry becomes ready");
    await fetch(`${emulator.controlUrl}/trigger`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ event: "entry.ready" }),
    });
    await fetch(`${emulator.controlUrl}/deliveries/wait?timeoutMs=10000`, { method: "POST" });

    step("Next");
    say("  Run the same stack by hand (the emulator prints the SVC_* variables to export):");
    say("    npm run emulator -- --state .pulumi-state/emulator.db      # in one terminal");
    say("    npm run pulumi -- preview --stack dev                      # in another, after exporting SVC_*");
    say('  Point it at a real account: see README.md, "Run against a real account".');
  } finally {
    receiver?.close();
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
