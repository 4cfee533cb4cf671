import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleCli, killHard, runCli, spawnCli, type CliChild } from "./cliBundle";
import { httpCall } from "./helpers";

describe("svc-emulator CLI", () => {
  let dir: string;
  let cli: string;
  let child: CliChild;
  let hooks: Server;
  let hookUrl: string;
  const bodies: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-emulator-cli-"));
    cli = await bundleCli(dir);
    hooks = createServer((req, res) => {
      let b = "";
      req.on("data", (c: Buffer) => (b += c.toString()));
      req.on("end", () => {
        bodies.push(b);
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((r) => hooks.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/in`;
    // options through environment variables
    child = await spawnCli(cli, [], {
      ...process.env,
      SVC_EMULATOR_PARTNER_ID: "5150",
      SVC_EMULATOR_ADMIN_SECRET: "cli-secret-1234",
      SVC_EMULATOR_COMMIT_THEN_DROP_RATE: "0",
      SVC_EMULATOR_COMMIT_THEN_ERROR_RATE: "0",
      SVC_EMULATOR_SLOW_RATE: "0",
      SVC_EMULATOR_SLOW_MS: "1234",
    });
  }, 60_000);
  afterAll(async () => {
    await killHard(child);
    hooks.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("start prints the base URL, partner id and admin secret", () => {
    expect(child.info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api_v3$/);
    expect(child.info).toMatchObject({ partnerId: 5150, adminSecret: "cli-secret-1234" });
  });

  it("the fault options (after-the-write kinds included) reach the control API", async () => {
    const faults = (await (await fetch(`${child.info.controlUrl}/faults`)).json()) as Record<string, unknown>;
    expect(faults).toMatchObject({
      commitThenDropRate: 0,
      commitThenErrorRate: 0,
      slowRate: 0,
      slowMs: 1234,
      injected: { commitThenDrop: 0, commitThenError: 0, slow: 0 },
    });
  });

  it("trigger fires an event and deliveries prints the log", async () => {
    const ks = await httpCall(child.info.baseUrl, "session", "start", {
      secret: "cli-secret-1234",
      partnerId: 5150,
      type: 2,
      privileges: "disableentitlement",
    });
    const t = await httpCall(child.info.baseUrl, "eventnotification_eventnotificationtemplate", "clone", {
      ks,
      id: "105",
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[name]": "ready hook",
      "eventNotificationTemplate[url]": hookUrl,
      "eventNotificationTemplate[signSecret]": "abc",
    });
    await httpCall(child.info.baseUrl, "eventnotification_eventnotificationtemplate", "updateStatus", { ks, id: t.id, status: 2 });
    const url = child.info.baseUrl;
    const trig = await runCli(cli, ["trigger", "entry.ready", "--url", url, "--object", JSON.stringify({ id: "0_cli", name: "from cli" })]);
    expect(trig.code).toBe(0);
    expect(trig.stdout).toContain("1 delivery job(s) queued");
    const log = await runCli(cli, ["deliveries", "--wait", "--template-id", t.id], { ...process.env, SVC_EMULATOR_URL: url });
    expect(log.code).toBe(0);
    expect(log.stdout).toMatch(new RegExp(`template ${t.id} job \\d+ entry.ready -> ${hookUrl}: delivered \\[204\\]`));
    expect(JSON.parse(bodies[0]!).object).toMatchObject({ id: "0_cli", name: "from cli" });
    const bad = await runCli(cli, ["trigger", "nothing.happened", "--url", url]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("unknown event");
  }, 30_000);

  it("prints the mail sink; emails prints the email log with recipients, subject and the rendered body", async () => {
    expect(child.info.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    const url = child.info.baseUrl;
    const ks = await httpCall(url, "session", "start", { secret: "cli-secret-1234", partnerId: 5150, type: 2, privileges: "disableentitlement" });
    const t = await httpCall(url, "eventnotification_eventnotificationtemplate", "clone", {
      ks,
      id: "203",
      "eventNotificationTemplate[objectType]": "SvcEmailNotificationTemplate",
      "eventNotificationTemplate[name]": "deleted mail",
      "eventNotificationTemplate[to][emailRecipients][0][email]": "ops@example.com",
    });
    await httpCall(url, "eventnotification_eventnotificationtemplate", "updateStatus", { ks, id: t.id, status: 2 });
    const trig = await runCli(cli, ["trigger", "entry.deleted", "--url", url, "--object", JSON.stringify({ id: "0_gone", name: "old clip" })]);
    expect(trig.stdout).toContain("1 email(s) queued");
    const log = await runCli(cli, ["emails", "--wait", "--body", "--template-id", t.id], { ...process.env, SVC_EMULATOR_URL: url });
    expect(log.code).toBe(0);
    expect(log.stdout).toMatch(new RegExp(`template ${t.id} job \\d+ entry.deleted -> ops@example.com "An entry was deleted: old clip": delivered \\[250\\]`));
    expect(log.stdout).toContain("    Entry: old clip (0_gone)");
  }, 30_000);

  it("--host 0.0.0.0 leaves the mail sink on loopback; --max-body-bytes caps api_v3 bodies (413)", async () => {
    const open = await spawnCli(cli, ["--host", "0.0.0.0", "--control-token", "cli-control-token-0123456789", "--max-body-bytes", "1024"]);
    try {
      expect(open.info.baseUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/api_v3$/);
      expect(open.info.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
      const port = new URL(open.info.baseUrl).port;
      const res = await fetch(`http://127.0.0.1:${port}/api_v3/service/session/action/start`, { method: "POST", body: `format=1&pad=${"x".repeat(1100)}` });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: string }).error).toMatch(/^request body larger than 1024 bytes/);
    } finally {
      await killHard(open);
    }
  }, 60_000);
});
