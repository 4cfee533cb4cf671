/**
 * State beyond one machine: Pulumi's PostgreSQL DIY backend (`postgres://`, Pulumi >= 3.176) with the
 * examples/gitops program, as three pipelines would use it. A real PostgreSQL 15 server (scripts/postgresServer.ts);
 * the plain `pulumi` CLI in separate processes, each in its own checkout (a runner's), all against one emulator
 * account, authenticated with the pipeline's app token:
 *   1. dev, staging and prod updated at the same time by three processes;
 *   2. two `up`s of one stack racing: the second is refused by the stack lock before it changes anything;
 *   3. a following `up` converges (nothing left to do), and the server holds exactly the tokens the three states
 *      record (plus the pipeline's own credential), with no secret in plain text in the database.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcClient } from "pulumi-svc/sdk";
import { createPipelineToken } from "../../examples/pipeline-app-token/createPipelineToken";
import { repoRoot } from "../support/pulumi";
import { cleanEnv, pulumiEnv, run, runOk, type Result } from "../package/processes";
import { startPostgres, type PostgresServer } from "../../scripts/postgresServer";
import { startServerBeforeAll } from "../support/serverBeforeAll";

const STACKS = ["dev", "staging", "prod"] as const;
const PASSPHRASE = "postgres-backend-test-passphrase";
const program = join(repoRoot, "examples", "gitops");

interface StackState {
  deployment: { resources?: { type: string; id?: string; outputs?: Record<string, unknown> }[] };
}

describe("PostgreSQL state backend: three stacks at once, a locked race, one account", () => {
  let tmp: string;
  let pg: PostgresServer;
  let emulator: RunningEmulator;
  let admin: SvcClient;
  let pipelineToken: { id: string; token: string };
  let runners = 0;
  const printed: Result[] = [];

  /** A runner: a fresh checkout of the program (the repo's node_modules, where pulumi-svc is this package). */
  function checkout(): string {
    const dir = join(tmp, `runner-${++runners}`);
    cpSync(program, dir, { recursive: true });
    symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
    return dir;
  }

  const env = (dir: string) =>
    cleanEnv({
      ...pulumiEnv(join(dir, ".pulumi-home"), pg.url(), PASSPHRASE),
      PGPASSWORD: pg.password,
      SVC_BASE_URL: emulator.baseUrl,
      SVC_PARTNER_ID: String(emulator.partnerId),
      SVC_APP_TOKEN_ID: pipelineToken.id,
      SVC_APP_TOKEN: pipelineToken.token,
    });

  /** A pipeline's job as one shell process: select (or create) the stack, then `pulumi up`. */
  const pipeline = (dir: string, stack: string, extra = "") =>
    run(
      "bash",
      [
        "-eo",
        "pipefail",
        "-c",
        `pulumi stack select --create ${stack} --non-interactive && pulumi up --stack ${stack} --yes --non-interactive --color never ${extra}`,
      ],
      { cwd: dir, env: env(dir), timeoutMs: 400_000 },
    ).then((r) => (printed.push(r), r));

  /** Objects are rows keyed by path, under the URL's path (the database name) as a prefix: `pulumi/.pulumi/...`. */
  const key = (path: string) => `${pg.database}/.pulumi/${path}`;
  const lockKeys = async () => (await pg.query(`SELECT key FROM pulumi_state WHERE key LIKE '${key("locks/")}%'`)).split("\n").filter(Boolean);
  const historyCount = async (stack: string) =>
    Number(await pg.query(`SELECT count(*) FROM pulumi_state WHERE key LIKE '${key(`history/svc-gitops/${stack}/`)}%.history.json'`));

  async function exportState(stack: string): Promise<StackState> {
    const dir = checkout();
    const result = await runOk("pulumi", ["stack", "export", "--stack", stack, "--non-interactive"], { cwd: dir, env: env(dir) });
    return JSON.parse(result.stdout) as StackState;
  }
  const tokenIdsIn = (state: StackState) => (state.deployment.resources ?? []).filter((r) => r.type === "pulumi-nodejs:dynamic/svc:AppToken").map((r) => r.id!);

  // A server or set-up that cannot start fails each test with the reason (a failed beforeAll would skip them).
  startServerBeforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-pgstate-"));
    [pg, emulator] = await Promise.all([startPostgres(), startEmulator({ quiet: true })]);
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    pipelineToken = await createPipelineToken(admin, { description: "pipeline (postgres backend test)" });
    // The one-time set-up docs/state.md prescribes before any parallel job: the backend's first open creates its
    // table, and PostgreSQL's CREATE TABLE IF NOT EXISTS (which Pulumi runs at every open) fails with a duplicate
    // key in pg_type when several sessions create the same table at once.
    const first = checkout();
    await runOk("pulumi", ["stack", "ls", "--non-interactive"], { cwd: first, env: env(first) });
    expect((await pg.query("SELECT to_regclass('public.pulumi_state') IS NOT NULL")).trim()).toBe("t");
  });
  afterAll(async () => {
    await admin?.close();
    await emulator?.close();
    await pg?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("three processes update dev, staging and prod at the same time", async () => {
    const results = await Promise.all(STACKS.map((stack) => pipeline(checkout(), stack)));
    for (const [i, result] of results.entries()) {
      expect(result.code, `${STACKS[i]}: ${result.output.slice(-3000)}`).toBe(0);
      expect(result.stdout).toMatch(/\+ 2 created/);
    }
    // The state lives in the database: one checkpoint per stack, no lock left behind.
    const keys = (await pg.query("SELECT key FROM pulumi_state ORDER BY key")).split("\n");
    for (const stack of STACKS) expect(keys).toContain(key(`stacks/svc-gitops/${stack}.json`));
    expect(await lockKeys()).toEqual([]);
    const descriptions = (await admin.appTokens.list()).objects.map((t) => t.description).sort();
    expect(descriptions).toEqual(["backend service (dev)", "backend service (prod)", "backend service (staging)", "pipeline (postgres backend test)"]);
  }, 600_000);

  it("two ups racing on one stack: the second is refused by the stack lock before it changes anything", async () => {
    const historyBefore = await historyCount("dev");
    // Slow API calls keep the first update (a token rotation) running, and its lock held, while the second starts.
    emulator.ctx.faults.set({ latencyMs: 1500 });
    const first = pipeline(checkout(), "dev", "--config tokenRotation=2");
    const deadline = Date.now() + 240_000;
    while ((await lockKeys()).length === 0) {
      if (Date.now() > deadline) throw new Error(`the first up never took the lock:\n${(await first).output.slice(-3000)}`);
      await sleep(100);
    }
    const [lock] = await lockKeys();
    expect(lock).toMatch(new RegExp(`^${pg.database}/\\.pulumi/locks/organization/svc-gitops/dev/[\\w-]+\\.json$`));
    const second = await pipeline(checkout(), "dev", "--config tokenRotation=2");
    const stillLocked = (await lockKeys()).includes(lock!);
    const firstResult = await first;
    emulator.ctx.faults.set({});

    expect(stillLocked, "the first up must still hold its lock when the second finishes (raise the latency if not)").toBe(true);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/the stack is currently locked by 1 lock\(s\)/);
    // refused before anything ran: no plan, no resource step
    expect(second.stdout).not.toMatch(/AppToken|created|replaced|updated/);
    // the lock message names the lock without the credentials
    expect(second.output).not.toContain(pg.password);
    expect(second.stderr).toMatch(/postgres:\/\/\*\*\*\*:\*\*\*\*@127\.0\.0\.1/);

    expect(firstResult.code, firstResult.output.slice(-3000)).toBe(0);
    expect(firstResult.stdout).toMatch(/\+-1 replaced|1 replaced/);
    expect(await lockKeys()).toEqual([]);
    expect(await historyCount("dev")).toBe(historyBefore + 1); // the winner's update only
  }, 600_000);

  it("a following up converges, and the server holds exactly the tokens the three states record", async () => {
    const again = await pipeline(checkout(), "dev", "--config tokenRotation=2");
    expect(again.code, again.output.slice(-3000)).toBe(0);
    expect(again.stdout).toMatch(/2 unchanged/);
    expect(again.stdout).not.toMatch(/created|replaced|updated|deleted/);

    const states = await Promise.all(STACKS.map(exportState));
    const recorded = states.flatMap(tokenIdsIn).sort();
    expect(recorded).toHaveLength(3);
    const onServer = (await admin.appTokens.list()).objects
      .map((t) => t.id)
      .filter((id) => id !== pipelineToken.id)
      .sort();
    expect(onServer).toEqual(recorded);

    // At rest in the database (each object is a row, its bytes base64 in a JSON column): token ids yes, token
    // values no (secrets are encrypted by the stack's secrets provider).
    const rows = (await pg.query("SELECT data->>'data' FROM pulumi_state")).split("\n").filter(Boolean);
    const dump = rows.map((b64) => Buffer.from(b64, "base64").toString("utf8")).join("\n");
    expect(dump).toContain('"secrets_providers":{"type":"passphrase"');
    for (const id of recorded) expect(dump).toContain(id);
    const values = (await admin.appTokens.list()).objects.map((t) => t.token).filter((v): v is string => typeof v === "string" && v.length > 0);
    expect(values.length).toBeGreaterThanOrEqual(3);
    for (const value of values) expect(dump).not.toContain(value);
    for (const result of printed) {
      expect(result.output).not.toContain(pipelineToken.token);
      expect(result.output).not.toContain(pg.password);
    }
  }, 600_000);
});
