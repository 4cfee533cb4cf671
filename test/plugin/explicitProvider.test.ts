/**
 * `pulumi-svc/native` with an explicit provider (`new svc.Provider(...)`): one program reaches two accounts, the
 * provider's credentials stay secret in the state, and destroy removes what each made from its own account.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SvcClient } from "../../sdk";
import { backendFilesText, newTestStack, type TestStack } from "../support/pulumi";
import { platformStack, pluginDir, values, type PlatformStack } from "../support/platformStack";

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const svc = require("pulumi-svc/native");
const config = new pulumi.Config();
const second = new svc.Provider("second", {
  baseUrl: config.require("secondUrl"),
  partnerId: config.requireNumber("secondPartner"),
  adminSecret: config.requireSecret("secondAdminSecret"),
});
const own = new svc.AppToken("own", { description: "the stack's account" });
const other = new svc.AppToken("other", { description: "the second account" }, { provider: second });
exports.ownId = own.id;
exports.otherId = other.id;
exports.otherPartner = other.partnerId;
exports.otherToken = other.token;
`;

describe("an explicit provider of the plugin for a second account", () => {
  let p: PlatformStack;
  let t: TestStack;
  let tmp: string;
  let second: { partnerId: number; adminSecret: string };
  let other: SvcClient;

  beforeAll(async () => {
    p = await platformStack({ provider: "plugin", stackName: "explicit-provider-emulator" });
    second = (await p.control("/partners", {})) as { partnerId: number; adminSecret: string };
    other = new SvcClient({ baseUrl: p.emulator.baseUrl, partnerId: second.partnerId, auth: { adminSecret: second.adminSecret } });
    tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-explicit-"));
    mkdirSync(join(tmp, "program"));
    writeFileSync(join(tmp, "program", "index.js"), PROGRAM);
    writeFileSync(
      join(tmp, "program", "Pulumi.yaml"),
      `name: explicit-provider\nruntime: nodejs\nmain: index.js\nplugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`,
    );
    t = await newTestStack(join(tmp, "program"), { copyProgram: true, stackName: "explicit" });
    await t.stack.setAllConfig({
      "svc:baseUrl": { value: p.emulator.baseUrl },
      "svc:partnerId": { value: String(p.emulator.partnerId) },
      "svc:adminSecret": { value: p.emulator.adminSecret, secret: true },
      secondUrl: { value: p.emulator.baseUrl },
      secondPartner: { value: String(second.partnerId) },
      secondAdminSecret: { value: second.adminSecret, secret: true },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await other?.close();
    await p?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("each resource is made in its provider's account, and the second account's secret stays secret", async () => {
    const up = await t.stack.up();
    const out = values(up.outputs);
    expect(out.otherPartner).toBe(second.partnerId);
    expect((await p.client.appTokens.get(out.ownId as string)).description).toBe("the stack's account");
    expect((await other.appTokens.get(out.otherId as string)).description).toBe("the second account");
    expect(up.outputs.otherToken?.secret).toBe(true);
    const text = backendFilesText(t.backendDir);
    for (const secret of [second.adminSecret, p.emulator.adminSecret, out.otherToken as string]) expect(text).not.toContain(secret);
    expect((await t.stack.preview()).changeSummary).toEqual({ same: 4 });
  }, 120_000);

  it("destroy removes each from its own account", async () => {
    const ids = values((await t.stack.outputs()) as never) as Record<string, string>;
    expect((await t.stack.destroy()).summary.result).toBe("succeeded");
    await expect(p.client.appTokens.get(ids.ownId!)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
    await expect(other.appTokens.get(ids.otherId!)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
  }, 120_000);
});
