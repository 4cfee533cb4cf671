/**
 * The policy pack (policy/) through the engine: `pulumi preview --policy-pack policy/analyzer` (the launcher that
 * starts pulumi-analyzer-policy: docs/policy.md) on small programs that break and keep each rule, with resources of
 * both providers: the native plugin's (`svc:index:*`, a YAML program) and the dynamic provider's
 * (`pulumi-nodejs:dynamic/svc:*`, a JavaScript program on `pulumi-svc`). A mandatory violation fails the preview
 * with the rule's message; a program that keeps every rule previews. One emulator, one backend, several previews.
 *
 * The provider's own check refuses a plain-http webhook outside loopback and a new webhook without signSecret, and the
 * engine analyzes only resources whose check passed: so the https rule is seen here as the preview failing on that
 * URL (its message is covered in test/policy/rules.test.ts), and the signSecret rule on a webhook imported without
 * one (what `pulumi-svc takeover` writes), which the provider accepts.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TemplateStatus, TemplateType } from "../../contract/platform";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { engineBinDir, engineEnv, repoRoot } from "../../scripts/engineEnv";
import { SvcClient } from "../../sdk";

const PACK = join(repoRoot, "policy", "analyzer");
const SIGN_SECRET = "policy-test-signing-secret-0123";
const MESSAGES = {
  adminExpiry: "an ADMIN app token in stack",
  signSecret: "every webhook template must declare signSecret",
  fromDomain: "email fromEmail must be in an allowed domain (example.com); this one is in evil.example",
};

interface Result {
  ok: boolean;
  output: string;
}

describe("the svc policy pack in `pulumi preview --policy-pack`", () => {
  let emulator: RunningEmulator;
  let client: SvcClient;
  let tmp: string;
  let env: Record<string, string>;
  let packConfig: string;
  let importedHookId: string;
  const inAYear = Math.floor(Date.now() / 1000) + 86_400 * 365;

  const run = (cmd: string, args: string[], cwd: string) =>
    new Promise<Result>((resolve) => {
      execFile(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ ok: !error, output: `${stdout}\n${stderr}` }),
      );
    });
  const must = async (cmd: string, args: string[], cwd: string) => {
    const result = await run(cmd, args, cwd);
    if (!result.ok) throw new Error(`${cmd} ${args.join(" ")} failed:\n${result.output}`);
    return result.output;
  };

  /** A project in a folder of its own with a stack reaching the emulator. */
  async function project(name: string, stack: string, files: Record<string, string>): Promise<string> {
    const dir = join(tmp, `${name}-${stack}`);
    mkdirSync(dir);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    if (files["index.js"]) symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
    await must("pulumi", ["stack", "init", stack, "--non-interactive"], dir);
    await must("pulumi", ["config", "set", "svc:baseUrl", emulator.baseUrl, "--stack", stack], dir);
    await must("pulumi", ["config", "set", "svc:partnerId", String(emulator.partnerId), "--stack", stack], dir);
    await must("pulumi", ["config", "set", "--secret", "svc:adminSecret", emulator.adminSecret, "--stack", stack], dir);
    await must("pulumi", ["config", "set", "--secret", "signSecret", SIGN_SECRET, "--stack", stack], dir);
    return dir;
  }
  const preview = (dir: string, stack: string) =>
    run("pulumi", ["preview", "--non-interactive", "--stack", stack, "--policy-pack", PACK, "--policy-pack-config", packConfig], dir);

  beforeAll(async () => {
    expect(existsSync(join(engineBinDir(), "pulumi-analyzer-policy")), "pulumi-analyzer-policy beside pulumi: run bash scripts/ensure-pulumi.sh").toBe(true);
    expect(existsSync(join(repoRoot, "dist", "policy", "index.js")), "the pack's code in dist/policy: run npm run build").toBe(true);
    emulator = await startEmulator({ quiet: true });
    client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-policy-"));
    mkdirSync(join(tmp, "home"));
    mkdirSync(join(tmp, "backend"));
    env = {
      ...(process.env as Record<string, string>),
      ...engineEnv({ languages: true, home: join(tmp, "home"), backendUrl: `file://${join(tmp, "backend")}`, passphrase: "policy-test" }),
    };
    packConfig = join(tmp, "policy-config.json");
    writeFileSync(packConfig, JSON.stringify({ "svc-email-from-domain": { allowedDomains: ["example.com"] } }));
    // A webhook made outside Pulumi (it has a signing secret on the platform, which cannot be read back).
    const source = (await client.templates.listTemplates({ typeEqual: TemplateType.HTTP, systemNameEqual: "HTTP_ENTRY_STATUS_READY" })).objects[0]!;
    const hook = await client.templates.clone(source.id, { name: "Made by hand", url: "https://hooks.example.com/by-hand", signSecret: SIGN_SECRET });
    await client.templates.updateStatus(hook.id, TemplateStatus.ACTIVE);
    importedHookId = hook.id;
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await emulator?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const yamlProgram = (resources: string) =>
    `name: policy-native\nruntime: yaml\nplugins:\n  providers:\n    - name: svc\n      path: ${join(repoRoot, "dist", "pulumi-resource-svc")}\nconfig:\n  signSecret:\n    type: string\n    secret: true\nresources:\n${resources}`;
  const email = (fromEmail: string) =>
    `  mail:\n    type: svc:index:EmailNotificationTemplate\n    properties:\n      event: entry.ready\n      name: Tell editors\n      subject: Ready\n      body: Entry ready.\n      fromEmail: ${fromEmail}\n      to:\n        - email: editors@example.com\n`;

  it("native resources (YAML, stack prod): a program breaking the rules fails with each rule's message; one keeping them previews", async () => {
    const dir = await project("native", "prod", { "Pulumi.yaml": yamlProgram("  placeholder:\n    type: svc:index:AppToken\n") });
    // The webhook made by hand, adopted without its signing secret (as takeover's program declares it).
    await must(
      "pulumi",
      [
        "import",
        "svc:index:HttpNotificationTemplate",
        "hook",
        importedHookId,
        "--generate-code=false",
        "--protect=false",
        "--yes",
        "--non-interactive",
        "--stack",
        "prod",
      ],
      dir,
    );

    writeFileSync(
      join(dir, "Pulumi.yaml"),
      yamlProgram(`  admin:\n    type: svc:index:AppToken\n    properties:\n      sessionType: ADMIN\n${email("video@evil.example")}${importedHook(false)}`),
    );
    const broken = await preview(dir, "prod");
    expect(broken.ok, broken.output).toBe(false);
    expect(broken.output).toContain("svc-admin-token-expiry");
    expect(broken.output).toContain(`${MESSAGES.adminExpiry} prod must expire`);
    expect(broken.output).toContain("svc-email-from-domain");
    expect(broken.output).toContain(MESSAGES.fromDomain);
    expect(broken.output).toContain("svc-template-sign-secret");
    expect(broken.output).toContain(MESSAGES.signSecret);
    expect(broken.output).not.toContain(SIGN_SECRET);

    writeFileSync(
      join(dir, "Pulumi.yaml"),
      yamlProgram(
        `  admin:\n    type: svc:index:AppToken\n    properties:\n      sessionType: ADMIN\n      expiry: ${inAYear}\n${email("video@example.com")}${importedHook(true)}` +
          `  local:\n    type: svc:index:HttpNotificationTemplate\n    properties:\n      event: entry.added\n      name: Local receiver\n      url: http://127.0.0.1:8099/hook\n      signSecret: \${signSecret}\n`,
      ),
    );
    const kept = await preview(dir, "prod");
    expect(kept.ok, kept.output).toBe(true);
    expect(kept.output).not.toContain("[mandatory]");

    // A plain-http webhook outside loopback never reaches the analyzer: the provider's check refuses it first.
    writeFileSync(
      join(dir, "Pulumi.yaml"),
      yamlProgram(
        `  remote:\n    type: svc:index:HttpNotificationTemplate\n    properties:\n      event: entry.added\n      name: Remote receiver\n      url: http://hooks.example.com/hook\n      signSecret: \${signSecret}\n`,
      ),
    );
    const plainHttp = await preview(dir, "prod");
    expect(plainHttp.ok).toBe(false);
    expect(plainHttp.output).toContain("expected an https:// URL");
  }, 300_000);

  /** The imported webhook, declared as it is on the platform; with or without the signing secret. */
  function importedHook(withSecret: boolean): string {
    return `  hook:\n    type: svc:index:HttpNotificationTemplate\n    properties:\n      event: entry.ready\n      name: Made by hand\n      url: https://hooks.example.com/by-hand\n${withSecret ? `      signSecret: \${signSecret}\n` : ""}`;
  }

  it("dynamic resources (JavaScript on pulumi-svc): the rules hold for them too, and the ADMIN rule only in prod* stacks", async () => {
    // JavaScript: the same resources as from TypeScript, without a compile in every preview.
    const program = `const svc = require("pulumi-svc");
new svc.AppToken("admin", { sessionType: "ADMIN", description: "no expiry" });
new svc.EmailNotificationTemplate("mail", {
  event: "entry.ready",
  name: "Tell editors",
  subject: "Ready",
  body: "Entry ready.",
  fromEmail: "video@evil.example",
  to: [{ email: "editors@example.com" }],
});
`;
    const files = {
      "Pulumi.yaml": "name: policy-dynamic\nruntime: nodejs\nmain: index.js\n",
      "package.json": JSON.stringify({ name: "policy-dynamic", private: true, main: "index.js" }),
      "index.js": program,
    };
    const prodDir = await project("dynamic", "prod-eu", files);
    const prod = await preview(prodDir, "prod-eu");
    expect(prod.ok, prod.output).toBe(false);
    expect(prod.output).toContain("pulumi-nodejs:dynamic/svc:AppToken");
    expect(prod.output).toContain(`${MESSAGES.adminExpiry} prod-eu must expire`);
    expect(prod.output).toContain(MESSAGES.fromDomain);

    const devDir = await project("dynamic", "dev", files);
    const dev = await preview(devDir, "dev");
    expect(dev.ok, dev.output).toBe(false);
    expect(dev.output).not.toContain("svc-admin-token-expiry");
    expect(dev.output).toContain(MESSAGES.fromDomain);
  }, 300_000);
});
