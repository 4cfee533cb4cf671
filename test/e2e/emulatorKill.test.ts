/**
 * The platform dies in the middle of an `up`: the emulator (its own process, a state file) is killed with SIGKILL once
 * some tokens were created, then restarted on the same state file and port. The interrupted `up` ends one way or the
 * other; one more `up` converges, and the platform holds exactly what the state records (no orphaned token).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SvcClient } from "../../sdk";
import { bundleCli, killHard, spawnCli, type CliChild } from "../emulator/cliBundle";
import { serverAndState } from "../support/faultChecks";
import { platformProgram, SIGN_SECRET } from "../support/platformStack";
import { newTestStack, type TestStack } from "../support/pulumi";

const PARTNER = "7070";
const SECRET = "kill-test-admin-secret-0123";

describe("kill -9 of the emulator in the middle of an up", () => {
  let dir: string;
  let cli: string;
  let child: CliChild;
  let t: TestStack;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-kill-"));
    cli = await bundleCli(dir);
    t = await newTestStack(platformProgram, { copyProgram: true, stackName: "kill" });
  }, 120_000);
  afterAll(async () => {
    if (child) await killHard(child);
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("one more up converges with nothing orphaned", async () => {
    const stateFile = join(dir, "platform.db");
    const start = (port: string) =>
      spawnCli(cli, ["--state", stateFile, "--partner-id", PARTNER, "--admin-secret", SECRET, "--latency-ms", "150", "--port", port, "--quiet"]);
    child = await start("0");
    const baseUrl = child.info.baseUrl;
    const port = new URL(baseUrl).port;
    await t.stack.setAllConfig({
      "svc:baseUrl": { value: baseUrl },
      "svc:partnerId": { value: PARTNER },
      "svc:adminSecret": { value: SECRET, secret: true },
      signSecret: { value: SIGN_SECRET, secret: true },
      scenario: { value: JSON.stringify({ tokens: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, { description: `kill test ${i}` }])) }) },
    });

    const interrupted = t.stack.up().then(
      (r) => r.summary.result,
      (e: Error) => `failed: ${e.message.split("\n")[0]}`,
    );
    // Kill once a few adds went through (the stats count every call the emulator answered).
    await vi.waitFor(
      async () => {
        const stats = (await (await request(`${child.info.controlUrl}/stats`)).body.json()) as Record<string, number>;
        expect(stats["appToken.add"] ?? 0).toBeGreaterThanOrEqual(3);
      },
      { timeout: 120_000, interval: 50 },
    );
    await killHard(child);
    // The platform is down (its port refuses connections) before it comes back on the same port and state file.
    await vi.waitFor(() => expect(request(baseUrl)).rejects.toMatchObject({ code: "ECONNREFUSED" }), { timeout: 10_000, interval: 20 });
    child = await start(port);
    console.log(`interrupted up: ${await interrupted}`);

    const up = await t.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const client = new SvcClient({ baseUrl, partnerId: PARTNER, auth: { adminSecret: SECRET } });
    try {
      const { server, state } = await serverAndState(t.stack, client);
      expect(state.tokens).toHaveLength(12);
      expect(state.pending).toBe(0);
      expect(server.tokens).toEqual(state.tokens);
    } finally {
      await client.close();
    }
  }, 240_000);
});
