/**
 * `pulumi-svc recover` as a whole (provider/cli/recover.ts) on a scripted `pulumi` CLI and the emulator in this
 * process: a state left by a dead runner (a pending create whose token the platform made, another whose template it
 * did not), another stack of the backend, and the platform's objects. The dry run changes nothing; a locked stack
 * stops everything; --yes deletes what the dead run made and clears its pending creates; nothing it prints holds a
 * secret; an ambiguity deletes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { recover } from "../../provider/cli/recover";
import { type PulumiCli, StackLockedError } from "../../provider/cli/recoverPulumi";
import { dynamicTypeToken } from "../../provider/resources/typeToken";
import { SvcClient } from "../../sdk";

const STACK_URN = "urn:pulumi:dev::app::pulumi:pulumi:Stack::app-dev";
const tokenUrn = (name: string) => `urn:pulumi:dev::app::${dynamicTypeToken("AppToken")}::${name}`;
const tokenFields = (description: string) => ({ description, hashType: "SHA256", sessionType: "USER", sessionPrivileges: "list:*" });

describe("pulumi-svc recover on a scripted CLI", () => {
  let emulator: RunningEmulator;
  let admin: SvcClient;
  let serial = 0;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
  });
  beforeEach(() => {
    serial++;
  });
  afterAll(async () => {
    await admin.close();
    await emulator.close();
  });

  const live = async (description: string) => (await admin.appTokens.iterate({ statusEqual: 2 }).toArray()).filter((t) => t.description === description);

  /** A CLI whose stack `dev` has the given pending creates and resources, and whose backend has one other stack. */
  function scriptedCli(pending: Record<string, unknown>[], options: { locked?: boolean; other?: Record<string, unknown> } = {}) {
    const calls: string[] = [];
    const deployment = (resources: Record<string, unknown>[], pendingOps: Record<string, unknown>[]) => ({
      version: 3,
      deployment: { manifest: { time: "2026-01-01T00:00:00Z" }, resources, pending_operations: pendingOps },
    });
    const own = deployment(
      [{ urn: STACK_URN, type: "pulumi:pulumi:Stack" }],
      pending.map((inputs, i) => ({ type: "creating", resource: { urn: tokenUrn(`t${i}`), type: dynamicTypeToken("AppToken"), inputs } })),
    );
    const cli: PulumiCli = {
      exportStack: async ({ stack } = {}) => {
        calls.push(`export ${stack ?? "dev"}`);
        return stack === "other"
          ? deployment(
              [options.other ?? {}].filter((r) => r.urn),
              [],
            )
          : own;
      },
      history: async () => [{ kind: "update", result: "succeeded", startTime: "2025-12-31T00:00:00Z", endTime: "2025-12-31T00:01:00Z" }],
      stacks: async () => ["dev", "other"],
      config: async () => ({
        "svc:baseUrl": { value: emulator.baseUrl },
        "svc:partnerId": { value: String(emulator.partnerId) },
        "svc:adminSecret": { value: emulator.adminSecret, secret: true },
        "svc:requestTimeoutMs": { value: "1000" },
      }),
      previewSteps: async () => [],
      probeLock: async () => {
        calls.push("probeLock");
        if (options.locked) throw new StackLockedError("the stack dev is locked");
      },
      clearPendingCreates: async () => {
        calls.push("clear");
      },
    };
    return { cli, calls };
  }

  it("a dry run prints the plan and changes nothing; --yes deletes what the dead run made and clears its creates", async () => {
    const made = `dead run ${serial}`;
    const token = await admin.appTokens.add({ hashType: "SHA256", description: made, sessionPrivileges: "list:*" });
    const { cli, calls } = scriptedCli([tokenFields(made), tokenFields(`never made ${serial}`)]);
    const lines: string[] = [];
    const dry = await recover({ stack: "dev" }, { cli, out: (line) => lines.push(line), maxSettleWaitMs: 0 });
    expect(dry.outcome).toBe("planned");
    expect(dry.plan?.deletes.map((d) => d.id)).toEqual([token.id]);
    expect(dry.plan?.clears).toHaveLength(2);
    expect(calls).not.toContain("clear");
    expect(await live(made)).toHaveLength(1);

    const done = await recover({ stack: "dev", yes: true }, { cli, out: (line) => lines.push(line), maxSettleWaitMs: 0 });
    expect(done.outcome).toBe("done");
    expect(await live(made)).toEqual([]);
    expect(calls.filter((c) => c === "probeLock" || c === "clear")).toEqual(["probeLock", "clear"]);
    const printed = lines.join("\n");
    expect(printed).toContain(`delete AppToken ${token.id}`);
    expect(printed).not.toContain(emulator.adminSecret);
    expect(printed).not.toContain(token.token as string);
  });

  /**
   * A stack whose newest update failed when its provider died before the first answer: the state records no svc
   * object (`provider`: the plugin's provider resource it does record), and the program plans `planned` again.
   */
  function diedBeforeFirstAnswer(
    planned: { type: string; inputs: Record<string, unknown>; provider?: string },
    options: { provider?: string; config?: boolean },
  ) {
    const now = Date.now();
    const resources: Record<string, unknown>[] = [{ urn: STACK_URN, type: "pulumi:pulumi:Stack" }];
    if (options.provider) {
      const [urn, id] = [options.provider.slice(0, options.provider.lastIndexOf("::")), options.provider.split("::").pop()];
      resources.push({
        urn,
        id,
        type: "pulumi:providers:svc",
        inputs: { baseUrl: emulator.baseUrl, partnerId: String(emulator.partnerId), adminSecret: emulator.adminSecret },
      });
    }
    const cli: PulumiCli = {
      exportStack: async ({ stack } = {}) => ({
        version: 3,
        deployment: stack === "other" ? {} : { manifest: { time: new Date(now).toISOString() }, resources },
      }),
      history: async () => [{ kind: "update", result: "failed", startTime: new Date(now - 5_000).toISOString(), endTime: new Date(now).toISOString() }],
      stacks: async () => ["dev"],
      config: async () =>
        options.config
          ? {
              "svc:baseUrl": { value: emulator.baseUrl },
              "svc:partnerId": { value: String(emulator.partnerId) },
              "svc:adminSecret": { value: emulator.adminSecret, secret: true },
            }
          : {},
      previewSteps: async () => [{ op: "create", urn: `urn:pulumi:dev::app::${planned.type}::t0`, newState: planned }],
      probeLock: async () => undefined,
      clearPendingCreates: async () => undefined,
    };
    return cli;
  }

  it.each([
    { via: "the plugin's provider in the state", type: "svc:index:AppToken", provider: "urn:pulumi:dev::app::pulumi:providers:svc::default_0_1_0::a1b2" },
    { via: "the stack's own account (stack config)", type: dynamicTypeToken("AppToken"), config: true },
  ])("a run killed before its first answer left an object and no record of it: found through $via and deleted", async ({ type, provider, config }) => {
    const made = `before the first answer ${serial}`;
    const token = await admin.appTokens.add({ hashType: "SHA256", description: made, sessionPrivileges: "list:*" });
    const cli = diedBeforeFirstAnswer(
      { type, inputs: tokenFields(made), ...(provider ? { provider } : {}) },
      { ...(provider ? { provider } : {}), config: config === true },
    );
    const lines: string[] = [];
    const result = await recover({ stack: "dev", yes: true }, { cli, out: (line) => lines.push(line), env: {}, maxSettleWaitMs: 0 });
    expect(result.outcome).toBe("done");
    expect(result.plan?.deletes.map((d) => d.id)).toEqual([token.id]);
    expect(await live(made)).toEqual([]);
    expect(lines.join("\n")).not.toContain(emulator.adminSecret);
  });

  it("a locked stack: says so, names pulumi cancel, changes nothing", async () => {
    const made = `locked ${serial}`;
    await admin.appTokens.add({ hashType: "SHA256", description: made, sessionPrivileges: "list:*" });
    const { cli, calls } = scriptedCli([tokenFields(made)], { locked: true });
    const lines: string[] = [];
    const result = await recover({ stack: "dev", yes: true }, { cli, out: (line) => lines.push(line), maxSettleWaitMs: 0 });
    expect(result.outcome).toBe("locked");
    expect(lines.join("\n")).toMatch(/pulumi cancel --stack dev --yes/);
    expect(calls).not.toContain("clear");
    expect(await live(made)).toHaveLength(1);
  });

  it("an object another stack records is never touched; an ambiguity deletes and clears nothing", async () => {
    const recorded = `recorded elsewhere ${serial}`;
    const theirs = await admin.appTokens.add({ hashType: "SHA256", description: recorded, sessionPrivileges: "list:*" });
    const other = { urn: "urn:pulumi:other::app::x::y", type: dynamicTypeToken("AppToken"), id: theirs.id, outputs: { partnerId: emulator.partnerId } };
    const first = scriptedCli([tokenFields(recorded)], { other });
    const kept = await recover({ stack: "dev", yes: true }, { cli: first.cli, out: () => undefined, maxSettleWaitMs: 0 });
    expect(kept.plan?.deletes).toEqual([]);
    expect(await live(recorded)).toHaveLength(1);

    const twice = `twice ${serial}`;
    await admin.appTokens.add({ hashType: "SHA256", description: twice, sessionPrivileges: "list:*" });
    await admin.appTokens.add({ hashType: "SHA256", description: twice, sessionPrivileges: "list:*" });
    const second = scriptedCli([tokenFields(twice)]);
    const lines: string[] = [];
    const result = await recover({ stack: "dev", yes: true }, { cli: second.cli, out: (line) => lines.push(line), maxSettleWaitMs: 0 });
    expect(result.outcome).toBe("ambiguous");
    expect(lines.join("\n")).toMatch(/AMBIGUOUS AppToken/);
    expect(second.calls).not.toContain("clear");
    expect(await live(twice)).toHaveLength(2);
  });
});
