/**
 * `pulumi import` through the native plugin (svc:index:*), against the emulator: the engine calls Read(id) with no
 * properties and takes the properties and inputs it returns, then Check. The program's language host (Node) cannot
 * write code, so the import runs with generateCode false and the test program declares what was imported.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TemplateStatus } from "../../contract/platform";
import { changes, platformStack, type PlatformStack } from "../support/platformStack";
import { backendFilesText, engineBinDir } from "../support/pulumi";

const TOKEN_TYPE = "svc:index:AppToken";
const TEMPLATE_TYPE = "svc:index:HttpNotificationTemplate";
/** The signing secret the template was made with outside Pulumi (the emulator hands it to the account admin). */
const ORIGINAL_SECRET = "made-outside-signing-secret-0001";
const DECLARED_SECRET = "declared-in-program-secret-0002";

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  protect?: boolean;
}

/** What a program declares for the token imported below (each later scenario keeps it, or the up would delete it). */
const OUTSIDE_TOKEN = {
  description: "made outside Pulumi",
  hashType: "SHA1",
  sessionType: "ADMIN",
  sessionDuration: 3600,
  sessionPrivileges: "list:*",
  sessionUserId: "ops",
};

describe("pulumi import (plugin)", () => {
  let p: PlatformStack;
  beforeAll(async () => {
    p = await platformStack({ provider: "plugin" });
  }, 120_000);
  afterAll(async () => p?.close());

  const resources = async (): Promise<StateResource[]> => ((await p.stack.exportStack()).deployment.resources ?? []) as StateResource[];
  const byName = async (name: string) => (await resources()).find((r) => r.urn.endsWith(`::${name}`));

  it("imports an app token: its value a secret, the next preview clean", async () => {
    const made = await p.client.appTokens.add({
      description: "made outside Pulumi",
      hashType: "SHA1",
      sessionType: 2,
      sessionDuration: 3600,
      sessionPrivileges: "list:*",
      sessionUserId: "ops",
    });
    expect(made.token).toBeTruthy();
    // The CLI's own form, `pulumi import <type> <name> <id>` (the Node host writes no code: --generate-code=false).
    const cli = await promisify(execFile)(
      join(engineBinDir(), "pulumi"),
      ["import", TOKEN_TYPE, "outside", made.id, "--generate-code=false", "--yes", "--non-interactive", "--stack", "test"],
      { cwd: p.workDir, env: { ...process.env, ...p.env } },
    );
    expect(cli.stdout).toMatch(/1 imported/);
    expect(cli.stdout + cli.stderr).not.toContain(made.token);

    const state = await byName("outside");
    expect(state?.id).toBe(made.id);
    // Inputs as read (what a program must declare), and the value as a secret in the outputs.
    expect(state?.inputs).toMatchObject({ description: "made outside Pulumi", hashType: "SHA1", sessionType: "ADMIN", sessionDuration: 3600 });
    expect(state?.outputs?.token).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
    expect(backendFilesText(p.backendDir)).not.toContain(made.token);

    await p.setScenario({ tokens: { outside: OUTSIDE_TOKEN } });
    const preview = await p.stack.preview();
    expect(changes(preview.changeSummary)).toEqual({});
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({});
    // The token's value reached the program as a secret output.
    expect(up.outputs.outsideToken).toMatchObject({ secret: true, value: made.token });
    expect(backendFilesText(p.backendDir)).not.toContain(made.token);
  }, 240_000);

  it("imports a template: event derived; the first up keeps the platform's signSecret until the program declares one", async () => {
    const source = (await p.client.templates.listTemplates({ typeEqual: "httpNotification.Http" })).objects.find(
      (t) => t.systemName === "HTTP_ENTRY_STATUS_READY",
    );
    expect(source).toBeDefined();
    const clone = await p.client.templates.clone(source!.id, {
      name: "Made outside",
      systemName: "OUTSIDE_READY",
      url: "https://example.com/outside",
      signSecret: ORIGINAL_SECRET,
    });
    await p.client.templates.updateStatus(clone.id, TemplateStatus.ACTIVE);
    // Default protect (true), as `pulumi import` does.
    const result = await p.stack.import({ resources: [{ type: TEMPLATE_TYPE, name: "hook", id: clone.id }], generateCode: false });
    expect(result.summary.resourceChanges).toMatchObject({ import: 1 });
    const state = await byName("hook");
    expect(state?.protect).toBe(true);
    expect(state?.inputs).toMatchObject({
      event: "entry.ready",
      name: "Made outside",
      systemName: "OUTSIDE_READY",
      url: "https://example.com/outside",
      active: true,
    });
    // Write-once: never read back, so neither an input nor an output after the import.
    expect(state?.inputs).not.toHaveProperty("signSecret");
    expect(state?.outputs).not.toHaveProperty("signSecret");
    expect(backendFilesText(p.backendDir)).not.toContain(ORIGINAL_SECRET);

    // What a program declares: every field as read (the clone kept the system template's description).
    const declared = {
      event: "entry.ready",
      name: "Made outside",
      systemName: "OUTSIDE_READY",
      url: "https://example.com/outside",
      description: state?.inputs?.description,
    };
    expect(declared.description).toBe(source?.description);
    // 1. The program leaves signSecret out: the preview is clean and the up changes nothing, on the platform either.
    await p.setScenario({ tokens: { outside: OUTSIDE_TOKEN }, templates: { hook: declared } });
    const clean = await p.stack.preview({ diff: true });
    expect(changes(clean.changeSummary), clean.stdout).toEqual({});
    await p.resetStats();
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({});
    expect((await p.stats())["eventnotification_eventnotificationtemplate.update"] ?? 0).toBe(0);
    expect((await p.client.templates.get(clone.id)).signSecret).toBe(ORIGINAL_SECRET);

    // 2. The program declares a signSecret: the preview shows an in-place update of signSecret alone, and the up
    // writes it to the platform (deliveries are signed with it from then on), as a secret in the state.
    await p.stack.setConfig("signSecret", { value: DECLARED_SECRET, secret: true });
    await p.setScenario({ tokens: { outside: OUTSIDE_TOKEN }, templates: { hook: { ...declared, signSecret: "$signSecret" } } });
    const preview = await p.stack.preview({ diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    expect(preview.stdout).toMatch(/signSecret/);
    expect(preview.stdout).not.toContain(DECLARED_SECRET);
    const second = await p.stack.up();
    expect(changes(second.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    expect((await p.client.templates.get(clone.id)).signSecret).toBe(DECLARED_SECRET);
    expect((await byName("hook"))?.outputs?.signSecret).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
    expect(backendFilesText(p.backendDir)).not.toContain(DECLARED_SECRET);
    expect(changes((await p.stack.preview()).changeSummary)).toEqual({});
  }, 300_000);

  it("a missing id fails with a clear message and leaves the stack unchanged", async () => {
    const before = JSON.stringify(await resources());
    const missingToken = "0_doesnotexist";
    const tokenError = await p.stack.import({ resources: [{ type: TOKEN_TYPE, name: "ghost", id: missingToken }], generateCode: false }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(tokenError).toBeInstanceOf(Error);
    expect(String(tokenError)).toContain(`AppToken "${missingToken}" was not found in partner ${p.emulator.partnerId}`);
    const missingTemplate = "999999";
    const templateError = await p.stack.import({ resources: [{ type: TEMPLATE_TYPE, name: "ghost-hook", id: missingTemplate }], generateCode: false }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(String(templateError)).toContain(`HttpNotificationTemplate "${missingTemplate}" was not found in partner ${p.emulator.partnerId}`);
    expect(JSON.stringify(await resources())).toBe(before);
  }, 240_000);
});
