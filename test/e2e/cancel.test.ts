/**
 * An `up` interrupted as a CI job cancel does it, through the real engine, on both providers: `pulumi up` of 20 app
 * tokens and 5 templates (3 HTTP, 2 email) on an emulator answering every request late, interrupted by two SIGINTs
 * to the CLI (the first cancels: the engine calls each provider's Cancel and waits for the steps in flight; the
 * second terminates: the engine closes its providers, which get SIGINT and 5 s before SIGKILL). Then the documented
 * recovery step (docs/design.md, "Interrupted runs"): `pulumi-svc recover --yes`, then `pulumi up`.
 * After it the platform holds exactly the objects the state records: no orphan, no duplicate, nothing pending; and
 * no token value sits in plain text in the backend. The same for creates cut by the operation deadline
 * (SVC_OPERATION_DEADLINE_MS), where the recovery step is `pulumi up` again.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recover } from "../../provider/cli/recover";
import { pulumiCli } from "../../provider/cli/recoverPulumi";
import { serverAndState } from "../support/faultChecks";
import { PROVIDER_KINDS, platformStack, type PlatformStack, type Scenario } from "../support/platformStack";
import { backendFilesText, engineBinDir } from "../support/pulumi";
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
  const events = (run = "sigint") => join(p.tmp, `provider-events-${run}.jsonl`);

  beforeAll(async () => {
    // A request cut by the interruption may still commit until its timeout: a short one keeps the wait for it short.
    p = await platformStack({ stackName, provider, requestTimeoutMs: 3000 });
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

  it("double SIGINT during up; pulumi-svc recover --yes then up: 0 orphans", async () => {
    await p.setScenario(scenario(`sigint_${provider}`));
    // Every request answers 400 ms late: many creates are in flight when the signals come.
    p.emulator.ctx.faults.set({ latencyMs: 400 });
    const up = runPulumi(p, stackName, ["up", "--yes", "--skip-preview"], { SVC_PROVIDER_EVENTS_FILE: events() });
    await vi.waitFor(async () => expect((await p.client.appTokens.iterate({ statusEqual: 2 }).toArray()).length).toBeGreaterThanOrEqual(3), {
      timeout: 60_000,
      interval: 100,
    });
    up.child.kill("SIGINT");
    await up.waitForOutput(/received; cancelling/);
    up.child.kill("SIGINT");
    const exit = await up.exited;
    expect(exit.code).not.toBe(0);
    expect(up.output()).toMatch(/received; terminating/);
    const interrupted = await serverAndState(p.stack, p.client);
    console.log(`${provider}, double SIGINT: ${JSON.stringify(summary(interrupted))}; provider events: ${JSON.stringify(outcomes(events()))}`);

    p.emulator.ctx.faults.set({});
    const cli = pulumiCli({ stack: stackName, cwd: p.workDir, binary: join(engineBinDir(), "pulumi"), env: { ...process.env, ...p.env } });
    const recovered = await recover({ stack: stackName, yes: true }, { cli, out: (line) => console.log(`[recover] ${line}`) });
    expect(recovered.outcome).toBe("done");
    const result = await p.stack.up();
    expect(result.summary.result).toBe("succeeded");
    await expectConverged();
  }, 180_000);

  it("creates cut by the operation deadline (SVC_OPERATION_DEADLINE_MS); up again: 0 orphans", async () => {
    await p.stack.destroy();
    await p.setScenario(scenario(`deadline_${provider}`));
    // 600 ms per request against a 1.5 s deadline: a template (list, clone, activate) never finishes in time, and the
    // tokens that wait for one of the client's request slots neither.
    p.emulator.ctx.faults.set({ latencyMs: 600 });
    const up = runPulumi(p, stackName, ["up", "--yes", "--skip-preview"], { SVC_OPERATION_DEADLINE_MS: "1500", SVC_PROVIDER_EVENTS_FILE: events("deadline") });
    const exit = await up.exited;
    expect(exit.code).not.toBe(0);
    const cut = await serverAndState(p.stack, p.client);
    console.log(`${provider}, deadline: ${JSON.stringify(summary(cut))}; provider events: ${JSON.stringify(outcomes(events("deadline")))}`);
    // The engine recorded what the platform made before the deadline (partial creates): nothing is unrecorded.
    expect(cut.server).toEqual({ tokens: cut.state.tokens, templates: cut.state.templates, emailTemplates: cut.state.emailTemplates });
    expect(cut.state.templates.length + cut.state.emailTemplates.length).toBeGreaterThan(0);

    p.emulator.ctx.faults.set({});
    const result = await p.stack.up();
    expect(result.summary.result).toBe("succeeded");
    await expectConverged();
  }, 180_000);
});

function summary({ server, state }: Awaited<ReturnType<typeof serverAndState>>) {
  return {
    server: [server.tokens.length, server.templates.length, server.emailTemplates.length],
    state: [state.tokens.length, state.templates.length, state.emailTemplates.length],
    pending: state.pending,
  };
}

/** How many interrupted creates ended each way, from the provider's events file. */
function outcomes(path: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of safeRead(path).split("\n").filter(Boolean)) {
    const event = JSON.parse(line) as { type: string; outcome?: string };
    if (event.type === "interrupted") counts[event.outcome!] = (counts[event.outcome!] ?? 0) + 1;
  }
  return counts;
}

/** The file's text; empty when the provider wrote no event (the file is made by the first one). */
function safeRead(path: string): string {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}
