/**
 * The provider functions from a TypeScript program (`pulumi-svc/native`) through the engine and the plugin, against
 * an emulator in this process: both forms (a Promise, an Output), the token value read back by getAppToken a secret
 * output that never reaches the state in plain text, lookups that depend on resources of the same program, and the
 * deprecation warning of a deprecated input (systemTemplateId) in `pulumi preview`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { templateMatchesEvent } from "../../contract/events";
import { SvcClient } from "../../sdk";
import { pluginDir, values } from "../support/platformStack";
import { backendFilesText, newTestStack, type TestStack } from "../support/pulumi";

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const svc = require("pulumi-svc/native");
const config = new pulumi.Config();
const pipeline = new svc.AppToken("pipeline", { description: "functions: deploy pipeline", sessionType: "ADMIN" });
const webhook = new svc.HttpNotificationTemplate("hook", {
  systemTemplateId: config.require("systemTemplateId"),
  name: "Functions webhook",
  systemName: "FUNCTIONS_HOOK",
  url: "https://hooks.example.com/functions",
  signSecret: config.requireSecret("signSecret"),
});
exports.token = pipeline.token;
exports.tokenId = pipeline.tokenId;
exports.lookupToken = svc.getAppTokenOutput({ id: pipeline.tokenId }).token;
exports.adminIds = svc.getAppTokensOutput({ sessionType: "ADMIN", descriptionContains: pipeline.description }).ids;
exports.hookUrl = svc.getNotificationTemplateOutput({ systemName: webhook.systemName, kind: "HTTP" }).url;
exports.httpCatalog = svc.getSystemTemplates({ kind: "HTTP", event: "entry.ready" }).then((r) => r.templates.map((t) => t.systemName));
`;

describe("provider functions from a TypeScript program on the plugin", () => {
  let emulator: RunningEmulator;
  let client: SvcClient;
  let t: TestStack;
  let tmp: string;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
    client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-functions-"));
    mkdirSync(join(tmp, "program"));
    writeFileSync(join(tmp, "program", "index.js"), PROGRAM);
    writeFileSync(
      join(tmp, "program", "Pulumi.yaml"),
      `name: functions\nruntime: nodejs\nmain: index.js\nplugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`,
    );
    t = await newTestStack(join(tmp, "program"), { copyProgram: true, stackName: "functions" });
    const { objects } = await client.templates.listTemplates({ typeEqual: "httpNotification.Http" });
    await t.stack.setAllConfig({
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:partnerId": { value: String(emulator.partnerId) },
      "svc:adminSecret": { value: emulator.adminSecret, secret: true },
      systemTemplateId: { value: objects.find((o) => templateMatchesEvent(o, "entry.ready"))!.id },
      signSecret: { value: "functions-signing-secret-0123456789", secret: true },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await client?.close();
    await emulator?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("previews with the deprecation warning, then looks up what it made, the token value a secret", async () => {
    let previewText = "";
    await t.stack.preview({ onOutput: (text) => (previewText += text) });
    expect(previewText).toMatch(/warning: systemTemplateId is deprecated: A system template's id differs between accounts/);

    const up = await t.stack.up();
    const out = values(up.outputs);
    expect(up.outputs.lookupToken?.secret).toBe(true);
    expect(out.lookupToken).toBe(out.token);
    expect(out.adminIds).toEqual([out.tokenId]);
    expect(out.hookUrl).toBe("https://hooks.example.com/functions");
    const { objects } = await client.templates.listTemplates({ typeEqual: "httpNotification.Http" });
    expect(out.httpCatalog).toEqual(objects.filter((o) => templateMatchesEvent(o, "entry.ready")).map((o) => o.systemName));
    const state = backendFilesText(t.backendDir);
    for (const secret of [out.token as string, emulator.adminSecret]) expect(state).not.toContain(secret);

    expect((await t.stack.destroy()).summary.result).toBe("succeeded");
  }, 180_000);
});
