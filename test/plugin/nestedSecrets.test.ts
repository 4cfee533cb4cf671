/**
 * Secrets nested in inputs, through the real engine and the built plugin: a secret inside an object
 * (`keepers.rotation`) or a list (a recipient, a content parameter) stays a secret in the state, in
 * `pulumi stack export` and in the files of the backend, and a preview of a change to it shows `[secret]`.
 * The program is the one the wire replay records (test/plugin/wire/fixtures/program).
 */
import { execFile } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { SvcClient } from "../../sdk";
import { pluginDir } from "../support/platformStack";
import { backendFilesText, engineBinDir, newTestStack, type TestStack } from "../support/pulumi";

const NESTED_SECRETS = ["fake-nested-rotation-1", "fake-secret-recipient@example.com", "fake-secret-parameter-value", "fake-wire-signing-secret-0001"];
const SIG = "4dabf18193072939515e22adb298388d";

describe("nested secrets through the engine (plugin)", () => {
  let emulator: RunningEmulator;
  let t: TestStack;
  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    t = await newTestStack(join(__dirname, "wire", "fixtures", "program"), { copyProgram: true });
    appendFileSync(join(t.workDir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`);
    await t.stack.setAllConfig({
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:partnerId": { value: String(emulator.partnerId) },
      "svc:adminSecret": { value: emulator.adminSecret, secret: true },
      signSecret: { value: "fake-wire-signing-secret-0001", secret: true },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await emulator?.close();
  });

  it("keeps them secret in the state, the export and the backend's files", async () => {
    const up = await t.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    for (const value of NESTED_SECRETS) expect(up.stdout).not.toContain(value);
    // The CLI's `pulumi stack export` (the Automation API's exportStack shows secrets).
    const exported = (
      await promisify(execFile)(join(engineBinDir(), "pulumi"), ["stack", "export", "--stack", "test"], { cwd: t.workDir, env: { ...process.env, ...t.env } })
    ).stdout;
    const files = backendFilesText(t.backendDir);
    for (const value of NESTED_SECRETS) {
      expect(exported, value).not.toContain(value);
      expect(files, value).not.toContain(value);
    }
    // Each resource's inputs and outputs in the state hold the secrets as ciphertext, at their paths.
    const resources = JSON.parse(exported).deployment.resources as { type: string; inputs?: any; outputs?: any }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const token = resources.find((r) => r.type === "svc:index:AppToken")!;
    const email = resources.find((r) => r.type === "svc:index:EmailNotificationTemplate")!;
    for (const props of [token.inputs, token.outputs]) {
      expect(props.keepers.rotation).toMatchObject({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
      expect(props.keepers.plain).toBe("visible");
    }
    for (const props of [email.inputs, email.outputs]) {
      // A list holding a secret is one secret as a whole (an index would not survive drift).
      expect(props.to).toHaveProperty("ciphertext");
      expect(props.contentParameters).toHaveProperty("ciphertext");
      expect(props.subject).toEqual(expect.any(String));
    }
  }, 180_000);

  it("keeps secret list elements secret after a refresh of drift that prepended elements on the platform", async () => {
    const exportText = async () =>
      (await promisify(execFile)(join(engineBinDir(), "pulumi"), ["stack", "export", "--stack", "test"], { cwd: t.workDir, env: { ...process.env, ...t.env } }))
        .stdout;
    const resources = JSON.parse(await exportText()).deployment.resources as { type: string; id: string }[];
    const email = resources.find((r) => r.type === "svc:index:EmailNotificationTemplate")!;
    const admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    try {
      // By hand on the platform: one recipient and one parameter put first (the secret ones move from index 1 to 2).
      await admin.emailTemplates.update(email.id, {
        to: { emailRecipients: [{ email: "added-by-hand@example.com" }, { email: "editors@example.com", name: "Editors" }, { email: NESTED_SECRETS[1]! }] },
        contentParameters: [
          { key: "added", value: "{entry.id}" },
          { key: "entry_name", value: "{entry.name}" },
          { key: "private", value: NESTED_SECRETS[2]! },
        ],
      });
    } finally {
      await admin.close();
    }
    const refresh = await t.stack.refresh();
    for (const value of NESTED_SECRETS) expect(refresh.stdout, value).not.toContain(value);
    expect(refresh.summary.resourceChanges?.update, "the refresh saw the drift").toBeGreaterThanOrEqual(1);
    const exported = await exportText();
    const files = backendFilesText(t.backendDir);
    for (const value of NESTED_SECRETS) {
      expect(exported, value).not.toContain(value);
      expect(files, value).not.toContain(value);
    }
  }, 180_000);

  it("shows a change of a nested secret as [secret] in a preview's diff", async () => {
    await t.stack.setConfig("rotation", { value: "fake-nested-rotation-2" });
    const preview = await t.stack.preview({ diff: true });
    expect(preview.changeSummary).toMatchObject({ replace: 1 });
    expect(preview.stdout).toMatch(/keepers/);
    expect(preview.stdout).toMatch(/\[secret\]/);
    for (const value of [...NESTED_SECRETS, "fake-nested-rotation-2"]) expect(preview.stdout, value).not.toContain(value);
  }, 180_000);
});
