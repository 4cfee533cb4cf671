/**
 * A run that dies, through the real engine, on both providers: `pulumi up` of 20 app tokens and 3 HTTP templates on an
 * emulator answering every request late, and, in the middle, SIGKILL of the provider process alone (the plugin, or
 * the dynamic provider host: the engine goes on and records the creates in flight as failed) or of the whole runner
 * (the CLI, the language host and the providers at once: the state keeps pending creates and the stack's lock) or of
 * the engine alone (the CLI: its provider processes must end their creates in flight and exit by themselves when their
 * stdin ends, never deleting an answered create), at
 * several points: before the first answer, mid-run, while the templates are being activated. Then what the docs
 * prescribe (docs/design.md, "Recovering a killed run"): `pulumi-svc recover --yes` (after a runner's or an engine's
 * death it reports the lock; on the user's word that the run is dead, `--release-lock` reads the run's start from the
 * lock and releases it), then `pulumi up`. After it the platform's live objects are exactly the state's plus what the
 * user had before the run (a token made by hand hours before, with the very fields of one of the program's): no
 * orphan, no duplicate, nothing the user had gone, nothing pending, no token value at rest in the backend. The time
 * to recover (recover, then up) is printed for each kind of kill.
 */
import { copyFileSync, type Dirent, existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recover, type RecoverResult } from "../../provider/cli/recover";
import { pulumiCli } from "../../provider/cli/recoverPulumi";
import { serverAndState } from "../support/faultChecks";
import { type PlatformStack, platformStack, type ProviderKind, type Scenario } from "../support/platformStack";
import { SvcClient } from "../../sdk";
import { backendFilesText, engineBinDir } from "../support/pulumi";
import { runPulumi } from "../support/pulumiProcess";
import { descendants, killAll, killEngineAlone, providerProcesses } from "./processTree";

const TOKENS = 20;
const LATENCY_MS = 300;

function scenario(tag: string): Scenario {
  return {
    tokens: Object.fromEntries(Array.from({ length: TOKENS }, (_, i) => [`t${i}`, { description: `${tag} token ${i}`, sessionPrivileges: `list:${i}` }])),
    templates: Object.fromEntries(
      ["alpha", "beta", "gamma"].map((name) => [
        name,
        { event: "entry.ready", name: `${tag} ${name}`, systemName: `${tag}_${name}`, url: `https://hooks.example/${name}`, signSecret: "$signSecret" },
      ]),
    ),
  };
}

/** The provider process alone; the whole runner; the engine alone (the `pulumi` CLI: the OOM killer's usual choice). */
type Victim = "provider" | "runner" | "engine";
type KillPoint = "before the first answer" | "mid-run" | "during the templates' activation";

/**
 * Which kills run on which provider: each provider loses its provider process and its whole runner, and each kill
 * point is taken once, the engine time kept bounded (four runs of kill, recover, up and destroy).
 */
const CASES: { provider: ProviderKind; victim: Victim; point: KillPoint }[] = [
  { provider: "plugin", victim: "provider", point: "mid-run" },
  { provider: "plugin", victim: "runner", point: "before the first answer" },
  { provider: "dynamic", victim: "provider", point: "during the templates' activation" },
  { provider: "dynamic", victim: "runner", point: "mid-run" },
  { provider: "plugin", victim: "engine", point: "mid-run" },
  { provider: "dynamic", victim: "engine", point: "mid-run" },
];

const timings: string[] = [];

/**
 * What recover's message says to do with a state the kill left unreadable: remove the checkpoint's cut metadata file
 * (the file backend keeps each object's attributes in `<file>.attrs`), or else copy the backup over the checkpoint.
 */
function repairCheckpoint(backendDir: string, stack: string): string {
  const stacks = join(backendDir, ".pulumi", "stacks");
  const entries = readdirSync(stacks, { recursive: true, withFileTypes: true }) as Dirent[];
  const backup = entries.find((entry) => entry.isFile() && entry.name === `${stack}.json.bak`);
  if (!backup) throw new Error(`no ${stack}.json.bak under ${stacks}`);
  const dir = backup.parentPath;
  console.log(
    `checkpoint files: ${readdirSync(dir)
      .map((name) => `${name} (${statSync(join(dir, name)).size} bytes)`)
      .join(", ")}`,
  );
  // The checkpoint is renamed into place whole; what a kill can cut is its metadata file, written just before.
  const attrs = join(dir, `${stack}.json.attrs`);
  if (existsSync(attrs) && !isJson(readFileSync(attrs, "utf8"))) {
    rmSync(attrs);
    return "removed the cut .json.attrs";
  }
  copyFileSync(join(dir, `${stack}.json.bak`), join(dir, `${stack}.json`));
  if (existsSync(join(dir, `${stack}.json.bak.attrs`))) copyFileSync(join(dir, `${stack}.json.bak.attrs`), attrs);
  else rmSync(attrs, { force: true });
  return "restored the .json.bak";
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe.each(["plugin", "dynamic"] as const)("a run that dies (%s provider)", (provider) => {
  let p: PlatformStack;
  const stackName = `kill-${provider}`;
  let serial = 0;

  beforeAll(async () => {
    // A request cut by the interruption may still commit until its timeout: a short one keeps the wait for it short.
    p = await platformStack({ stackName, provider, requestTimeoutMs: 3000 });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    if (provider === "dynamic") console.log(`time to recover after each kill:\n  ${timings.join("\n  ")}`);
  });

  const recoverNow = (releaseLock = false): Promise<RecoverResult> =>
    recover(
      { stack: stackName, yes: true, releaseLock },
      {
        cli: pulumiCli({ stack: stackName, cwd: p.workDir, binary: join(engineBinDir(), "pulumi"), env: { ...process.env, ...p.env } }),
        out: (line) => console.log(`[recover] ${line}`),
      },
    );

  /** Resolves at the kill point, watching the platform (the emulator's request counts). */
  async function reach(point: KillPoint): Promise<void> {
    const options = { timeout: 90_000, interval: 25 };
    if (point === "before the first answer") {
      // The provider's session has started; its first creates go out now, and each answer is LATENCY_MS away.
      await vi.waitFor(async () => expect((await p.stats())["session.start"] ?? 0).toBeGreaterThanOrEqual(1), options);
      await new Promise((resolve) => setTimeout(resolve, LATENCY_MS / 2));
      return;
    }
    if (point === "mid-run") {
      await vi.waitFor(async () => expect((await p.stats())["appToken.add"] ?? 0).toBeGreaterThanOrEqual(8), options);
      return;
    }
    await vi.waitFor(async () => {
      const stats = await p.stats();
      const clones = Object.entries(stats).filter(([call]) => call.endsWith(".clone"));
      expect(clones.reduce((sum, [, n]) => sum + n, 0)).toBeGreaterThanOrEqual(2);
    }, options);
  }

  it.each(CASES.filter((c) => c.provider === provider))(
    "SIGKILL of the $victim $point; recover --yes, then up: 0 orphans",
    async ({ victim, point }) => {
      const tag = `kill${++serial}_${provider}`;
      // The user's own token, made by hand hours before the run, with the very fields of the program's token 0 (a
      // client of its own: its session is started on the emulator's clock of that day).
      const realNow = p.emulator.ctx.now;
      p.emulator.ctx.now = () => realNow() - 6 * 3_600_000;
      const byHand = new SvcClient({ baseUrl: p.emulator.baseUrl, partnerId: p.emulator.partnerId, auth: { adminSecret: p.emulator.adminSecret } });
      const handMade = await byHand.appTokens.add({ hashType: "SHA256", description: `${tag} token 0`, sessionPrivileges: "list:0" }).finally(async () => {
        p.emulator.ctx.now = realNow;
        await byHand.close();
      });
      await p.setScenario(scenario(tag));
      await p.resetStats();
      p.emulator.ctx.faults.set({ latencyMs: LATENCY_MS });
      const up = runPulumi(p, stackName, ["up", "--yes", "--skip-preview"]);
      // An up that ends before the kill point fails the test with its output (e.g. a stack left locked).
      await Promise.race([
        reach(point),
        up.exited.then(() => {
          throw new Error(`pulumi up ended before the kill point:\n${up.output()}`);
        }),
      ]);
      const cli = up.child.pid!;
      const killedAt = performance.now();
      if (victim === "provider") {
        const providers = providerProcesses(cli, provider);
        expect(providers.length, "the provider process to kill").toBeGreaterThan(0);
        killAll(providers.map((proc) => proc.pid));
      } else if (victim === "runner") {
        killAll([cli, ...descendants(cli).map((proc) => proc.pid)]);
      } else {
        // The CLI alone: the provider processes (in process groups of their own) see their stdin end, end the creates
        // they had in flight (each deletes what it made: it never answers), keep what they answered, and exit.
        await killEngineAlone(cli, provider);
      }
      const exit = await up.exited;
      expect(exit.code).not.toBe(0);
      p.emulator.ctx.faults.set({});
      const interrupted = await serverAndState(p.stack, p.client).catch(async (error: unknown) => {
        // Killed while the file backend wrote the checkpoint: the documented step restores the backend's backup.
        if (!/failed to load checkpoint/.test(String(error))) throw error;
        const repair = repairCheckpoint(p.backendDir, stackName);
        console.log(`${provider}, ${victim} ${point}: the kill cut the checkpoint's write; ${repair}`);
        return serverAndState(p.stack, p.client);
      });
      const orphansBefore = interrupted.server.tokens.filter((id) => id !== handMade.id && !interrupted.state.tokens.includes(id)).length;

      const recoverStarted = performance.now();
      let result = await recoverNow();
      if (result.outcome === "locked") {
        // The dead run's lock: on the user's word that no run is in progress, recover reads the run's start from it
        // and releases it.
        expect(victim).not.toBe("provider");
        result = await recoverNow(true);
      }
      expect(["done", "clean"]).toContain(result.outcome);
      const recoveredAt = performance.now();
      const upResult = await p.stack.up();
      expect(upResult.summary.result).toBe("succeeded");
      const upAt = performance.now();

      const { server, state } = await serverAndState(p.stack, p.client);
      expect(state.pending).toBe(0);
      expect(server.tokens, "the user's hand-made token is still there").toContain(handMade.id);
      expect({ ...server, tokens: server.tokens.filter((id) => id !== handMade.id) }).toEqual({
        tokens: state.tokens,
        templates: state.templates,
        emailTemplates: state.emailTemplates,
      });
      expect([state.tokens.length, state.templates.length]).toEqual([TOKENS, 3]);
      const atRest = backendFilesText(p.backendDir);
      for (const token of await p.client.appTokens.iterate({ statusEqual: 2 }).toArray()) {
        expect(token.token && atRest.includes(token.token), `token ${token.id}'s value in plain text in the backend`).toBeFalsy();
      }
      timings.push(
        `${provider}, SIGKILL of the ${victim} ${point}: ${interrupted.state.pending} pending, ${orphansBefore} unrecorded tokens after the kill; ` +
          `recover ${Math.round(recoveredAt - recoverStarted)} ms (${result.plan?.clears.length ?? 0} pending creates cleared, ${result.plan?.deletes.length ?? 0} objects deleted), then up ${Math.round(upAt - recoveredAt)} ms; kill to converged ${Math.round(upAt - killedAt)} ms`,
      );
      console.log(`time to recover: ${timings.at(-1)}`);
      await p.stack.destroy();
      await p.client.appTokens.delete(handMade.id);
    },
    300_000,
  );
});
