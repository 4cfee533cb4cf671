/**
 * The engine dies mid-run, through the real engine, on both providers: `pulumi up` of 12 app tokens on an emulator
 * answering every request late, and SIGKILL of the `pulumi` CLI alone (the out-of-memory killer's usual choice) once
 * the state records some of them. The provider processes, in process groups of their own, see their stdin end, delete
 * what their creates still in flight made, and exit; a create they answered is never deleted (the engine may have
 * recorded it). So before any recover: every token the state records exists on the platform, and every token the run
 * made is recorded or the object of a pending create of the state (`pulumi-svc recover` settles those); no token
 * value is at rest in the backend. What the state recorded and what the platform kept is printed for each provider.
 */
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type PlatformStack, platformStack } from "../support/platformStack";
import { backendFilesText } from "../support/pulumi";
import { runPulumi } from "../support/pulumiProcess";
import { killEngineAlone } from "./processTree";

const TOKENS = 12;
const LATENCY_MS = 300;
/** The kill comes once the state records this many tokens: answered, and written by the engine. */
const RECORDED_AT_KILL = 4;

interface Checkpoint {
  resources: { type: string; id?: string }[];
  pendingCreates: { type: string; description?: unknown }[];
}

/**
 * The stack's checkpoint as the file backend holds it (`.pulumi/stacks/<project>/<stack>.json`, renamed into place
 * whole, so always a whole one): read from the file, since the dead CLI's lock and a metadata file its kill may have
 * cut are no concern of this read. Undefined before the first write.
 */
function checkpointOf(backendDir: string, stack: string): Checkpoint | undefined {
  const entries = readdirSync(join(backendDir, ".pulumi"), { recursive: true, withFileTypes: true }) as Dirent[];
  const file = entries.find((entry) => entry.isFile() && entry.name === `${stack}.json` && entry.parentPath.includes("stacks"));
  if (!file) return undefined;
  const latest = (
    JSON.parse(readFileSync(join(file.parentPath, file.name), "utf8")) as {
      checkpoint: {
        latest?: {
          resources?: { type: string; id?: string }[];
          pending_operations?: { type: string; resource: { type: string; inputs?: Record<string, unknown> } }[];
        };
      };
    }
  ).checkpoint.latest;
  return {
    resources: latest?.resources ?? [],
    pendingCreates: (latest?.pending_operations ?? [])
      .filter((operation) => operation.type === "creating")
      .map((operation) => ({ type: operation.resource.type, description: operation.resource.inputs?.description })),
  };
}

const recordedTokens = (checkpoint: Checkpoint | undefined): string[] =>
  (checkpoint?.resources ?? []).filter((resource) => resource.type.endsWith("AppToken") && resource.id).map((resource) => resource.id as string);

const figures: string[] = [];

describe.each(["plugin", "dynamic"] as const)("the engine dies mid-run (%s provider)", (provider) => {
  let p: PlatformStack;
  const stackName = `engine-death-${provider}`;

  beforeAll(async () => {
    // A request cut by the kill may still commit until its timeout: a short one keeps the look-up for it short.
    p = await platformStack({ stackName, provider, requestTimeoutMs: 3000 });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    if (provider === "dynamic") console.log(`after SIGKILL of the pulumi CLI alone:\n  ${figures.join("\n  ")}`);
  });

  it("SIGKILL of the pulumi CLI alone: every token the state records still exists, and the platform holds nothing else the run made but pending creates' objects", async () => {
    const tag = `death_${provider}`;
    const description = (i: number) => `${tag} token ${i}`;
    await p.setScenario({ tokens: Object.fromEntries(Array.from({ length: TOKENS }, (_, i) => [`t${i}`, { description: description(i) }])) });
    p.emulator.ctx.faults.set({ latencyMs: LATENCY_MS });
    // Two creates at a time (a pipeline's `--parallel`): the answers come one after another, so the kill finds creates
    // recorded, creates in flight, and maybe answers the engine had not written yet.
    const up = runPulumi(p, stackName, ["up", "--yes", "--skip-preview", "--parallel", "2"]);
    const cli = up.child.pid!;
    await Promise.race([
      vi.waitFor(() => expect(recordedTokens(checkpointOf(p.backendDir, stackName)).length).toBeGreaterThanOrEqual(RECORDED_AT_KILL), {
        timeout: 120_000,
        interval: 25,
      }),
      up.exited.then(() => {
        throw new Error(`pulumi up ended before the kill:\n${up.output()}`);
      }),
    ]);

    // The CLI alone: the provider processes see their stdin end, settle their creates in flight and exit by themselves.
    await killEngineAlone(cli, provider);
    await up.exited;
    p.emulator.ctx.faults.set({});

    const checkpoint = checkpointOf(p.backendDir, stackName);
    const recorded = recordedTokens(checkpoint);
    const pending = (checkpoint?.pendingCreates ?? []).filter((create) => create.type.endsWith("AppToken")).map((create) => create.description);
    const live = await p.client.appTokens.iterate({ statusEqual: 2 }).toArray();
    const liveIds = live.map((token) => token.id);
    const runMade = live.filter((token) => typeof token.description === "string" && token.description.startsWith(`${tag} token `));
    figures.push(
      `${provider}: the state recorded ${recorded.length} tokens (${pending.length} pending creates); ` +
        `${recorded.filter((id) => liveIds.includes(id)).length} of them exist on the platform, which holds ${runMade.length} tokens of the run`,
    );
    console.log(figures.at(-1));

    expect(recorded.length).toBeGreaterThanOrEqual(RECORDED_AT_KILL);
    // Nothing the state records was deleted by the provider.
    expect(recorded.filter((id) => !liveIds.includes(id))).toEqual([]);
    // What the state does not record is the object of one of its pending creates: recover's to settle, never an orphan.
    expect(runMade.filter((token) => !recorded.includes(token.id) && !pending.includes(token.description)).map((token) => token.description)).toEqual([]);
    // And never two of one create.
    expect(new Set(runMade.map((token) => token.description)).size).toBe(runMade.length);
    const atRest = backendFilesText(p.backendDir);
    for (const token of live) {
      expect(token.token && atRest.includes(token.token), `token ${token.id}'s value in plain text in the backend`).toBeFalsy();
    }
  }, 300_000);
});
