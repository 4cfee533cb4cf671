import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { bundleCli, killHard, spawnCli as spawnWith, type CliChild } from "./cliBundle";
import { httpCall } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";
let dir: string;
let cli: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-emulator-"));
  cli = await bundleCli(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function spawnCli(args: string[]): Promise<CliChild> {
  const child = await spawnWith(cli, args);
  expect(child.stderr()).not.toContain("ExperimentalWarning");
  return child;
}

describe("durable state", () => {
  it("survives a clean restart in-process, keeping the generated account", async () => {
    const stateFile = join(dir, "restart.db");
    const first = await startEmulator({ stateFile, quiet: true });
    const ks = await httpCall(first.baseUrl, "session", "start", { secret: first.adminSecret, partnerId: first.partnerId, type: 2 });
    const token = await httpCall(first.baseUrl, "appToken", "add", { ks, "appToken[objectType]": "SvcAppToken", "appToken[description]": "kept" });
    await first.close();
    const second = await startEmulator({ stateFile, quiet: true });
    expect(second.partnerId).toBe(first.partnerId);
    expect(second.adminSecret).toBe(first.adminSecret);
    // the old ks is still valid: same account, same secret
    expect(await httpCall(second.baseUrl, "appToken", "get", { ks, id: token.id })).toMatchObject({ description: "kept", token: token.token });
    await second.close();
  });

  it("the state file and its -wal and -shm files are readable by their owner only (issue 39, finding 14)", async () => {
    const stateFile = join(dir, "private.db");
    const emulator = await startEmulator({ stateFile, quiet: true });
    const ks = await httpCall(emulator.baseUrl, "session", "start", { secret: emulator.adminSecret, partnerId: emulator.partnerId, type: 2 });
    await httpCall(emulator.baseUrl, "appToken", "add", { ks, "appToken[objectType]": "SvcAppToken", "appToken[description]": "private" });
    const modes = () =>
      [stateFile, `${stateFile}-wal`, `${stateFile}-shm`].filter((file) => existsSync(file)).map((file) => [file, (statSync(file).mode & 0o777).toString(8)]);
    expect(modes().length).toBeGreaterThanOrEqual(2); // the file and, in WAL mode while open, its -wal
    for (const [file, mode] of modes()) expect(mode, file).toBe("600");
    await emulator.close();

    // A file an earlier version left readable by all is tightened when the emulator opens it.
    const older = join(dir, "older.db");
    writeFileSync(older, "");
    chmodSync(older, 0o644);
    const reopened = await startEmulator({ stateFile: older, quiet: true });
    expect((statSync(older).mode & 0o777).toString(8)).toBe("600");
    await reopened.close();
  });

  it("every acknowledged write survives kill -9", async () => {
    const stateFile = join(dir, "kill.db");
    const a = await spawnCli(["--state", stateFile, "--partner-id", "31337", "--admin-secret", "kill-test-secret-42"]);
    const { baseUrl } = a.info;
    expect(a.info).toMatchObject({ partnerId: 31337, adminSecret: "kill-test-secret-42" });
    const ks = await httpCall(baseUrl, "session", "start", { secret: "kill-test-secret-42", partnerId: 31337, type: 2, privileges: "disableentitlement" });
    const ended = await httpCall(baseUrl, "session", "start", { secret: "kill-test-secret-42", partnerId: 31337, type: 2 });
    const tokens = [];
    for (let i = 0; i < 20; i++)
      tokens.push(await httpCall(baseUrl, "appToken", "add", { ks, "appToken[objectType]": "SvcAppToken", "appToken[description]": `t${i}` }));
    await httpCall(baseUrl, "appToken", "delete", { ks, id: tokens[0].id });
    await httpCall(baseUrl, "appToken", "update", { ks, id: tokens[1].id, "appToken[objectType]": "SvcAppToken", "appToken[description]": "updated" });
    const tpl = await httpCall(baseUrl, SVC, "clone", {
      ks,
      id: "101",
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[name]": "durable",
      "eventNotificationTemplate[systemName]": "DURABLE",
      "eventNotificationTemplate[url]": "http://127.0.0.1:9/x",
    });
    await httpCall(baseUrl, SVC, "updateStatus", { ks, id: tpl.id, status: 2 });
    await httpCall(baseUrl, "session", "end", { ks: ended });
    const last = await httpCall(baseUrl, "appToken", "add", { ks, "appToken[objectType]": "SvcAppToken", "appToken[description]": "last before kill" });
    await killHard(a); // no clean shutdown: the process dies right after the last acknowledged write

    const b = await spawnCli(["--state", stateFile]);
    try {
      expect(b.info).toMatchObject({ partnerId: 31337, adminSecret: "kill-test-secret-42" });
      const url = b.info.baseUrl;
      const list = await httpCall(url, "appToken", "list", { ks, "pager[pageSize]": 100 });
      expect(list.totalCount).toBe(20); // 21 added, 1 deleted
      expect(list.objects.map((t: { id: string }) => t.id)).toContain(last.id);
      expect((await httpCall(url, "appToken", "get", { ks, id: tokens[0].id })).code).toBe("APP_TOKEN_ID_NOT_FOUND");
      expect((await httpCall(url, "appToken", "get", { ks, id: tokens[1].id })).description).toBe("updated");
      expect(await httpCall(url, SVC, "get", { ks, id: tpl.id })).toMatchObject({ status: 2, systemName: "DURABLE" });
      expect((await httpCall(url, "appToken", "list", { ks: ended })).code).toBe("INVALID_KS");
      // ids never repeat after a restart
      const again = await httpCall(url, SVC, "clone", {
        ks,
        id: "101",
        "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
        "eventNotificationTemplate[name]": "second",
        "eventNotificationTemplate[url]": "http://127.0.0.1:9/y",
      });
      expect(Number(again.id)).toBeGreaterThan(Number(tpl.id));
    } finally {
      await killHard(b);
    }
  }, 60_000);
});
