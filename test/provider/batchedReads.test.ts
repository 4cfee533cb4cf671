/**
 * The dynamic provider's Reads made at once (a `refresh`) go as multirequests (the provider's clients turn on the
 * sdk's batchReads); each must answer exactly what it answers alone: its object with the drift, an empty id for an
 * object deleted outside Pulumi, the token value. The plugin's side is test/plugin/wire/batchedReads.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { SvcClient } from "../../sdk";
import { configureForEmulator, providerRuntime } from "../support/providerRuntime";

const { session, appToken, httpNotificationTemplate } = providerRuntime();

describe("the dynamic provider's batched reads", () => {
  let emulator: RunningEmulator;
  let admin: SvcClient;
  const made: Array<{ provider: typeof appToken | typeof httpNotificationTemplate; id: string; outs: Record<string, unknown> }> = [];

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    configureForEmulator(session, emulator);
    for (let k = 0; k < 4; k++) {
      const token = await appToken.check({}, { description: `batched ${k}` });
      made.push({ provider: appToken, ...(await appToken.create(token.inputs)) });
      const hook = await httpNotificationTemplate.check(
        {},
        { event: "entry.ready", name: `Batched hook ${k}`, url: `https://hooks.example.com/b${k}`, signSecret: "fake-signing-secret-0042" },
      );
      made.push({ provider: httpNotificationTemplate, ...(await httpNotificationTemplate.create(hook.inputs)) });
    }
    // Outside Pulumi: the first token and template deleted, the second ones' descriptions changed (drift).
    await admin.appTokens.delete(made[0]!.id);
    await admin.templates.delete(made[1]!.id);
    await admin.appTokens.update(made[2]!.id, { description: "changed outside" });
    await admin.templates.update(made[3]!.id, { description: "changed outside" });
  });
  afterAll(async () => {
    await session.close();
    await admin?.close();
    await emulator?.close();
  });

  it("answer each object as its read alone does", async () => {
    emulator.ctx.stats.reset();
    const alone = [];
    for (const m of made) alone.push(await m.provider.read(m.id, m.outs));
    expect(emulator.ctx.stats.snapshot().multirequest ?? 0).toBe(0);

    emulator.ctx.stats.reset();
    const together = await Promise.all(made.map((m) => m.provider.read(m.id, m.outs)));
    expect(emulator.ctx.stats.snapshot().multirequest ?? 0).toBeGreaterThan(0);
    expect(together).toEqual(alone);
    expect(together[0]).toEqual({ id: "" });
    expect(together[1]).toEqual({ id: "" });
    expect(together[2]?.props?.description).toBe("changed outside");
    expect(together[4]?.props?.token).toBe(made[4]!.outs.token);
  });
});
