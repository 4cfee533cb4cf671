/**
 * Named accounts on the dynamic providers: the runtime's handlers configured from stack config as the dynamic
 * provider host hands it (`svc:accounts` as JSON text, the credentials in it decrypted), against an emulator in this
 * process with two partner accounts beside the stack's own. A resource's `account` picks where it is made and
 * deleted; an unknown name fails check with the names known; a resource moving from `connection` to the name of the
 * same account is an update that calls nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { ProviderProcess } from "../../provider/core/providerProcess";
import { RESOURCES } from "../../provider/definitions";
import { handlersFor } from "../../provider/runtime/handlers";

describe("named accounts on the dynamic providers", () => {
  let emulator: RunningEmulator;
  let session: ProviderProcess;
  let partners: { id: number; adminSecret: string }[];

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
    partners = [emulator.ctx.createPartner(), emulator.ctx.createPartner()];
    const config: Record<string, string> = {
      "svc:baseUrl": emulator.baseUrl,
      "svc:partnerId": String(emulator.partnerId),
      "svc:adminSecret": emulator.adminSecret,
      "svc:accounts": JSON.stringify({
        north: { partnerId: String(partners[0]!.id), adminSecret: partners[0]!.adminSecret },
        south: { partnerId: partners[1]!.id, adminSecret: partners[1]!.adminSecret },
      }),
    };
    session = new ProviderProcess();
    session.configure({ get: (key) => config[key] }, {});
  });
  afterAll(async () => {
    await session?.close();
    await emulator?.close();
  });

  const tokens = () => handlersFor(RESOURCES.AppToken, session);
  const active = (partnerId: number) =>
    emulator.ctx.store
      .listDocs<{ status: number; description: string }>("appToken", partnerId)
      .filter((d) => d.status === 2)
      .map((d) => d.description);

  it("creates and deletes in the named account", async () => {
    const handlers = tokens();
    const checked = await handlers.check({}, { description: "in the south", account: "south" });
    expect(checked.failures).toEqual([]);
    const made = await handlers.create(checked.inputs);
    expect(active(partners[1]!.id)).toEqual(["in the south"]);
    expect(active(emulator.partnerId)).toEqual([]);
    expect(made.outs).toMatchObject({ account: "south", partnerId: partners[1]!.id });
    await handlers.delete(made.id, made.outs);
    expect(active(partners[1]!.id)).toEqual([]);
  });

  it("refuses an unknown name at check", async () => {
    const checked = await tokens().check({}, { description: "lost", account: "east" });
    expect(checked.failures).toEqual([{ property: "account", reason: 'account: account "east" is unknown: this provider knows "north", "south"' }]);
  });

  it("refuses a resource whose named account now reaches another partner (its delete would go there too)", async () => {
    const handlers = tokens();
    const made = await handlers.create((await handlers.check({}, { description: "stays north", account: "north" })).inputs);
    const other = new ProviderProcess();
    const config: Record<string, string> = {
      "svc:baseUrl": emulator.baseUrl,
      "svc:accounts": JSON.stringify({ north: { partnerId: partners[1]!.id, adminSecret: partners[1]!.adminSecret } }),
    };
    other.configure({ get: (key) => config[key] }, {});
    try {
      const news = (await handlersFor(RESOURCES.AppToken, other).check({}, { description: "stays north", account: "north" })).inputs;
      await expect(handlersFor(RESOURCES.AppToken, other, "replace").diff(made.id, made.outs, news)).rejects.toThrow(
        `this resource lives in partner ${partners[0]!.id}, but its account "north" now reaches partner ${partners[1]!.id}`,
      );
    } finally {
      await other.close();
    }
    await handlers.delete(made.id, made.outs);
  });

  it("moves a resource from a connection to the name of the same account without a platform call", async () => {
    const handlers = tokens();
    const connection = { partnerId: partners[0]!.id, adminSecret: partners[0]!.adminSecret };
    const made = await handlers.create((await handlers.check({}, { description: "moving north", connection })).inputs);
    const news = (await handlers.check({}, { description: "moving north", account: "north" })).inputs;
    const diff = await handlers.diff(made.id, made.outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    emulator.ctx.stats.reset();
    const { outs } = await handlers.update(made.id, made.outs, news);
    expect(emulator.ctx.stats.snapshot()).toEqual({});
    expect(outs.account).toBe("north");
    expect(outs.connection).toBeUndefined();
    await handlers.delete(made.id, outs);
    expect(active(partners[0]!.id)).toEqual([]);
  });
});
