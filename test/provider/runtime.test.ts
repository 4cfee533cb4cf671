/**
 * The provider runtime's CRUD against the emulator in this process (no engine): the contract the engine relies on —
 * plain JSON outputs, gone reads as an empty id, delete of a gone object is done, adoption never duplicates,
 * one session per connection for the whole process.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { configureForEmulator, providerRuntime } from "../support/providerRuntime";
import { SvcClient } from "../../sdk";

/** A provider process of this file's own, with the runtime's handlers. */
const { session, appToken: appTokenProvider, httpNotificationTemplate: templateProvider } = providerRuntime();

describe("provider runtime against the emulator", () => {
  let emulator: RunningEmulator;
  let admin: SvcClient;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    configureForEmulator(session, emulator);
  });
  afterEach(() => emulator.ctx.stats.reset());
  afterAll(async () => {
    await session.close();
    await admin.close();
    await emulator.close();
  });

  const checked = async (news: Record<string, unknown>) => {
    const { inputs, failures } = await appTokenProvider.check({}, news);
    expect(failures).toEqual([]);
    return inputs;
  };

  it("creates, reads, updates and deletes a token with plain JSON outputs and one session", async () => {
    const inputs = await checked({ description: "runtime test" });
    const { id, outs } = await appTokenProvider.create(inputs);
    expect(JSON.parse(JSON.stringify(outs))).toEqual(outs); // plain JSON, no undefined
    expect(outs).toMatchObject({ tokenId: id, hashType: "SHA256", sessionType: "USER", description: "runtime test", status: 2 });
    expect(outs.token).toMatch(/^[0-9a-f]{64}$/);

    const read = await appTokenProvider.read(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual(inputs); // the server's truth maps back onto exactly the checked inputs

    const updated = await appTokenProvider.update(id, outs, { ...inputs, description: "changed" });
    expect(updated.outs).toMatchObject({ tokenId: id, description: "changed", token: outs.token });

    await appTokenProvider.delete(id, outs);
    expect(await appTokenProvider.read(id, outs)).toEqual({ id: "" });
    await appTokenProvider.delete(id, outs); // already gone: done
    expect(emulator.ctx.stats.snapshot()["session.start"]).toBe(1);
  });

  it("adopts an existing token without creating one, and refuses what it cannot make true", async () => {
    const existing = await admin.appTokens.add({ hashType: "SHA1", description: "hand made" });
    const before = (await admin.appTokens.list({ statusEqual: 2 })).totalCount;
    const adopted = await appTokenProvider.create(await checked({ adoptId: existing.id, hashType: "SHA1", description: "adopted" }));
    expect(adopted.id).toBe(existing.id);
    expect((await admin.appTokens.list({ statusEqual: 2 })).totalCount).toBe(before);
    expect((await admin.appTokens.get(existing.id)).description).toBe("adopted");

    await expect(appTokenProvider.create(await checked({ adoptId: existing.id }))).rejects.toThrow(/hashType is SHA1 on the server but SHA256 in the program/);
    await expect(appTokenProvider.create(await checked({ adoptId: "0_doesnotexist" }))).rejects.toThrow(/adoptId: app token 0_doesnotexist was not found/);
  });

  it("clones and activates a template, reads it back, and finds it gone after an outside delete", async () => {
    const { inputs, failures } = await templateProvider.check(
      {},
      { systemTemplateName: "HTTP_ENTRY_ADDED", name: "Runtime hook", url: "https://hooks.example.com/r", signSecret: "runtime-secret-0123456789" },
    );
    expect(failures).toEqual([]);
    const { id, outs } = await templateProvider.create(inputs);
    expect(outs).toMatchObject({
      templateId: id,
      sourceTemplateId: "101",
      active: true,
      method: "POST",
      secureHashingAlgo: "SHA256",
      signSecret: "runtime-secret-0123456789",
    });
    const read = await templateProvider.read(id, outs);
    expect(read.props).toEqual(outs);
    await admin.templates.delete(id);
    expect(await templateProvider.read(id, outs)).toEqual({ id: "" });
    await templateProvider.delete(id, outs);
  });

  it("names the selector and lists what exists when no system template matches", async () => {
    const { inputs } = await templateProvider.check(
      {},
      { systemTemplateName: "HTTP_NOPE", name: "Bad hook", url: "https://hooks.example.com/r", signSecret: "runtime-secret-0123456789" },
    );
    await expect(templateProvider.create(inputs)).rejects.toThrow(
      /systemTemplateName: no HTTP system template matches HTTP_NOPE; available: 101 \(HTTP_ENTRY_ADDED\)/,
    );
  });
});
