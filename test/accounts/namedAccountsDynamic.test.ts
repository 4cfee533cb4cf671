/**
 * Named accounts on the dynamic providers (`pulumi-svc`), through the engine: `svc:accounts` set by path in stack
 * config (credentials as secrets), read by the dynamic provider the way it reads the other `svc:*` keys; each
 * resource's `account` puts it in that account, and destroy removes it from there. No credential at rest (the scan).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { values } from "../support/platformStack";
import { newTestStack, type TestStack } from "../support/pulumi";
import { emulatorSecrets } from "../support/secretScan";

const PROGRAM = `const svc = require("pulumi-svc");
exports.north = new svc.AppToken("north", { description: "dynamic north", account: "north" }).partnerId;
exports.south = new svc.AppToken("south", { description: "dynamic south", account: "south" }).partnerId;
`;

describe("named accounts on the dynamic providers, through the engine", () => {
  let emulator: RunningEmulator;
  let t: TestStack;
  let tmp: string;
  let partners: { id: number; adminSecret: string }[];

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
    partners = [emulator.ctx.createPartner(), emulator.ctx.createPartner()];
    tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-accounts-dynamic-"));
    mkdirSync(join(tmp, "program"));
    writeFileSync(join(tmp, "program", "index.js"), PROGRAM);
    writeFileSync(join(tmp, "program", "Pulumi.yaml"), "name: named-accounts-dynamic\nruntime: nodejs\nmain: index.js\n");
    t = await newTestStack(join(tmp, "program"), { copyProgram: true, stackName: "dynamic" });
    t.scan.addSource(() => emulatorSecrets(emulator));
    for (const [name, partner] of [
      ["north", partners[0]!],
      ["south", partners[1]!],
    ] as const) {
      await t.stack.setConfig(`svc:accounts.${name}.baseUrl`, { value: emulator.baseUrl }, true);
      await t.stack.setConfig(`svc:accounts.${name}.partnerId`, { value: String(partner.id) }, true);
      await t.stack.setConfig(`svc:accounts.${name}.adminSecret`, { value: partner.adminSecret, secret: true }, true);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await emulator?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const active = (partnerId: number) =>
    emulator.ctx.store
      .listDocs<{ status: number; description: string }>("appToken", partnerId)
      .filter((d) => d.status === 2)
      .map((d) => d.description);

  it("puts each resource in the account it names, and destroys it there", async () => {
    const up = await t.stack.up();
    expect(values(up.outputs)).toEqual({ north: partners[0]!.id, south: partners[1]!.id });
    expect(active(partners[0]!.id)).toEqual(["dynamic north"]);
    expect(active(partners[1]!.id)).toEqual(["dynamic south"]);
    expect(active(emulator.partnerId)).toEqual([]);
    expect((await t.stack.preview()).changeSummary).toEqual({ same: 3 });
    await t.stack.destroy();
    expect([...active(partners[0]!.id), ...active(partners[1]!.id)]).toEqual([]);
  }, 240_000);
});
