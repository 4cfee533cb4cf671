/**
 * Creates that recover after an ambiguous failure, through the provider runtime against the emulator in this process
 * (no engine): the answer of an add or clone is lost after the platform acted (commitThenDrop, commitThenError, slow)
 * or before it acted (503, drop); the runtime finds what it made and adopts it, or creates again, or names the
 * candidates when it cannot tell. Deletes whose answer was lost succeed.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { FaultConfig } from "../../emulator/middleware/faults";
import { providerRuntime } from "../support/providerRuntime";
import { SvcClient } from "../../sdk";

/** A provider process of this file's own, with the runtime's handlers. */
const { session, appToken: appTokenProvider, httpNotificationTemplate: templateProvider } = providerRuntime();

describe("create recovery in the provider runtime", () => {
  let emulator: RunningEmulator;
  let admin: SvcClient;
  let dir: string;
  let eventsFile: string;
  let config: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    dir = mkdtempSync(join(tmpdir(), "svc-recovery-"));
    eventsFile = join(dir, "events.jsonl");
    process.env.SVC_PROVIDER_EVENTS_FILE = eventsFile;
    config = { "svc:baseUrl": emulator.baseUrl, "svc:partnerId": String(emulator.partnerId), "svc:adminSecret": emulator.adminSecret };
    session.configure({ get: (key) => config[key] });
  });
  beforeEach(() => emulator.ctx.faults.set({}));
  afterAll(async () => {
    delete process.env.SVC_PROVIDER_EVENTS_FILE;
    await session.close();
    await admin.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const faults = (config: FaultConfig) => emulator.ctx.faults.set(config);
  const events = () =>
    readFileSync(eventsFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const activeWith = async (description: string) => (await admin.appTokens.iterate({ statusEqual: 2 }).toArray()).filter((t) => t.description === description);
  const tokenInputs = async (description: string) => (await appTokenProvider.check({}, { description })).inputs;

  it.each([["commitThenDrop"], ["commitThenError"]] as const)("%s on add: the token made is adopted, none is duplicated", async (kind) => {
    const description = `recover ${kind}`;
    faults({ next: [kind], pathIncludes: "/appToken/action/add" });
    const { id, outs } = await appTokenProvider.create(await tokenInputs(description));
    const onServer = await activeWith(description);
    expect(onServer.map((t) => t.id)).toEqual([id]);
    expect(outs.token).toBe(onServer[0]?.token); // the value of the adopted token, readable by the account admin
    expect(events()).toContainEqual(expect.objectContaining({ type: "recovery", resource: "app token", outcome: "adopted", id }));
  });

  it("a slow answer past the attempt's timeout: the token made is adopted", async () => {
    config["svc:requestTimeoutMs"] = "1000"; // a new client for this connection
    try {
      faults({ next: ["slow"], slowMs: 2_500, pathIncludes: "/appToken/action/add" });
      const { id } = await appTokenProvider.create(await tokenInputs("recover slow"));
      expect((await activeWith("recover slow")).map((t) => t.id)).toEqual([id]);
      expect(events()).toContainEqual(expect.objectContaining({ type: "recovery", outcome: "adopted", id }));
    } finally {
      delete config["svc:requestTimeoutMs"];
    }
  });

  it.each([["error"], ["drop"]] as const)("%s before the platform acted: nothing is found, the token is created again", async (kind) => {
    const description = `recover ${kind} before`;
    faults({ next: [kind], pathIncludes: "/appToken/action/add" });
    const { id } = await appTokenProvider.create(await tokenInputs(description));
    expect((await activeWith(description)).map((t) => t.id)).toEqual([id]);
    expect(events()).toContainEqual(expect.objectContaining({ type: "recovery", resource: "app token", outcome: "createdAgain" }));
  });

  it("a token the stack already manages is never adopted, even with the same fields", async () => {
    const inputs = await tokenInputs("recover managed twin");
    const first = await appTokenProvider.create(inputs);
    faults({ next: ["error"], pathIncludes: "/appToken/action/add" });
    const second = await appTokenProvider.create(inputs);
    expect(second.id).not.toBe(first.id);
    expect((await activeWith("recover managed twin")).map((t) => t.id).sort()).toEqual([first.id, second.id].sort());
  });

  it.each([["commitThenDrop"], ["drop"]] as const)(
    "two identical tokens created at once, one add faulted (%s): two distinct tokens, none shared",
    async (kind) => {
      const description = `recover identical twins ${kind}`;
      const inputs = await tokenInputs(description);
      faults({ next: [kind], pathIncludes: "/appToken/action/add" });
      const [x, y] = await Promise.all([appTokenProvider.create(inputs), appTokenProvider.create(inputs)]);
      expect(x.id).not.toBe(y.id);
      expect((await activeWith(description)).map((t) => t.id).sort()).toEqual([x.id, y.id].sort());
    },
  );

  it("several candidates: a clear error naming their ids, nothing adopted", async () => {
    const a = await admin.appTokens.add({ hashType: "SHA256", description: "recover twins" });
    const b = await admin.appTokens.add({ hashType: "SHA256", description: "recover twins" });
    faults({ next: ["drop"], pathIncludes: "/appToken/action/add" });
    const error = (await appTokenProvider.create(await tokenInputs("recover twins")).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/app token create: the answer was lost .* 2 app tokens created since then match the declared fields/);
    expect(error.message).toContain(a.id);
    expect(error.message).toContain(b.id);
    expect(error.message).toContain("adoptId");
    expect(error.message).not.toContain(emulator.adminSecret);
    expect(error.message).not.toContain(a.token as string);
  });

  it("a delete whose answer was lost after it acted succeeds", async () => {
    const { id, outs } = await appTokenProvider.create(await tokenInputs("recover delete"));
    faults({ next: ["commitThenDrop"], pathIncludes: "/appToken/action/delete" });
    await expect(appTokenProvider.delete(id, outs)).resolves.toBeUndefined();
    expect(await activeWith("recover delete")).toEqual([]);
  });

  it("a template clone whose answer was lost is found by its systemName, adopted and activated; a lost activation converges", async () => {
    const inputs = (
      await templateProvider.check(
        {},
        { event: "entry.ready", name: "recovered hook", systemName: "recovered_hook", url: "https://hooks.example/in", signSecret: "s3cret-sign-0123456789" },
      )
    ).inputs;
    faults({ next: ["commitThenError"], pathIncludes: "/action/clone" });
    const { id, outs } = await templateProvider.create(inputs);
    expect(outs).toMatchObject({ active: true, systemName: "recovered_hook" });
    const all = await admin.templates.iterate({ systemNameEqual: "recovered_hook" }).toArray();
    expect(all.map((t) => t.id)).toEqual([id]);
    expect(events()).toContainEqual(expect.objectContaining({ type: "recovery", resource: "template", outcome: "adopted", id }));

    const second = (
      await templateProvider.check(
        {},
        { event: "entry.ready", name: "hook two", systemName: "hook_two", url: "https://hooks.example/in", signSecret: "s3cret-sign-0123456789" },
      )
    ).inputs;
    faults({ next: ["commitThenDrop"], pathIncludes: "/action/updateStatus" });
    const made = await templateProvider.create(second);
    expect(made.outs).toMatchObject({ active: true });
    expect((await admin.templates.iterate({ systemNameEqual: "hook_two" }).toArray()).map((t) => t.id)).toEqual([made.id]);
  });

  it("retries are recorded as events without any secret", async () => {
    faults({ next: ["throttle", "error"], retryAfterSeconds: 0, pathIncludes: "/appToken/action/" });
    await appTokenProvider.create(await tokenInputs("recover events"));
    const text = readFileSync(eventsFile, "utf8");
    expect(events()).toContainEqual(expect.objectContaining({ type: "retry", service: "appToken", action: "add", reason: "status 429" }));
    expect(text).not.toContain(emulator.adminSecret);
    for (const t of await admin.appTokens.iterate().toArray()) expect(text).not.toContain(t.token as string);
  });
});
