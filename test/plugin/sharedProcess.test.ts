/**
 * `pulumi-svc shared`: one plugin process serves every explicit provider of a run, through the real engine (it
 * attaches to the process's port, PULUMI_DEBUG_PROVIDERS). Five accounts x two AppTokens, one explicit provider per
 * account (bench/fixtures/accountsPlugin): `up` with one account's credential wrong fails that account's resources
 * only; then up, preview, refresh and destroy converge as they do with a process per provider, each token in its own
 * account, a throttle's pause shown under its resource (diagnostics go to the engine that Attach named). A SIGKILL of
 * the runner in the middle of an up leaves no orphan on the platform. The stack names a launcher that records each
 * start, so the test sees which processes ran: one shared process per command, none started by the engine, none left
 * after the command, nor after the runner is killed.
 */
import { execFile, spawn } from "node:child_process";
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { withSvcPort } from "../../provider/shared/sharedProvider";
import { startSharedProvider } from "../../provider/shared";
import { pluginDir } from "../support/platformStack";
import { newTestStack, repoRoot, type TestStack } from "../support/pulumi";

const ACCOUNTS = 5;
const PER_ACCOUNT = 2;
const cli = join(repoRoot, "dist", "provider", "cli", "main.js");
const fixtures = join(repoRoot, "bench", "fixtures");

interface Account {
  baseUrl: string;
  partnerId: number;
  adminSecret: string;
}

/** Whether `pid` is still a live process (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("one shared plugin process for every account's provider", () => {
  let emulator: RunningEmulator;
  let t: TestStack;
  let accounts: Account[];
  /** Each start of the plugin: its pid and arguments, one per line (the launcher the stack names writes them). */
  let starts: string;
  let launcherDir: string;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    accounts = Array.from({ length: ACCOUNTS }, () => {
      const p = emulator.ctx.createPartner();
      return { baseUrl: emulator.baseUrl, partnerId: p.id, adminSecret: p.adminSecret };
    });
    t = await newTestStack(join(fixtures, "accountsPlugin"), { copyProgram: true });
    copyFileSync(join(fixtures, "accounts", "shape.js"), join(t.workDir, "shape.js"));
    launcherDir = join(t.tmp, "plugin");
    starts = join(t.tmp, "plugin-starts");
    mkdirSync(launcherDir);
    writeFileSync(join(launcherDir, "pulumi-resource-svc"), `#!/bin/sh\necho "$$ $*" >> '${starts}'\nexec '${join(pluginDir, "pulumi-resource-svc")}' "$@"\n`);
    chmodSync(join(launcherDir, "pulumi-resource-svc"), 0o755);
    appendFileSync(join(t.workDir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: svc\n      path: ${launcherDir}\n`);
    await t.stack.setAllConfig({
      accountCount: { value: String(ACCOUNTS) },
      perAccount: { value: String(PER_ACCOUNT) },
      tokensOnly: { value: "true" },
      accounts: { value: JSON.stringify(accounts), secret: true },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
    await emulator?.close();
  });

  /** The plugin's starts since the last take: shared ones (`--shared`) and those the engine made. */
  const peekStarts = () => {
    const lines = existsSync(starts) ? readFileSync(starts, "utf8").trim().split("\n").filter(Boolean) : [];
    const parsed = lines.map((line) => ({ pid: Number(line.split(" ")[0]), shared: line.split(" ").includes("--shared") }));
    return { shared: parsed.filter((s) => s.shared).map((s) => s.pid), byEngine: parsed.filter((s) => !s.shared).length };
  };
  const takeStarts = () => {
    const started = peekStarts();
    writeFileSync(starts, "");
    return started;
  };

  /** Runs `pulumi <args>` on the stack through `pulumi-svc shared` (or directly); its exit code and output. */
  const pulumi = (args: string[], options: { shared: boolean }) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const command = ["pulumi", ...args, "--stack", "test", "--cwd", t.workDir, "--non-interactive", "--color", "never"];
      const [file, argv] = options.shared
        ? [process.execPath, [cli, "shared", "--plugin", join(launcherDir, "pulumi-resource-svc"), "--", ...command]]
        : [command[0] as string, command.slice(1)];
      execFile(file, argv, { env: { ...process.env, ...t.env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        t.scan.record(`pulumi ${args[0]}: output`, output);
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output });
      });
    });

  /** Each account's active tokens on the platform (their descriptions), and the token ids the state records. */
  const tokensByAccount = () =>
    accounts.map((a) =>
      emulator.ctx.store
        .listDocs<{ id: string; status: number; description: string }>("appToken", a.partnerId)
        .filter((d) => d.status === 2)
        .map((d) => d.description)
        .sort(),
    );
  const stateTokenIds = async () => {
    const deployment = (await t.stack.exportStack()).deployment as { resources?: { type: string; id?: string }[] };
    return (deployment.resources ?? []).filter((r) => r.type.endsWith("AppToken") && r.id).map((r) => r.id as string);
  };
  const serverTokenIds = () =>
    accounts.flatMap((a) =>
      emulator.ctx.store
        .listDocs<{ id: string; status: number }>("appToken", a.partnerId)
        .filter((d) => d.status === 2)
        .map((d) => d.id),
    );
  const expectOneSharedProcessGone = () => {
    const started = takeStarts();
    expect(started.byEngine).toBe(0);
    expect(started.shared).toHaveLength(1);
    expect(alive(started.shared[0] as number)).toBe(false);
  };

  it("serves every provider from one process: a bad credential fails its own account only, then up, preview, refresh, destroy converge", {
    timeout: 300_000,
  }, async () => {
    const wrong = accounts.map((a, i) => (i === 2 ? { ...a, adminSecret: "not-the-admin-secret-of-account-2" } : a));
    await t.stack.setConfig("accounts", { value: JSON.stringify(wrong), secret: true });
    // --continue-on-error: the engine goes on with the other accounts' steps after the bad account's fail.
    const failed = await pulumi(["up", "--yes", "--skip-preview", "--continue-on-error"], { shared: true });
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/a2-r0/);
    const afterFailure = tokensByAccount();
    expect(afterFailure[2]).toEqual([]);
    for (const [i, descriptions] of afterFailure.entries()) {
      if (i !== 2) expect(descriptions).toEqual(Array.from({ length: PER_ACCOUNT }, (_, k) => `account ${i} resource ${k}`));
    }
    expectOneSharedProcessGone();

    await t.stack.setConfig("accounts", { value: JSON.stringify(accounts), secret: true });
    // Account 2's first add (its tokens are the ones left to create) is throttled once: the pause is reported to the engine (the address Attach gave) under its resource.
    emulator.ctx.traffic.setFaults(accounts[2]!.partnerId, { next: ["throttle"], retryAfterSeconds: 0, pathIncludes: "/appToken/action/add" });
    const up = await pulumi(["up", "--yes", "--skip-preview"], { shared: true });
    emulator.ctx.traffic.setFaults(accounts[2]!.partnerId, {});
    expect(up.code, up.output).toBe(0);
    const diagnostics = up.output.slice(up.output.lastIndexOf("Diagnostics:"));
    expect(diagnostics).toMatch(
      /svc:index:AppToken \(a2-r\d\):\s+the platform is throttling requests \(429\): pausing \d+ ms before attempt 2 of appToken\.add/,
    );
    // Each account holds its own tokens, and the state records exactly what the platform holds.
    expect(tokensByAccount()).toEqual(accounts.map((_, i) => Array.from({ length: PER_ACCOUNT }, (_, k) => `account ${i} resource ${k}`)));
    expect((await stateTokenIds()).sort()).toEqual(serverTokenIds().sort());
    expectOneSharedProcessGone();

    for (const shared of [true, false]) {
      const preview = await pulumi(["preview", "--expect-no-changes"], { shared });
      expect(preview.code, preview.output).toBe(0);
      if (shared) expectOneSharedProcessGone();
      else {
        // Without it, the engine starts a process per explicit provider (so the count above can tell them apart).
        const started = takeStarts();
        expect(started.shared).toEqual([]);
        expect(started.byEngine).toBeGreaterThanOrEqual(ACCOUNTS);
      }
    }
    const refresh = await pulumi(["refresh", "--yes", "--expect-no-changes"], { shared: true });
    expect(refresh.code, refresh.output).toBe(0);
    expectOneSharedProcessGone();

    const destroy = await pulumi(["destroy", "--yes"], { shared: true });
    expect(destroy.code, destroy.output).toBe(0);
    expect(serverTokenIds()).toEqual([]);
    expect(await stateTokenIds()).toEqual([]);
    expectOneSharedProcessGone();
  });

  it("from an Automation API program (pulumi-svc/shared): the workspace's operations all go to one process it starts and stops", {
    timeout: 180_000,
  }, async () => {
    const shared = await startSharedProvider({ plugin: join(launcherDir, "pulumi-resource-svc"), env: { ...process.env, ...t.env } });
    t.stack.workspace.envVars.PULUMI_DEBUG_PROVIDERS = shared.debugProviders(process.env.PULUMI_DEBUG_PROVIDERS);
    try {
      const up = await t.stack.up();
      expect(up.summary.resourceChanges).toEqual({ create: ACCOUNTS * PER_ACCOUNT + ACCOUNTS + 1 });
      expect(tokensByAccount()).toEqual(accounts.map((_, i) => Array.from({ length: PER_ACCOUNT }, (_, k) => `account ${i} resource ${k}`)));
      const preview = await t.stack.preview();
      expect(preview.changeSummary).toEqual({ same: ACCOUNTS * PER_ACCOUNT + ACCOUNTS + 1 });
      await t.stack.destroy();
      expect(serverTokenIds()).toEqual([]);
    } finally {
      delete t.stack.workspace.envVars.PULUMI_DEBUG_PROVIDERS;
      await shared.stop();
    }
    // Three operations, one process (the one started here), none started by the engine; gone once stopped.
    const started = takeStarts();
    expect(started).toEqual({ shared: [shared.pid], byEngine: 0 });
    expect(alive(shared.pid)).toBe(false);
  });

  it("a SIGKILL of the runner in the middle of an up: the shared process settles and goes, pulumi ends, no orphan on the platform", {
    timeout: 120_000,
  }, async () => {
    takeStarts();
    // Every add is made by the platform and answered 30 s late: the creates are in flight when the runner dies.
    for (const a of accounts) emulator.ctx.traffic.setFaults(a.partnerId, { slowRate: 1, slowMs: 30_000, pathIncludes: "/appToken/action/add" });
    const command = ["pulumi", "up", "--yes", "--skip-preview", "--stack", "test", "--cwd", t.workDir, "--non-interactive", "--color", "never"];
    const runner = spawn(process.execPath, [cli, "shared", "--plugin", join(launcherDir, "pulumi-resource-svc"), "--", ...command], {
      env: { ...process.env, ...t.env },
      stdio: "ignore",
    });
    await expect.poll(() => serverTokenIds().length, { timeout: 60_000 }).toBeGreaterThan(0);
    const [shared] = takeStarts().shared;
    // The runner's children: the shared process and pulumi.
    const children = readFileSync(`/proc/${runner.pid}/task/${runner.pid}/children`, "utf8").trim().split(" ").map(Number);
    const pulumiPid = children.find((pid) => pid !== shared) as number;
    runner.kill("SIGKILL");
    await expect.poll(() => alive(shared as number), { timeout: 20_000 }).toBe(false);
    // pulumi loses its provider: its steps fail and it ends by itself.
    await expect.poll(() => alive(pulumiPid), { timeout: 60_000 }).toBe(false);
    for (const a of accounts) emulator.ctx.traffic.setFaults(a.partnerId, {});
    // What the creates in flight made was deleted: the platform holds nothing the state does not record.
    const recorded = new Set(await stateTokenIds());
    expect(serverTokenIds().filter((id) => !recorded.has(id))).toEqual([]);
    // The next run converges (the state's records of objects rolled back are refreshed away).
    const up = await pulumi(["up", "--yes", "--skip-preview", "--refresh"], { shared: true });
    expect(up.code, up.output).toBe(0);
    expect((await stateTokenIds()).sort()).toEqual(serverTokenIds().sort());
    expect(serverTokenIds()).toHaveLength(ACCOUNTS * PER_ACCOUNT);
    const destroy = await pulumi(["destroy", "--yes"], { shared: true });
    expect(destroy.code, destroy.output).toBe(0);
  });

  it("passes the command's exit code and a SIGINT through, and the shared process ends when the runner is killed", { timeout: 60_000 }, async () => {
    takeStarts();
    const plugin = ["--plugin", join(launcherDir, "pulumi-resource-svc")];
    const exit = await new Promise<number | null>((resolve) => {
      const runner = spawn(process.execPath, [cli, "shared", ...plugin, "--", process.execPath, "-e", "process.exit(3)"], { stdio: "ignore" });
      runner.on("exit", (code) => resolve(code));
    });
    expect(exit).toBe(3);
    expectOneSharedProcessGone();

    // A SIGINT sent to the runner (not from a terminal: its own session has none) reaches the command.
    const trap = `process.on("SIGINT", () => process.exit(7)); console.log("ready"); setInterval(() => {}, 1000)`;
    const trapped = spawn(process.execPath, [cli, "shared", ...plugin, "--", process.execPath, "-e", trap], {
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
    });
    await new Promise((resolve) => trapped.stdout.once("data", resolve));
    const trappedExit = new Promise<number | null>((resolve) => trapped.on("exit", (code) => resolve(code)));
    trapped.kill("SIGINT");
    expect(await trappedExit).toBe(7);
    expectOneSharedProcessGone();

    const child = `console.log(process.env.PULUMI_DEBUG_PROVIDERS, process.pid); setInterval(() => {}, 1000)`;
    const runner = spawn(process.execPath, [cli, "shared", ...plugin, "--", process.execPath, "-e", child], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, PULUMI_DEBUG_PROVIDERS: "aws:1" },
    });
    const printed = await new Promise<string>((resolve) => runner.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
    const [variable, commandPid] = printed.split(" ");
    expect(variable).toMatch(/^aws:1,svc:\d+$/);
    const [shared] = takeStarts().shared;
    expect(alive(shared as number)).toBe(true);
    runner.kill("SIGKILL");
    await expect.poll(() => alive(shared as number), { timeout: 15_000 }).toBe(false);
    // The command the runner started outlives a SIGKILL of the runner (as Pulumi's plugins outlive a SIGKILL of pulumi).
    process.kill(Number(commandPid), "SIGKILL");
  });

  it("adds svc to PULUMI_DEBUG_PROVIDERS, keeping other packages' entries", () => {
    expect(withSvcPort(undefined, 5)).toBe("svc:5");
    expect(withSvcPort("aws:1,svc:2,gcp:3", 5)).toBe("aws:1,gcp:3,svc:5");
  });
});
