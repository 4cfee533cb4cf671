/**
 * Makes fixtures/engine-grpc.json, the recording test/plugin/wire/replay.test.ts replays: `npm run record:grpc`
 * (which builds dist/ and the engine first). Runs the program of fixtures/program through the real engine and the
 * built plugin (dist/pulumi-resource-svc) against an emulator in this process, one `pulumi` command at a time
 * with the engine's gRPC log (PULUMI_DEBUG_GRPC), then keeps the engine's calls to the plugin, scrubbed
 * (grpcRecording.ts), and checks that no credential or token value is left in what it writes.
 *
 * Not part of any suite (its name is not *.test.ts): re-record when the plugin's answers change on purpose, and
 * review the diff of the fixture.
 */
import { execFile } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { pluginDir } from "../../support/platformStack";
import { engineBinDir, newTestStack, repoRoot } from "../../support/pulumi";
import { providerCalls, RECORDING_PARTNER_ID, type RecordedCommand, type Recording, scrub } from "./grpcRecording";

const FIXTURE = join(__dirname, "fixtures", "engine-grpc.json");
const SIGN_SECRET = "fake-wire-signing-secret-0001";

it("records the engine's gRPC traffic with the plugin", async () => {
  const emulator = await startEmulator({ quiet: true, partnerId: RECORDING_PARTNER_ID });
  const t = await newTestStack(join(__dirname, "fixtures", "program"), { copyProgram: true });
  const logs = mkdtempSync(join(tmpdir(), "svc-grpc-log-"));
  try {
    appendFileSync(join(t.workDir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`);
    await t.stack.setAllConfig({
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:partnerId": { value: String(emulator.partnerId) },
      "svc:adminSecret": { value: emulator.adminSecret, secret: true },
      signSecret: { value: SIGN_SECRET, secret: true },
    });
    const pulumi = join(engineBinDir(), "pulumi");
    const commands: RecordedCommand[] = [];
    const record = async (args: string[]) => {
      const log = join(logs, `${commands.length + 1}.json`);
      // One resource at a time: the calls come in the same order in every recording.
      const argv = [...args, ...(args[0] === "preview" ? [] : ["--yes", "--skip-preview"]), "--parallel", "1", "--non-interactive", "--stack", "test"];
      await promisify(execFile)(pulumi, argv, { cwd: t.workDir, env: { ...process.env, ...t.env, PULUMI_DEBUG_GRPC: log } });
      commands.push({ command: `pulumi ${argv.join(" ")}`, calls: providerCalls(readFileSync(log, "utf8")) });
    };
    await record(["preview"]);
    await record(["up"]);
    await t.stack.setConfig("step", { value: "2" });
    await record(["up"]);
    await record(["refresh"]);
    await record(["destroy"]);

    const version = (await promisify(execFile)(pulumi, ["version"], { env: { ...process.env, ...t.env } })).stdout.trim();
    const recording: Recording = {
      recordedWith: "npm run record:grpc",
      engineVersion: version,
      partnerId: RECORDING_PARTNER_ID,
      commands: scrub(commands, { baseUrl: emulator.baseUrl, adminSecret: emulator.adminSecret, pluginDir }),
    };
    const text = `${JSON.stringify(recording, null, 1)}\n`;
    // No credential or token value of the run is left (the program's own values are fake test values).
    const rawText = commands.map((c) => JSON.stringify(c)).join("\n");
    const tokenValues = [...rawText.matchAll(/"token":\{"[0-9a-f]{32}":"[0-9a-f]{32}","value":"([^"]+)"\}/g)].map((m) => m[1]!);
    expect(tokenValues.length).toBeGreaterThan(0);
    for (const secret of [emulator.adminSecret, ...tokenValues]) expect(text).not.toContain(secret);
    expect(text).not.toContain(String(emulator.port));
    expect(commands.map((c) => c.calls.length).every((n) => n > 0)).toBe(true);
    writeFileSync(FIXTURE, text);
    // In the repo's format, so that `biome check` passes and a re-recording diffs cleanly.
    await promisify(execFile)(join(repoRoot, "node_modules", ".bin", "biome"), ["format", "--write", FIXTURE], { cwd: repoRoot });
  } finally {
    await t.cleanup();
    await emulator.close();
    rmSync(logs, { recursive: true, force: true });
  }
});
