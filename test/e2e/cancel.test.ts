/**
 * An `up` interrupted as a CI job cancel does it, through the real engine, on both providers: `pulumi up` of 20 app
 * tokens and 5 templates (3 HTTP, 2 email) on an emulator answering every request late, interrupted by two SIGINTs
 * to the CLI (the first cancels: the engine calls each provider's Cancel and waits for the steps in flight; the
 * second terminates: the engine closes its providers, which get SIGINT and 5 s before SIGKILL). Then the documented
 * recovery step (docs/design.md, "Interrupted runs"): `pulumi refresh --clear-pending-creates`, then `pulumi up`.
 * After it the platform holds exactly the objects the state records: no orphan, no duplicate, nothing pending; and
 * no token value sits in plain text in the backend. The same for creates cut by the operation deadline
 * (SVC_OPERATION_DEADLINE_MS), where the recovery step is `pulumi up` again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serverAndState } from "../support/faultChecks";
import { PROVIDER_KINDS, platformStack, type PlatformStack, type Scenario } from "../support/platformStack";
import { backendFilesText } from "../support/pulumi";
import { runPulumi } from "../support/pulumiProcess";

const TOKENS = 20;

function scenario(tag: string): Scenario {
  const templates = ["alpha", "beta", "gamma"].map((name) => [
    name,
    { event: "entry.ready", name: `${tag} ${name}`, systemName: `${tag}_${name}`, url: `https://hooks.example/${name}`, signSecret: "$signSecret" },
  ]);
  const emails = ["editors", "audit"].map((name) => [
    name,
    {
      event: "entry.ready",
      name: `${tag} ${name}`,
      systemName: `${tag}_mail_${name}`,
      subject: "Ready: {entry_name}",
      body: "Entry {entry_name} is ready.",
      fromEmail: "video@example.com",
      to: [{ email: `${name}@example.com` }],
      contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
    },
  ]);
  return {
    tokens: Object.fromEntries(Array.from({ length: TOKENS }, (_, i) => [`t${i}`, { description: `${tag} token ${i}`, sessionPrivileges: `list:${i}` }])),
    templates: Object.fromEntries(templates),
    emailTemplates: Object.fromEntries(emails),
  };
}

describe.each(PROVIDER_KINDS)("an interrupted up (%s provider)", (provider) => {
  let p: PlatformStack;
  const stackName = `cancel-${provider}`;
  const events = () => join(p.tmp, "provider-events.jsonl");

  beforeAll(async () => {
    p = await platformStack({ stackName, provider });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  /** The live objects equal the state's resources, nothing is pending, all 25 are there, no token value in plain text. */
  async function expectConverged(): Promise<void> {
    const { server, state } = await serverAndState(p.stack, p.client);
    expect(state.pending).toBe(0);
    expect(server).toEqual({ tokens: state.tokens, templates: state.templates, emailTemplates: state.emailTemplates });
    expect([state.tokens.length, state.templates.length, state.emailTemplates.length]).toEqual([TOKENS, 3, 2]);
    const atRest = backendFilesText(p.backendDir);
    for (const token of await p.client.appTokens.iterate({ statusEqual: 2 }).toArray()) {
      expect(token.token && atRest.includes(token.token), `token ${token.id}'s value in plain text in the backend`).toBeFalsy();
    }
  }

  it("double SIGINT during up; refresh --clear-pending-creates then up: 0 orphans", async () => {
    await p.setScenario(scenario(`sigint_${provider}`));
    // Every request answers 400 ms late: many creates are in flight when the signals come.
    p.emulator.ctx.faults.set({ latencyMs: 400 });
    const up = runPulumi(p, stackName, ["up", "--yes", "--skip-preview"], { SVC_PROVIDER_EVENTS_FILE: events() });
    await vi.waitFor(async () => expect((await p.client.appTokens.iterate({ statusEqual: 2 }).toArray()).length).toBeGreaterThanOrEqual(3), {
      timeout: 60_000,
      interval: 100,
    });
    console.log(`first SIGINT ${new Date().toISOString()}`);
    up.child.kill("SIGINT");
    await up.waitForOutput(/received; cancelling/);
    console.log(`second SIGINT ${new Date().toISOString()}`);
    up.child.kill("SIGINT");
    const exit = await up.exited;
    const interrupted = await serverAndState(p.stack, p.client);
    console.log(`${provider}: after the double SIGINT: exit ${JSON.stringify(exit)}, ${JSON.stringify(interrupted)}`);
    console.log(`${provider}: provider events: ${safeRead(events())}`);
    console.log(`${provider}: cli output: ${up.output().split("\n").filter((l) => /Template|AppToken|interrupted|error|Resources|created/.test(l)).join("\n")}`);
    expect(exit.code).not.toBe(0);
    console.log(require("node:child_process").execSync("ps -eo pid,ppid,pgid,etimes,args | grep -E 'pulumi-resource|dynamic-provider|provider-runtime' | grep -v grep || true").toString());

    p.emulator.ctx.faults.set({});
    await p.stack.refresh({ clearPendingCreates: true });
    const result = await p.stack.up();
    expect(result.summary.result).toBe("succeeded");
    console.log(`${provider}: provider events at the end: ${safeRead(events())}`);
    await expectConverged();
  }, 180_000);
});

function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "(none)";
  }
}
