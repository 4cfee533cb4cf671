/**
 * Taking over an account: 100 app tokens and 20 webhooks made outside Pulumi; `pulumi-svc takeover` writes the import
 * file and a TypeScript program; one `pulumi import --file` (the CLI) adopts them through the native plugin; the
 * program type-checks and previews with no change; a second run of the command, given the stack's export, finds
 * nothing left. Runs the command as users do: a child process (bundled from provider/cli/main.ts).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TemplateStatus, TemplateType } from "../../contract/platform";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { listCandidates, managedBy } from "../../provider/cli/takeoverListing";
import { appToken, httpNotificationTemplate } from "../../provider/definitions";
import type { Existing, ResourceDefinition } from "../../provider/definitions/define";
import { SvcClient } from "../../sdk";
import { changes, pluginDir } from "../support/platformStack";
import { backendFilesText, engineBinDir, newTestStack, repoRoot, type TestStack } from "../support/pulumi";
import type { OperationContext } from "../../provider/core/operationContext";
import { variedTokenFields } from "../support/variedTokens";

/** The definitions here list from fakes: they never reach a platform. */
const OFFLINE = {} as OperationContext;

const TOKENS = 100;
const TEMPLATES = 20;
const SIGN_SECRET = "takeover-signing-secret-0123456789";
const BLANK_SVC_ENV = Object.fromEntries(
  ["SVC_BASE_URL", "SVC_PARTNER_ID", "SVC_ADMIN_SECRET", "SVC_APP_TOKEN_ID", "SVC_APP_TOKEN", "SVC_KS"].map((k) => [k, ""]),
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string }): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) }));
    child.stdin.end(options.stdin ?? "");
  });
}

describe("pulumi-svc takeover", () => {
  let emulator: RunningEmulator;
  let client: SvcClient;
  let t: TestStack;
  let cli: string;
  let sourceDir: string;
  /** Every secret the account holds: none may reach a written file, the command's output or the backend in plain text. */
  const secrets: string[] = [];
  const measured: Record<string, number> = {};

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    secrets.push(emulator.adminSecret, SIGN_SECRET);

    // A TypeScript project of the native plugin (found by path), with no program yet: the command writes index.ts.
    sourceDir = mkdtempSync(join(tmpdir(), "pulumi-svc-takeover-src-"));
    writeFileSync(
      join(sourceDir, "Pulumi.yaml"),
      `name: svc-takeover\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\nplugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`,
    );
    writeFileSync(
      join(sourceDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "Node16", moduleResolution: "Node16", strict: true, skipLibCheck: true, types: ["node"] },
        include: ["*.ts"],
      }),
    );
    t = await newTestStack(sourceDir, { copyProgram: true, extraEnv: BLANK_SVC_ENV });
    await t.stack.setAllConfig({
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:partnerId": { value: String(emulator.partnerId) },
      "svc:adminSecret": { value: emulator.adminSecret, secret: true },
    });

    cli = join(t.tmp, "pulumi-svc.js");
    await build({
      entryPoints: [join(repoRoot, "provider/cli/main.ts")],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node22",
      // jsonc-parser's "main" is a UMD build whose lazy requires esbuild cannot follow; its ES module build bundles.
      mainFields: ["module", "main"],
      outfile: cli,
      logLevel: "error",
    });

    // The account as a team left it: tokens with repeated, missing and varied settings; webhooks on every event.
    for (let i = 0; i < TOKENS; i++) {
      const token = await client.appTokens.add(variedTokenFields(i));
      secrets.push(token.token!);
    }
    const sources = (await client.templates.listTemplates({ typeEqual: TemplateType.HTTP })).objects;
    for (let i = 0; i < TEMPLATES; i++) {
      const source = sources[i % sources.length]!;
      const clone = await client.templates.clone(source.id, {
        name: `Webhook ${i}`,
        ...(i % 2 === 0 ? { systemName: `WEBHOOK_${i}` } : {}),
        ...(i % 3 === 0 ? { description: `hook number ${i}` } : {}),
        url: `https://hooks.example.com/${i}`,
        method: i % 5 === 0 ? 1 : 2,
        signSecret: SIGN_SECRET,
        secureHashingAlgo: (i % 3) + 1,
      });
      if (i % 4 !== 3) await client.templates.updateStatus(clone.id, TemplateStatus.ACTIVE);
    }
  }, 600_000);

  afterAll(async () => {
    console.log(`takeover measurements (ms): ${JSON.stringify(measured)}`);
    await t?.cleanup();
    await client?.close();
    await emulator?.close();
    if (sourceDir) rmSync(sourceDir, { recursive: true, force: true });
  });

  const cliEnv = (extra: Record<string, string> = {}) => ({ ...process.env, ...BLANK_SVC_ENV, ...extra });
  const takeover = (args: string[], env: NodeJS.ProcessEnv, stdin?: string) =>
    run(process.execPath, [cli, "takeover", ...args], { cwd: t.workDir, env, ...(stdin !== undefined ? { stdin } : {}) });
  const pulumi = (args: string[]) =>
    run(join(engineBinDir(), "pulumi"), [...args, "--stack", "test", "--non-interactive"], { cwd: t.workDir, env: { ...process.env, ...t.env } });
  const noSecretIn = (text: string, where: string) => {
    for (const secret of secrets) expect(text.includes(secret), `a secret in ${where}`).toBe(false);
  };

  it("command -> one pulumi import --file -> the program compiles and previews clean -> a second run finds nothing", async () => {
    // 1. The command, connection from flags and the environment (the admin secret); a quarter of the webhooks are
    // disabled, which only --include-disabled takes.
    const first = await takeover(
      ["--base-url", emulator.baseUrl, "--partner-id", String(emulator.partnerId), "--include-disabled"],
      cliEnv({ SVC_ADMIN_SECRET: emulator.adminSecret }),
    );
    measured.takeoverProcess = first.ms;
    measured.takeoverListing = Number(/listed in (\d+) ms/.exec(first.stdout)?.[1]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`To import: ${TOKENS} app tokens, ${TEMPLATES} webhooks, 0 email templates.`);
    const importFile = JSON.parse(readFileSync(join(t.workDir, "import.json"), "utf8")) as { resources: { type: string; name: string; id: string }[] };
    const code = readFileSync(join(t.workDir, "index.ts"), "utf8");
    // Readable by the user alone, as the command's files always are (test/provider/takeoverCommand.test.ts).
    for (const file of ["import.json", "index.ts"]) expect(statSync(join(t.workDir, file)).mode & 0o777, file).toBe(0o600);
    expect(importFile.resources).toHaveLength(TOKENS + TEMPLATES);
    expect(new Set(importFile.resources.map((r) => r.name)).size).toBe(TOKENS + TEMPLATES);
    for (const r of importFile.resources) expect(r.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(importFile.resources.filter((r) => r.type === "svc:index:AppToken")).toHaveLength(TOKENS);
    // Names from descriptions (repeated ones numbered), and from the id when there is none.
    expect(importFile.resources.map((r) => r.name)).toEqual(expect.arrayContaining(["service-0", "service-0-2", "webhook-0", "webhook-1"]));
    expect(importFile.resources.some((r) => /^token-0-[a-z0-9]+$/.test(r.name))).toBe(true);
    expect(code).toContain('import * as svc from "pulumi-svc/native";');
    expect(code).toContain('// signSecret: config.requireSecret("webhook0SignSecret"),');
    noSecretIn(`${first.stdout}${first.stderr}${code}${JSON.stringify(importFile)}`, "the command's output or files");

    // 2. One `pulumi import --file`: the Node language host writes no code, so --generate-code=false.
    const imported = await pulumi(["import", "--file", "import.json", "--generate-code=false", "--yes"]);
    measured.pulumiImport = imported.ms;
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    const state = JSON.parse((await pulumi(["stack", "export"])).stdout) as { deployment: { resources: { type: string; protect?: boolean }[] } };
    const svcResources = state.deployment.resources.filter((r) => r.type.startsWith("svc:index:"));
    expect(svcResources).toHaveLength(TOKENS + TEMPLATES);
    expect(svcResources.every((r) => r.protect === true)).toBe(true);
    noSecretIn(backendFilesText(t.backendDir), "the backend's files");

    // 3. The written program type-checks and previews with no change.
    const tscStarted = performance.now();
    const tsc = await run(process.execPath, [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.json"], {
      cwd: t.workDir,
      env: process.env,
    });
    measured.tsc = Math.round(performance.now() - tscStarted);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
    const previewStarted = performance.now();
    const preview = await t.stack.preview({ diff: true });
    measured.preview = Math.round(performance.now() - previewStarted);
    expect(changes(preview.changeSummary), preview.stdout).toEqual({});
    expect(preview.changeSummary.same).toBe(TOKENS + TEMPLATES + 1);

    // 4. A second run, given the stack's export, finds nothing; it writes nothing either.
    const exportFile = join(t.tmp, "export.json");
    writeFileSync(exportFile, (await pulumi(["stack", "export"])).stdout);
    const written = statSync(join(t.workDir, "index.ts")).mtimeMs;
    const second = await takeover(
      ["--state", exportFile, "--base-url", emulator.baseUrl, "--partner-id", String(emulator.partnerId)],
      cliEnv({ SVC_ADMIN_SECRET: emulator.adminSecret }),
    );
    measured.secondRun = second.ms;
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`${TOKENS + TEMPLATES} already managed by the stack`);
    expect(second.stdout).toContain("Nothing to import.");
    expect(statSync(join(t.workDir, "index.ts")).mtimeMs).toBe(written);

    // 5. What is made later is found alone, with names the stack does not use yet; the connection here comes from
    // the stack's own config (`pulumi config --json --show-secrets`) and the state from standard input.
    await client.appTokens.add({ description: "service 0" });
    const configFile = join(t.tmp, "config.json");
    writeFileSync(configFile, (await pulumi(["config", "--json", "--show-secrets"])).stdout);
    const third = await takeover(
      ["--config", configFile, "--state", "-", "--import-file", "later.json", "--code", "later.ts"],
      cliEnv(),
      readFileSync(exportFile, "utf8"),
    );
    // The plain config file holds the admin secret: gone once read, as a user would delete it (the secret scan at
    // cleanup searches this folder).
    rmSync(configFile);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain("To import: 1 app token, 0 webhooks, 0 email templates.");
    const later = JSON.parse(readFileSync(join(t.workDir, "later.json"), "utf8")) as { resources: { name: string }[] };
    expect(later.resources.map((r) => r.name)).toEqual(["service-0-4"]);
    noSecretIn(third.stdout + third.stderr + readFileSync(join(t.workDir, "later.ts"), "utf8"), "the third run");
  }, 900_000);

  it("fails clearly without a connection, and never overwrites files without --force", async () => {
    const missing = await takeover([], cliEnv());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No platform URL: set `svc:baseUrl` (stack config) or SVC_BASE_URL");
    const noSecret = await takeover(["--base-url", emulator.baseUrl, "--partner-id", String(emulator.partnerId)], cliEnv());
    expect(noSecret.code).toBe(1);
    expect(noSecret.stderr).toContain("No credentials");
    const dir = join(t.tmp, "overwrite");
    mkdirSync(dir);
    writeFileSync(join(dir, "index.ts"), "// mine\n");
    const refused = await run(process.execPath, [cli, "takeover", "--base-url", emulator.baseUrl, "--partner-id", String(emulator.partnerId)], {
      cwd: dir,
      env: cliEnv({ SVC_ADMIN_SECRET: emulator.adminSecret }),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("index.ts exists; pass --force");
    expect(readFileSync(join(dir, "index.ts"), "utf8")).toBe("// mine\n");
  }, 120_000);
});

describe("takeover: what a stack manages, and names", () => {
  const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;

  it("reads the ids of dynamic and plugin resources from a stack export; objects read with .get() stay candidates", () => {
    const managed = managedBy({
      version: 3,
      deployment: {
        resources: [
          { urn: urn("pulumi:pulumi:Stack", "p-dev"), type: "pulumi:pulumi:Stack" },
          { urn: urn("pulumi-nodejs:dynamic/svc:AppToken", "ci"), type: "pulumi-nodejs:dynamic/svc:AppToken", id: "0_aaa", outputs: { partnerId: 101 } },
          { urn: urn("svc:index:HttpNotificationTemplate", "hook"), type: "svc:index:HttpNotificationTemplate", id: "1001" },
          { urn: urn("svc:index:AppToken", "looked-up"), type: "svc:index:AppToken", id: "0_bbb", external: true },
          { urn: urn("random:index/randomId:RandomId", "r"), type: "random:index/randomId:RandomId", id: "0_ccc" },
        ],
      },
    });
    expect(managed.ids).toEqual([
      { type: "AppToken", id: "0_aaa", partnerId: 101 },
      { type: "HttpNotificationTemplate", id: "1001" },
    ]);
    expect(managed.names.get("AppToken")).toEqual(new Set(["ci", "looked-up"]));
    expect(() => managedBy({ resources: [] })).toThrow("not the output of `pulumi stack export`");
  });

  it("names candidates uniquely (against the stack's names too), leaves out managed ids of this account, skips events outside the catalog", async () => {
    const fake = (type: string, objects: Existing[]): ResourceDefinition => ({
      ...(type === "AppToken" ? appToken : httpNotificationTemplate),
      list: async () => objects,
    });
    const managed = managedBy({
      deployment: {
        resources: [
          { urn: urn("svc:index:AppToken", "deploy"), type: "svc:index:AppToken", id: "0_managed", outputs: { partnerId: 101 } },
          // The same id in another account's state does not hide this account's object.
          { urn: urn("svc:index:AppToken", "other"), type: "svc:index:AppToken", id: "0_elsewhere", outputs: { partnerId: 999 } },
        ],
      },
    });
    const listing = await listCandidates(OFFLINE, 101, managed, {
      definitions: [
        fake("AppToken", [
          { id: "0_managed", name: "Deploy", inputs: {} },
          { id: "0_b", name: "Deploy", inputs: {} },
          { id: "0_a", name: "Deploy", inputs: {} },
          { id: "0_elsewhere", name: "0_elsewhere", inputs: {} },
          { id: "0_c", name: "  !!  ", inputs: {} },
        ]),
        fake("HttpNotificationTemplate", [
          { id: "7", name: "Deploy", inputs: { event: "entry.ready" } },
          { id: "8", name: "ODD", inputs: { eventType: "99", eventObjectType: "1" } },
        ]),
      ],
    });
    expect(listing.managedCount).toBe(1);
    expect(listing.candidates.map((c) => [c.id, c.name])).toEqual([
      ["0_a", "deploy-2"],
      ["0_b", "deploy-3"],
      ["0_c", "token-0-c"],
      ["0_elsewhere", "token-0-elsewhere"],
      // Unique per type in the stack (a URN holds the type): the stack's AppToken "deploy" does not take a template's name.
      ["7", "deploy"],
    ]);
    expect(listing.skipped).toEqual([
      { type: "HttpNotificationTemplate", id: "8", reason: "reacts to an event outside the catalog (eventType 99, eventObjectType 1)" },
    ]);
  });
});
