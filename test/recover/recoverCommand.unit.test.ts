/**
 * `pulumi-svc recover` as a whole (provider/cli/recover.ts) on a scripted `pulumi` CLI and the emulator in this
 * process. What it deletes is only what an interrupted run of this stack provably made; everything a user still has
 * stays: adopted tokens, a token made by hand before the run with the same fields, tokens a live run has just
 * recorded, another account's objects, another stack's. The dry run changes nothing and prints a plan a person can
 * judge; --yes --expect-plan acts on exactly that plan; nothing printed holds a secret.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { recover } from "../../provider/cli/recover";
import { lockedError, type PulumiCli, StackLockedError } from "../../provider/cli/recoverPulumi";
import { dynamicTypeToken } from "../../provider/resources/typeToken";
import { SvcClient } from "../../sdk";

const STACK_URN = "urn:pulumi:dev::app::pulumi:pulumi:Stack::app-dev";
const tokenUrn = (name: string) => `urn:pulumi:dev::app::${dynamicTypeToken("AppToken")}::${name}`;
const tokenFields = (description: string) => ({ description, hashType: "SHA256", sessionType: "USER", sessionPrivileges: "list:*" });
const iso = (ms: number) => new Date(ms).toISOString();

interface Script {
  /** Pending creates of stack dev (their inputs). */
  pending?: Record<string, unknown>[];
  /** Resources of stack dev besides its root. */
  resources?: Record<string, unknown>[];
  /** The history of dev (default: one success long ago). */
  history?: Record<string, unknown>[];
  /** The lock a dead run left (its time), probed until released. */
  lockedSince?: number;
  /** The probes after which a live run holds the lock (1-based). */
  lockedAtProbe?: number;
  /** Stack `other`: its resources and pending creates; `otherLater` replaces it from the second read on. */
  other?: { resources?: Record<string, unknown>[]; pending?: Record<string, unknown>[] };
  otherLater?: { resources?: Record<string, unknown>[]; pending?: Record<string, unknown>[] };
  /** Stack config (default: the emulator's account, the admin secret as a secret). */
  config?: Record<string, unknown>;
  previewSteps?: Record<string, unknown>[];
}

describe("pulumi-svc recover on a scripted CLI", () => {
  let emulator: RunningEmulator;
  let admin: SvcClient;
  let serial = 0;
  /** The emulator's clock runs this far behind while a test makes an "old" object. */
  let skewMs = 0;
  const DAY = 86_400_000;
  const madeAgo = async <T>(ms: number, make: () => Promise<T>): Promise<T> => {
    skewMs = -ms;
    try {
      return await make();
    } finally {
      skewMs = 0;
    }
  };

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true, now: () => Date.now() + skewMs });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
  });
  beforeEach(() => {
    serial++;
  });
  afterAll(async () => {
    await admin.close();
    await emulator.close();
  });

  const accountConfig = () => ({
    "svc:baseUrl": { value: emulator.baseUrl },
    "svc:partnerId": { value: String(emulator.partnerId) },
    "svc:adminSecret": { value: emulator.adminSecret, secret: true },
    "svc:requestTimeoutMs": { value: "1000" },
  });
  const live = async (description: string) => (await admin.appTokens.iterate({ statusEqual: 2 }).toArray()).filter((t) => t.description === description);
  const addToken = (description: string) => admin.appTokens.add({ hashType: "SHA256", description, sessionPrivileges: "list:*" });

  function scriptedCli(script: Script) {
    const calls: string[] = [];
    let locked = script.lockedSince !== undefined;
    let probes = 0;
    let otherReads = 0;
    const deployment = (resources: Record<string, unknown>[], pending: Record<string, unknown>[], stack = "dev") => ({
      version: 3,
      deployment: {
        manifest: { time: iso(Date.now()) },
        resources,
        pending_operations: pending.map((inputs, i) => ({
          type: "creating",
          resource: { urn: tokenUrn(`${stack}-t${i}`).replace(":dev::", `:${stack}::`), type: dynamicTypeToken("AppToken"), inputs },
        })),
      },
    });
    const cli: PulumiCli = {
      exportStack: async ({ stack, showSecrets } = {}) => {
        calls.push(`export ${stack ?? "dev"}${showSecrets ? " secrets" : ""}`);
        if (stack === "other") {
          const other = otherReads++ > 0 && script.otherLater ? script.otherLater : (script.other ?? {});
          return deployment(other.resources ?? [], other.pending ?? [], "other");
        }
        return deployment([{ urn: STACK_URN, type: "pulumi:pulumi:Stack" }, ...(script.resources ?? [])], script.pending ?? []);
      },
      history: async () =>
        (script.history ?? [{ kind: "update", result: "succeeded", startTime: "2025-12-31T00:00:00Z", endTime: "2025-12-31T00:01:00Z" }]) as never,
      stacks: async () => ["dev", ...(script.other || script.otherLater ? ["other"] : [])],
      config: async () => script.config ?? accountConfig(),
      previewSteps: async () => (script.previewSteps ?? []) as never,
      probeLock: async (urn) => {
        probes++;
        calls.push(`probeLock ${urn}`);
        if (locked) {
          const at = new Date(script.lockedSince ?? Date.now()).toISOString();
          throw lockedError(
            "dev",
            `error: the stack is currently locked by 1 lock(s).\n  file:///b/.pulumi/locks/organization/app/dev/1.json: created by ci@runner (pid 7) at ${at}`,
          );
        }
        if (script.lockedAtProbe !== undefined && probes >= script.lockedAtProbe) throw new StackLockedError("the stack dev is locked");
      },
      clearPendingCreates: async () => {
        calls.push("clear");
      },
      cancel: async () => {
        calls.push("cancel");
        locked = false;
      },
    };
    return { cli, calls };
  }

  const run = async (script: ReturnType<typeof scriptedCli>, options: Partial<Parameters<typeof recover>[0]> = {}, env: NodeJS.ProcessEnv = {}) => {
    const lines: string[] = [];
    const result = await recover({ stack: "dev", ...options }, { cli: script.cli, out: (line) => lines.push(line), env, maxSettleWaitMs: 0 });
    return { result, printed: lines.join("\n") };
  };

  it("a dead run's lock bounds its window: what it made is deleted; the same token made by hand before the run stays (finding 2)", async () => {
    const fields = `dead run ${serial}`;
    const byHand = await madeAgo(90 * DAY, () => addToken(fields)); // a token made by hand months ago
    const otherBackend = await madeAgo(10 * DAY, () => addToken(fields)); // another backend's stack, 10 days ago
    const lockedSince = Date.now() - 5 * 60_000;
    const made = await addToken(fields);
    const script = scriptedCli({ pending: [tokenFields(fields), tokenFields(`never made ${serial}`)], lockedSince, history: [] });

    const refused = await run(script, { yes: true });
    expect(refused.result.outcome).toBe("locked");
    expect(refused.printed).toMatch(/--release-lock/);
    expect(refused.printed).toContain(new Date(lockedSince).toISOString().slice(0, 19));
    // The lock is probed before the state's secrets are read: a run in progress stops everything.
    expect(script.calls.filter((c) => c.startsWith("export dev secrets"))).toEqual([]);

    const dry = await run(script, { releaseLock: true });
    expect(dry.result.outcome).toBe("planned");
    expect(script.calls).not.toContain("cancel");
    expect(dry.result.plan?.deletes.map((d) => d.id)).toEqual([made.id]);
    const escaped = emulator.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(dry.printed).toMatch(
      new RegExp(
        `delete AppToken ${made.id} "${fields}" in account ${escaped} partner ${emulator.partnerId}, created \\S+ \\(\\d+ s ago\\): made inside the run whose lock was taken at`,
      ),
    );
    const digest = dry.result.digest!;
    expect(dry.printed).toContain(`--expect-plan ${digest}`);

    const wrong = await run(script, { yes: true, releaseLock: true, expectPlan: "000000000000" });
    expect(wrong.result.outcome).toBe("changed");
    expect(await live(fields)).toHaveLength(3);

    const again = scriptedCli({ pending: [tokenFields(fields), tokenFields(`never made ${serial}`)], lockedSince, history: [] });
    const done = await run(again, { yes: true, releaseLock: true, expectPlan: digest });
    expect(done.result.outcome).toBe("done");
    expect(again.calls).toContain("cancel");
    expect((await live(fields)).map((t) => t.id).sort()).toEqual([byHand.id, otherBackend.id].sort());
    expect(done.printed).not.toContain(emulator.adminSecret);
    expect(done.printed).not.toContain(made.token as string);
  });

  it("pending creates whose run cannot be bounded (the lock released by hand, no failed update): nothing deleted, nothing cleared, exit 2", async () => {
    const fields = `unbounded ${serial}`;
    await addToken(fields);
    const script = scriptedCli({ pending: [tokenFields(fields)] });
    const { result, printed } = await run(script, { yes: true });
    expect(result.outcome).toBe("ambiguous");
    expect(printed).toMatch(/cannot be bounded in time/);
    expect(script.calls).not.toContain("clear");
    expect(await live(fields)).toHaveLength(1);
  });

  it("adopted tokens are never deleted: a pending adoption, an adoption another stack records, one the program declares (finding 1)", async () => {
    const fields = `adopted ${serial}`;
    const lockedSince = Date.now() - 1_000;
    const [a, b, c] = [await addToken(fields), await addToken(fields), await addToken(fields)];
    const script = scriptedCli({
      pending: [{ ...tokenFields(fields), adoptId: a.id }],
      other: {
        resources: [
          { urn: "urn:pulumi:other::app::x::y", type: dynamicTypeToken("AppToken"), id: "0_else", inputs: { ...tokenFields(fields), adoptId: b.id } },
        ],
      },
      previewSteps: [{ op: "create", urn: tokenUrn("p"), newState: { type: dynamicTypeToken("AppToken"), inputs: { ...tokenFields(fields), adoptId: c.id } } }],
      lockedSince,
    });
    const { result } = await run(script, { yes: true, releaseLock: true });
    expect(result.plan?.deletes).toEqual([]);
    expect(result.plan?.clears).toEqual([expect.objectContaining({ reason: expect.stringMatching(/adoption/) })]);
    expect(await live(fields)).toHaveLength(3);
  });

  it("a live run: the lock probed first stops everything; a run that records an object before the deletes stops them (finding 3)", async () => {
    const fields = `live ${serial}`;
    const lockedSince = Date.now() - 1_000;
    const token = await addToken(fields);
    const busy = scriptedCli({ pending: [tokenFields(fields)], history: [], lockedAtProbe: 1 });
    expect((await run(busy, { yes: true })).result.outcome).toBe("locked");
    expect(busy.calls.filter((c) => c.startsWith("export dev secrets"))).toEqual([]);

    // Between the plan and the deletes a run takes the lock: the second probe refuses.
    const later = scriptedCli({ pending: [tokenFields(fields)], lockedSince, lockedAtProbe: 3 });
    const second = await run(later, { yes: true, releaseLock: true });
    expect(second.result.outcome).toBe("locked");
    expect(await live(fields)).toHaveLength(1);

    // Another stack records the object by the time recover would delete it (read again right before): nothing deleted.
    const recordedMeanwhile = scriptedCli({
      pending: [tokenFields(fields)],
      lockedSince,
      other: {},
      otherLater: { resources: [{ urn: "urn:pulumi:other::app::x::y", type: dynamicTypeToken("AppToken"), id: token.id }] },
    });
    const third = await run(recordedMeanwhile, { yes: true, releaseLock: true });
    expect(third.result.outcome).toBe("changed");
    expect(recordedMeanwhile.calls).not.toContain("clear");
    expect(await live(fields)).toHaveLength(1);
  });

  it("the account comes from the state or the stack config, never from recover's own environment (finding 6)", async () => {
    const fields = `environment ${serial}`;
    const lockedSince = Date.now() - 1_000;
    await addToken(fields);
    const env = { SVC_BASE_URL: emulator.baseUrl, SVC_PARTNER_ID: String(emulator.partnerId), SVC_ADMIN_SECRET: emulator.adminSecret };
    const script = scriptedCli({ pending: [tokenFields(fields)], lockedSince, config: {} });
    const refused = await run(script, { yes: true, releaseLock: true }, env);
    expect(refused.result.outcome).toBe("ambiguous");
    expect(refused.printed).toMatch(/--account-from-environment/);
    expect(await live(fields)).toHaveLength(1);

    // On the user's word, the environment serves; but not when the state records objects of another partner.
    const otherPartner = scriptedCli({
      pending: [tokenFields(fields)],
      lockedSince,
      config: {},
      resources: [{ urn: tokenUrn("kept"), type: dynamicTypeToken("AppToken"), id: "0_kept", inputs: {}, outputs: { partnerId: emulator.partnerId + 1 } }],
    });
    const mismatch = await run(otherPartner, { yes: true, releaseLock: true, accountFromEnvironment: true }, env);
    expect(mismatch.result.outcome).toBe("ambiguous");
    expect(mismatch.printed).toMatch(/not the run's SVC_\* variables/);
    expect(await live(fields)).toHaveLength(1);
    expect(`${refused.printed}${mismatch.printed}`).not.toContain(emulator.adminSecret);

    const agreed = await run(
      scriptedCli({ pending: [tokenFields(fields)], lockedSince, config: {} }),
      { yes: true, releaseLock: true, accountFromEnvironment: true },
      env,
    );
    expect(agreed.result.outcome).toBe("done");
    expect(await live(fields)).toEqual([]);
  });

  it("a named account (issue 40): read from the provider's `accounts` in the state, by the resource's `account`", async () => {
    const fields = `named ${serial}`;
    const lockedSince = Date.now() - 1_000;
    const token = await addToken(fields);
    const provider = "urn:pulumi:dev::app::pulumi:providers:svc::resellers::p1";
    const accounts = { east: { baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, adminSecret: emulator.adminSecret } };
    const script = scriptedCli({
      lockedSince,
      config: {},
      resources: [{ urn: provider.slice(0, provider.lastIndexOf("::")), id: "p1", type: "pulumi:providers:svc", inputs: { accounts } }],
    });
    // The plugin's pending create names its provider and its account.
    const cli: PulumiCli = {
      ...script.cli,
      exportStack: async (options) => {
        const exported = (await script.cli.exportStack(options)) as { deployment: { pending_operations: unknown[] } };
        exported.deployment.pending_operations = [
          {
            type: "creating",
            resource: {
              urn: "urn:pulumi:dev::app::svc:index:AppToken::t0",
              type: "svc:index:AppToken",
              provider,
              inputs: { ...tokenFields(fields), account: "east" },
            },
          },
        ];
        return exported;
      },
    };
    const lines: string[] = [];
    const result = await recover({ stack: "dev", yes: true, releaseLock: true }, { cli, out: (line) => lines.push(line), env: {}, maxSettleWaitMs: 0 });
    expect(result.outcome).toBe("done");
    expect(result.plan?.deletes.map((d) => d.id)).toEqual([token.id]);
    expect(await live(fields)).toEqual([]);
    expect(lines.join("\n")).not.toContain(emulator.adminSecret);
  });

  it("another stack's pending create with the same fields: an ambiguity, its pending creates kept (finding 7)", async () => {
    const fields = `two stacks ${serial}`;
    const lockedSince = Date.now() - 1_000;
    await addToken(fields);
    await addToken(fields);
    const script = scriptedCli({ pending: [tokenFields(fields)], lockedSince, other: { pending: [tokenFields(fields)] } });
    const { result, printed } = await run(script, { yes: true, releaseLock: true });
    expect(result.outcome).toBe("ambiguous");
    expect(printed).toMatch(/pending create of other/);
    expect(printed).not.toMatch(/holds no object|no object with its fields/);
    expect(script.calls).not.toContain("clear");
    expect(await live(fields)).toHaveLength(2);
  });

  it("a state with no root resource is probed on the root's URN all the same (finding 9)", async () => {
    const fields = `rootless ${serial}`;
    const script = scriptedCli({ pending: [tokenFields(fields)], lockedAtProbe: 1, history: [] });
    // A state whose only entry is a pending create: the root's URN comes from the create's.
    const cli: PulumiCli = {
      ...script.cli,
      exportStack: async () => ({
        version: 3,
        deployment: {
          resources: [],
          pending_operations: [{ type: "creating", resource: { urn: tokenUrn("t0"), type: dynamicTypeToken("AppToken"), inputs: tokenFields(fields) } }],
        },
      }),
    };
    const lines: string[] = [];
    const result = await recover({ stack: "dev", yes: true }, { cli, out: (line) => lines.push(line), env: {}, maxSettleWaitMs: 0 });
    expect(result.outcome).toBe("locked");
    expect(script.calls).toContain(`probeLock ${STACK_URN}`);
  });
});

describe("the lock errors of every backend the docs name (finding 9)", () => {
  it("DIY backends name each lock and its time; Pulumi Cloud's conflict is a lock too; anything else is not", () => {
    const diy = lockedError(
      "dev",
      "error: the stack is currently locked by 2 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
        "  postgres://****:****@db/state/.pulumi/locks/organization/app/dev/a.json: created by ci@runner-1 (pid 12) at 2026-11-28T15:04:05Z\n" +
        "  s3://bucket/.pulumi/locks/organization/app/dev/b.json: created by me@laptop (pid 3) at 2026-11-28T15:05:00+01:00",
    );
    expect(diy?.holders.map((h) => [h.owner, h.takenAt.toISOString()])).toEqual([
      ["ci@runner-1", "2026-11-28T15:04:05.000Z"],
      ["me@laptop", "2026-11-28T14:05:00.000Z"],
    ]);
    expect(lockedError("dev", "error: [409] Conflict: Another update is currently in progress.")).toBeInstanceOf(StackLockedError);
    expect(lockedError("dev", "error: Another update is currently in progress.")?.holders).toEqual([]);
    expect(lockedError("dev", "error: failed to load checkpoint: EOF")).toBeUndefined();
  });
});
