/**
 * Creates interrupted by the plugin's Cancel, by the operation's deadline, or by the engine stopping the process,
 * through the provider runtime against the emulator in this process (no engine). An object the platform committed
 * before the interruption is reported as a partial create with its id (Cancel, deadline: the engine still records
 * answers) or deleted (the engine stopping: it records nothing any more); an interruption before the platform acted
 * is a plain error and leaves nothing. The emulator's `slow` fault commits, then holds the answer; `throttle` refuses.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { PartialCreateError } from "../../provider/core/errors";
import type { ProviderProcessOptions } from "../../provider/core/providerProcess";
import type { ResourceHandlers } from "../../provider/runtime/handlers";
import { SvcClient } from "../../sdk";
import { providerRuntime } from "../support/providerRuntime";

const SIGN_SECRET = "cancel-sign-secret-0123456789";
/** The runtime of the test that runs (a provider process of its own: Cancel and termination end it for good). */
let runtime = providerRuntime();
/** A new provider process for what follows (a new process: Cancel undone, nothing answered yet), with `options`. */
const renew = async (options?: ProviderProcessOptions): Promise<void> => {
  await runtime.session.close();
  runtime = providerRuntime(options);
};
const SHORT_DEADLINE = { operationDeadlineMs: 1_500 };

interface Kind {
  name: string;
  provider: ResourceHandlers;
  /** The create call's path on the wire, for faults. */
  createPath: string;
  inputs(marker: string): Record<string, unknown>;
}

const KINDS: Kind[] = [
  {
    name: "app token",
    get provider() {
      return runtime.appToken;
    },
    createPath: "/appToken/action/add",
    inputs: (marker) => ({ description: marker, keepers: { rotation: "1" } }),
  },
  {
    name: "HTTP template",
    get provider() {
      return runtime.httpNotificationTemplate;
    },
    createPath: "/action/clone",
    inputs: (marker) => ({ event: "entry.ready", name: `hook ${marker}`, systemName: marker, url: "https://hooks.example/in", signSecret: SIGN_SECRET }),
  },
  {
    name: "email template",
    get provider() {
      return runtime.emailNotificationTemplate;
    },
    createPath: "/action/clone",
    inputs: (marker) => ({
      event: "entry.ready",
      name: `mail ${marker}`,
      systemName: marker,
      subject: "Ready: {entry_name}",
      body: "Entry {entry_name} is ready.",
      fromEmail: "video@example.com",
      to: [{ email: "editors@example.com" }],
    }),
  },
];

describe("creates interrupted by Cancel, the deadline or the engine stopping", () => {
  let emulator: RunningEmulator;
  let admin: SvcClient;
  let dir: string;
  let eventsFile: string;
  let serial = 0;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    dir = mkdtempSync(join(tmpdir(), "svc-cancel-"));
    eventsFile = join(dir, "events.jsonl");
    process.env.SVC_PROVIDER_EVENTS_FILE = eventsFile;
  });
  // Cancel and termination end a session for good: each test starts from a fresh one.
  afterEach(async () => {
    emulator.ctx.faults.set({});
    await renew();
  });
  afterAll(async () => {
    delete process.env.SVC_PROVIDER_EVENTS_FILE;
    await runtime.session.close();
    await admin.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Configures the session for the emulator's account (`extra`: more stack config); a fresh marker. */
  const start = (extra: Record<string, string> = {}) => {
    const values: Record<string, string> = {
      "svc:baseUrl": emulator.baseUrl,
      "svc:partnerId": String(emulator.partnerId),
      "svc:adminSecret": emulator.adminSecret,
      ...extra,
    };
    runtime.session.configure({ get: (key) => values[key] });
    return `cancel_${++serial}`;
  };
  const checked = async (kind: Kind, marker: string) => {
    const { inputs, failures } = await kind.provider.check({}, kind.inputs(marker));
    expect(failures).toEqual([]);
    return inputs;
  };
  /** The live (not deleted) objects of the account carrying the marker, as the platform has them. */
  const live = async (kind: Kind, marker: string): Promise<{ id: string; token?: string; status: number }[]> => {
    if (kind.name === "app token") return (await admin.appTokens.iterate({ statusEqual: 2 }).toArray()).filter((t) => t.description === marker);
    const all =
      kind.name === "HTTP template"
        ? await admin.templates.iterate({ systemNameEqual: marker }).toArray()
        : await admin.emailTemplates.iterate({ systemNameEqual: marker }).toArray();
    return all.filter((t) => t.status !== 3);
  };
  const events = () =>
    readFileSync(eventsFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const committed = (kind: Kind, marker: string) => vi.waitFor(async () => expect(await live(kind, marker)).toHaveLength(1), { timeout: 10_000, interval: 20 });

  describe.each(KINDS)("$name", (kind) => {
    /** Starts a create whose platform call commits, then holds its answer; resolves once the object exists. */
    const committedCreate = async (marker: string) => {
      const inputs = await checked(kind, marker);
      emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: kind.createPath });
      const creating = kind.provider.create(inputs).catch((error: unknown) => error);
      await committed(kind, marker);
      const [made] = await live(kind, marker);
      return { creating, made: made! };
    };

    it("the deadline passes after the platform committed: a partial create with the id and what is known; the object stays", async () => {
      await renew(SHORT_DEADLINE);
      const marker = start();
      const { creating, made } = await committedCreate(marker);
      const partial = (await creating) as PartialCreateError;

      expect(partial).toBeInstanceOf(PartialCreateError);
      expect(partial.id).toBe(made.id);
      expect(partial.message).toMatch(/interrupted/);
      if (kind.name === "app token") {
        // What is known includes the token's value, so the state holds a usable token (the caller wraps it as a secret).
        expect(partial.properties).toMatchObject({ tokenId: made.id, token: made.token, description: marker });
        expect(partial.message).not.toContain(made.token as string);
      } else {
        expect(partial.properties).toMatchObject({ templateId: made.id, systemName: marker, active: false });
        expect(partial.message).not.toContain(SIGN_SECRET);
      }
      expect(partial.message).not.toContain(emulator.adminSecret);
      expect(await live(kind, marker)).toEqual([expect.objectContaining({ id: made.id })]);
      expect(events()).toContainEqual(expect.objectContaining({ type: "interrupted", outcome: "found", id: made.id }));
    });

    it("Cancel after the platform committed: the object is deleted and the answer records nothing (safe to lose)", async () => {
      const marker = start();
      const { creating, made } = await committedCreate(marker);
      runtime.session.cancel();
      const error = (await creating) as Error;

      expect(error).not.toBeInstanceOf(PartialCreateError);
      expect(error.message).toMatch(/cancelled before it finished; it was deleted, so nothing is left behind/);
      expect(await live(kind, marker)).toEqual([]);
      expect(events()).toContainEqual(expect.objectContaining({ type: "interrupted", outcome: "deleted", id: made.id }));
    });

    it("Cancel after the platform committed, and its delete fails: a partial create with the id, for the engine to record", async () => {
      const marker = start();
      const { creating, made } = await committedCreate(marker);
      // A 501 is final (not retried): the delete fails at once, as it would after its retries ran out.
      emulator.ctx.faults.set({ next: Array(500).fill("error"), errorStatus: 501, pathIncludes: "/action/delete" });
      runtime.session.cancel();
      const partial = (await creating) as PartialCreateError;

      expect(partial).toBeInstanceOf(PartialCreateError);
      expect(partial.id).toBe(made.id);
      expect(partial.message).toMatch(/deleting it failed/);
      expect(await live(kind, marker)).toEqual([expect.objectContaining({ id: made.id })]);
      expect(events()).toContainEqual(expect.objectContaining({ type: "interrupted", outcome: "reported", id: made.id }));
    });

    it.each(["Cancel", "the deadline"] as const)(
      "interrupted by %s while the platform keeps failing before it acts: a plain error, nothing left",
      async (trigger) => {
        if (trigger === "the deadline") await renew(SHORT_DEADLINE);
        // A request cut in flight is looked for until its timeout: a short one keeps the test short.
        const marker = start({ "svc:requestTimeoutMs": "1000" });
        const inputs = await checked(kind, marker);
        // 503 before acting, every time: the create's recovery finds nothing and creates again, until interrupted.
        emulator.ctx.faults.set({ next: Array(200).fill("error"), pathIncludes: kind.createPath });
        const creating = kind.provider.create(inputs).catch((error: unknown) => error);
        if (trigger === "Cancel") {
          await vi.waitFor(() => expect(emulator.ctx.faults.get().injected.error).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 20 });
          runtime.session.cancel();
        }
        const error = await creating;

        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(PartialCreateError);
        expect(await live(kind, marker)).toEqual([]);
        expect(events()).toContainEqual(
          expect.objectContaining({ type: "interrupted", resource: expect.stringContaining(kind.name.split(" ").pop()!), outcome: "nothingMade" }),
        );
      },
    );

    it("Cancel while the create waits out a 429's Retry-After: a plain error at once, no look-up, nothing left", async () => {
      // The default request timeout (30 s): nothing the create sent can still act, so none of it is waited for.
      const marker = start();
      const inputs = await checked(kind, marker);
      emulator.ctx.faults.set({ next: Array(20).fill("throttle"), retryAfterSeconds: 600, pathIncludes: kind.createPath });
      const throttled = () => (existsSync(eventsFile) ? events() : []).filter((e) => e.type === "retry" && e.status === 429).length;
      const throttledBefore = throttled();
      const creating = kind.provider.create(inputs).catch((error: unknown) => error);
      // The client has its 429 (the provider notes the retry before waiting): nothing of the create is on the wire.
      await vi.waitFor(() => expect(throttled()).toBeGreaterThan(throttledBefore), { timeout: 10_000, interval: 20 });
      emulator.ctx.stats.reset();
      runtime.session.cancel();
      const error = (await creating) as Error;

      expect(error).not.toBeInstanceOf(PartialCreateError);
      expect(error.message).toMatch(/cancelled/);
      // Not looked for: every request it sent was answered 429, before the platform acted.
      expect(Object.keys(emulator.ctx.stats.snapshot()).filter((call) => call.endsWith(".list"))).toEqual([]);
      expect(await live(kind, marker)).toEqual([]);
    });

    it("Cancel while the create's request is on the wire: it is looked for until it can no longer commit; what it commits after the Cancel is deleted", async () => {
      const marker = start();
      const inputs = await checked(kind, marker);
      // The platform holds the request 1 s, then acts on it: after the Cancel.
      emulator.ctx.faults.set({ next: ["late"], slowMs: 1_000, pathIncludes: kind.createPath });
      const creating = kind.provider.create(inputs).catch((error: unknown) => error);
      await vi.waitFor(() => expect(emulator.ctx.faults.get().injected.late).toBe(1), { timeout: 10_000, interval: 10 });
      runtime.session.cancel();
      expect(await live(kind, marker)).toEqual([]);
      const error = (await creating) as Error;

      expect(error).not.toBeInstanceOf(PartialCreateError);
      expect(error.message).toMatch(/cancelled before it finished; it was deleted, so nothing is left behind/);
      expect(await live(kind, marker)).toEqual([]);
    });

    it("cancelled before anything was sent: a plain error, nothing left", async () => {
      const marker = start();
      const inputs = await checked(kind, marker);
      runtime.session.cancel();
      const error = await kind.provider.create(inputs).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/cancelled/);
      expect(await live(kind, marker)).toEqual([]);
    });

    it("the engine stops the process after the platform committed: the object is deleted before the exit, nothing left", async () => {
      const marker = start();
      const inputs = await checked(kind, marker);
      emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: kind.createPath });
      const creating = kind.provider.create(inputs).catch((error: unknown) => error);
      const [made] = await (async () => {
        await committed(kind, marker);
        return live(kind, marker);
      })();
      // What the process's SIGINT handler runs: it resolves once the creates in flight have settled.
      await runtime.session.termination.settleBeforeExit();
      const error = (await creating) as Error;
      expect(error).not.toBeInstanceOf(PartialCreateError);
      expect(error.message).toMatch(/the engine stopped this process before it finished; it was deleted, so nothing is left behind/);
      expect(await live(kind, marker)).toEqual([]);
      expect(events()).toContainEqual(expect.objectContaining({ type: "interrupted", outcome: "deleted", id: made?.id }));
    });
  });

  it("an HTTP template whose activation outlives the deadline: a partial create of the clone, finished by the next update", async () => {
    const kind = KINDS[1]!;
    await renew(SHORT_DEADLINE);
    const marker = start();
    const inputs = await checked(kind, marker);
    emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: "/action/updateStatus" });
    const creating = kind.provider.create(inputs).catch((error: unknown) => error);
    const partial = (await creating) as PartialCreateError;
    expect(partial).toBeInstanceOf(PartialCreateError);
    const [onServer] = await live(kind, marker);
    expect(partial.id).toBe(onServer?.id);

    // The next run (a new process): the engine has the partial state and updates it to the declared one.
    await renew();
    start();
    const { outs } = await kind.provider.update(partial.id, partial.properties, inputs);
    expect(outs).toMatchObject({ templateId: partial.id, active: true });
    expect(await live(kind, marker)).toEqual([expect.objectContaining({ id: partial.id, status: 2 })]);
  });

  it("the end of a run (SIGINT with nothing in flight) deletes nothing; a termination keeps every answered create and deletes what the create in flight made", async () => {
    const kind = KINDS[0]!;
    const earlier = start();
    const made = await kind.provider.create(await checked(kind, earlier));
    // The end of a run: everything was answered and recorded.
    await runtime.session.termination.settleBeforeExit();
    expect(await live(kind, earlier)).toEqual([expect.objectContaining({ id: made.id })]);

    await renew();
    const before = start();
    const answered = await kind.provider.create(await checked(kind, before));
    const inFlight = start();
    emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: kind.createPath });
    const creating = kind.provider.create(await checked(kind, inFlight)).catch((error: unknown) => error);
    await committed(kind, inFlight);
    const [unanswered] = await live(kind, inFlight);
    // A termination: the answered create may be in the state, so it stays; the one in flight never answers.
    const { leftBehind } = await runtime.session.termination.settleBeforeExit();
    expect(await creating).toBeInstanceOf(Error);
    expect(await live(kind, before)).toEqual([expect.objectContaining({ id: answered.id })]);
    expect(await live(kind, inFlight)).toEqual([]);
    expect(leftBehind).toEqual([]);
    expect(events()).toContainEqual(expect.objectContaining({ type: "interrupted", outcome: "deleted", id: unanswered?.id }));
    expect(events().filter((event) => event.id === answered.id)).toEqual([]);
  });

  it("an object adopted by id (adoptId) existed before the run: neither Cancel nor a termination deletes it", async () => {
    const kind = KINDS[0]!;
    const marker = start();
    const existing = await admin.appTokens.add({ hashType: "SHA256", description: marker });
    const adopted = await kind.provider.create({ ...(await checked(kind, marker)), adoptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    const { creating } = await (async () => {
      const other = start();
      const inputs = await checked(kind, other);
      emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: kind.createPath });
      const pending = kind.provider.create(inputs).catch((error: unknown) => error);
      await committed(kind, other);
      return { creating: pending };
    })();
    await runtime.session.termination.settleBeforeExit();
    await creating;
    expect(await live(kind, marker)).toEqual([expect.objectContaining({ id: existing.id })]);
  });

  it("a token found after the deadline whose value this connection cannot read is deleted, not recorded useless", async () => {
    const kind = KINDS[0]!;
    const marker = start();
    // A connection through an ADMIN app token, not the account's admin secret: the platform returns a token's value on
    // add only, so a token found by a look-up comes without it.
    const pipeline = await admin.appTokens.add({ hashType: "SHA256", sessionType: 2, description: `${marker} pipeline` });
    const values: Record<string, string> = {
      "svc:baseUrl": emulator.baseUrl,
      "svc:partnerId": String(emulator.partnerId),
      "svc:appTokenId": pipeline.id,
      "svc:appToken": pipeline.token as string,
    };
    await renew(SHORT_DEADLINE);
    runtime.session.configure({ get: (key) => values[key] });
    const inputs = await checked(kind, marker);
    emulator.ctx.faults.set({ next: ["slow"], slowMs: 30_000, pathIncludes: kind.createPath });
    const error = (await kind.provider.create(inputs).catch((e: unknown) => e)) as Error;

    expect(error).not.toBeInstanceOf(PartialCreateError);
    expect(error.message).toMatch(/could not be used and was deleted, so nothing is left behind/);
    expect(await live(kind, marker)).toEqual([]);
  });
});
