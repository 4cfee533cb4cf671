/**
 * Recover never deletes what the user still has, through the real engine, as a platform team meets it:
 * - a runner killed while the stack adopts existing tokens (`adoptId`): the pending adoptions are cleared, the
 *   adopted tokens stay, and the next `up` adopts them;
 * - `pulumi-svc recover --yes` started while an `up` of the same stack runs: the lock is probed before anything is
 *   read, so it changes nothing, and every token the `up` records exists afterwards.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recover } from "../../provider/cli/recover";
import { pulumiCli } from "../../provider/cli/recoverPulumi";
import { serverAndState } from "../support/faultChecks";
import { type PlatformStack, platformStack } from "../support/platformStack";
import { engineBinDir } from "../support/pulumi";
import { runPulumi } from "../support/pulumiProcess";
import { descendants, killAll } from "./processTree";

const LATENCY_MS = 300;

describe("recover keeps what the user still has (the plugin, through the engine)", () => {
  let p: PlatformStack;
  const stackName = "keeps";

  beforeAll(async () => {
    p = await platformStack({ stackName, provider: "plugin", requestTimeoutMs: 3000 });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  const recoverNow = (options: { releaseLock?: boolean } = {}) => {
    const lines: string[] = [];
    const result = recover(
      { stack: stackName, yes: true, ...options },
      {
        cli: pulumiCli({ stack: stackName, cwd: p.workDir, binary: join(engineBinDir(), "pulumi"), env: { ...process.env, ...p.env } }),
        out: (line) => lines.push(line),
      },
    );
    return result.then((r) => ({ ...r, printed: lines.join("\n") }));
  };

  it("a runner killed while adopting 6 tokens: recover deletes none of them, and the next up adopts them (finding 1)", async () => {
    const fields = (i: number) => ({ description: `adopted ${i}`, sessionPrivileges: `list:${i}` });
    const existing = [];
    for (let i = 0; i < 6; i++) existing.push(await p.client.appTokens.add({ hashType: "SHA256", ...fields(i) }));
    await p.setScenario({ tokens: Object.fromEntries(existing.map((t, i) => [`a${i}`, { ...fields(i), adoptId: t.id }])) });
    await p.resetStats();
    p.emulator.ctx.faults.set({ latencyMs: LATENCY_MS });
    const up = runPulumi(p, stackName, ["up", "--yes", "--skip-preview"]);
    await Promise.race([
      vi.waitFor(async () => expect((await p.stats())["appToken.get"] ?? 0).toBeGreaterThanOrEqual(2), { timeout: 90_000, interval: 25 }),
      up.exited.then(() => {
        throw new Error(`pulumi up ended before the kill point:\n${up.output()}`);
      }),
    ]);
    const cli = up.child.pid!;
    killAll([cli, ...descendants(cli).map((proc) => proc.pid)]);
    await up.exited;
    p.emulator.ctx.faults.set({});

    const locked = await recoverNow();
    expect(locked.outcome).toBe("locked");
    const result = await recoverNow({ releaseLock: true });
    console.log(`[recover] ${result.printed.replaceAll("\n", "\n[recover] ")}`);
    expect(result.plan?.deletes ?? []).toEqual([]);
    expect(["done", "clean"]).toContain(result.outcome);
    const live = (await p.client.appTokens.iterate({ statusEqual: 2 }).toArray()).map((t) => t.id);
    for (const token of existing) expect(live, `adopted token ${token.id}`).toContain(token.id);

    const again = await p.stack.up();
    expect(again.summary.result).toBe("succeeded");
    const { server, state } = await serverAndState(p.stack, p.client);
    expect(state.tokens).toEqual(existing.map((t) => t.id).sort());
    expect(server.tokens).toEqual(state.tokens);
    await p.stack.destroy();
  }, 300_000);

  it("recover --yes during a live up changes nothing; every token the up records exists (finding 3)", async () => {
    const tokens = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, { description: `live ${i}`, sessionPrivileges: `list:${i}` }]));
    // A failed update first: recover has something to look at, as after a real failure.
    await p.setScenario({ tokens: { bad: { description: "x", sessionDuration: -1 } } });
    await expect(p.stack.up()).rejects.toThrow();
    await p.setScenario({ tokens });
    await p.resetStats();
    // Slow answers (under the request timeout) keep the up running for several seconds after its first creates.
    p.emulator.ctx.faults.set({ latencyMs: 2_500 });
    const up = runPulumi(p, stackName, ["up", "--yes", "--skip-preview"]);
    await vi.waitFor(async () => expect((await p.stats())["appToken.add"] ?? 0).toBeGreaterThanOrEqual(3), { timeout: 90_000, interval: 25 });
    const result = await recoverNow();
    console.log(`[recover during up] ${result.printed}`);
    const exit = await up.exited;
    p.emulator.ctx.faults.set({});
    expect(exit.code, up.output()).toBe(0);
    expect(result.outcome).toBe("locked");
    expect(result.plan?.deletes ?? []).toEqual([]);
    const { server, state } = await serverAndState(p.stack, p.client);
    expect(state.tokens).toHaveLength(12);
    expect(server.tokens).toEqual(state.tokens);
    await p.stack.destroy();
  }, 300_000);
});
