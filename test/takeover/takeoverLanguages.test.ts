/**
 * `pulumi-svc takeover --language python|go|yaml` on an account a team left: 100 app tokens, 20 webhooks and 10 email
 * templates, a tenth of the tokens and a quarter of the templates disabled. Per language, one stack on one emulator
 * seeded once: the command (run as users run it: the package's bin, dist/provider/cli/main.js) writes the import
 * file and the program; one `pulumi import --file` adopts everything through the native plugin; the written program
 * then previews with no change (Python on the Python host with the generated SDK; YAML on the YAML host; Go through
 * the Automation API, no Go language host being served here; TypeScript on the Node.js host, on `pulumi-svc/native`).
 * test/plugin/takeover.test.ts follows TypeScript further (tsc, a second run that finds nothing, names).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppTokenStatus, TemplateStatus, TemplateType } from "../../contract/platform";
import { type RunningEmulator, startEmulator } from "../../emulator";
import type { AppTokenRecord } from "../../emulator/platform/appTokenRecords";
import { engineEnv, languageTools, repoRoot } from "../../scripts/engineEnv";
import { SvcClient } from "../../sdk";
import { backendFilesText } from "../support/pulumi";
import { variedTokenFields } from "../support/variedTokens";

const TOKENS = 100;
const WEBHOOKS = 20;
const EMAILS = 10;
const ALL = TOKENS + WEBHOOKS + EMAILS;
const SIGN_SECRET = "takeover-languages-signing-0123456789";
const pluginDir = join(repoRoot, "dist", "pulumi-resource-svc");

describe("pulumi-svc takeover in TypeScript, Python, Go and YAML", () => {
  let emulator: RunningEmulator;
  let client: SvcClient;
  let tmp: string;
  let cli: string;
  let env: Record<string, string>;
  const secrets: string[] = [];
  const measured: Record<string, number> = {};

  const exec = (cmd: string, args: string[], cwd: string, extra: Record<string, string> = {}) =>
    new Promise<string>((resolve, reject) => {
      execFile(cmd, args, { cwd, env: { ...env, ...extra }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${cmd} ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      });
    });
  const timed = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      measured[what] = Math.round(performance.now() - started);
    }
  };

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    secrets.push(emulator.adminSecret, SIGN_SECRET);
    tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-takeover-langs-"));
    mkdirSync(join(tmp, "home"));
    mkdirSync(join(tmp, "backend"));
    env = {
      ...(process.env as Record<string, string>),
      ...engineEnv({ languages: true, home: join(tmp, "home"), backendUrl: `file://${join(tmp, "backend")}`, passphrase: "takeover-languages" }),
      ...Object.fromEntries(["SVC_BASE_URL", "SVC_PARTNER_ID", "SVC_ADMIN_SECRET", "SVC_APP_TOKEN_ID", "SVC_APP_TOKEN", "SVC_KS"].map((k) => [k, ""])),
      PULUMI_STACK: "test",
      CGO_ENABLED: "0",
    };

    // The command as the package installs it (its bin): the build's dist/, which reads plugin/schema.json beside it.
    cli = join(repoRoot, "dist", "provider", "cli", "main.js");
    expect(existsSync(cli), "the build's command line: run npm run build").toBe(true);

    // Tokens with repeated, missing and varied settings; every tenth disabled (the platform's status 1: the API has
    // no call that disables a token, so the emulator's record is changed).
    for (let i = 0; i < TOKENS; i++) {
      const token = await client.appTokens.add(variedTokenFields(i));
      secrets.push(token.token!);
      if (i % 10 === 3) {
        const record = emulator.ctx.store.getDoc<AppTokenRecord>("appToken", token.id)!;
        emulator.ctx.store.putDoc("appToken", token.id, record.partnerId, { ...record, status: AppTokenStatus.DISABLED });
      }
    }
    // Webhooks on every catalog event; clones start disabled, three in four are activated.
    const httpSources = (await client.templates.listTemplates({ typeEqual: TemplateType.HTTP })).objects;
    for (let i = 0; i < WEBHOOKS; i++) {
      const clone = await client.templates.clone(httpSources[i % httpSources.length]!.id, {
        name: `Webhook ${i}`,
        ...(i % 2 === 0 ? { systemName: `WEBHOOK_${i}` } : {}),
        ...(i % 3 === 0 ? { description: `hook number ${i}\nsecond line, "quoted", $\{not.an.interpolation}` } : {}),
        url: `https://hooks.example.com/${i}`,
        method: i % 5 === 0 ? 1 : 2,
        signSecret: SIGN_SECRET,
        secureHashingAlgo: (i % 3) + 1,
      });
      if (i % 4 !== 3) await client.templates.updateStatus(clone.id, TemplateStatus.ACTIVE);
    }
    // Email templates with recipients, content parameters and text that needs escaping in every language.
    const emailSources = (await client.emailTemplates.listTemplates()).objects;
    for (let i = 0; i < EMAILS; i++) {
      const clone = await client.emailTemplates.clone(emailSources[i % emailSources.length]!.id, {
        name: `Email ${i}`,
        ...(i % 2 === 0 ? { systemName: `EMAIL_${i}` } : {}),
        subject: `Ready: {entry_name} "${i}" \u00e9t\u00e9 \u{1F600} $HOME`,
        body: `Entry {entry_name} is ready.\n\tSee ${"$"}{entry.id} \\ done.\u2028end`,
        fromEmail: `video${i}@example.com`,
        to: { emailRecipients: [{ email: `editors${i}@example.com`, ...(i % 3 === 0 ? { name: `Editors "${i}"` } : {}) }] },
        ...(i % 2 === 1 ? { cc: { emailRecipients: [{ email: "lead@example.com" }] } } : {}),
        contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
      });
      if (i % 4 !== 3) await client.emailTemplates.updateStatus(clone.id, TemplateStatus.ACTIVE);
    }
  }, 600_000);

  afterAll(async () => {
    console.log(`takeover languages (ms): ${JSON.stringify(measured)}`);
    await client?.close();
    await emulator?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** A project of the native plugin in `language`, its `test` stack set to reach the emulator. */
  async function project(
    language: string,
    runtime: string,
    main?: string,
  ): Promise<{ dir: string; name: string; pulumi: (...args: string[]) => Promise<string> }> {
    const name = `takeover-${language}`;
    const dir = join(tmp, language);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "Pulumi.yaml"),
      `name: ${name}\nruntime: ${runtime}\n${main ? `main: ${main}\n` : ""}plugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`,
    );
    const pulumi = (...args: string[]) => exec("pulumi", [...args, "--non-interactive"], dir);
    await pulumi("stack", "init", "test");
    // One CLI run for the three settings.
    await pulumi(
      "config",
      "set-all",
      "--plaintext",
      `svc:baseUrl=${emulator.baseUrl}`,
      "--plaintext",
      `svc:partnerId=${emulator.partnerId}`,
      "--secret",
      `svc:adminSecret=${emulator.adminSecret}`,
    );
    return { dir, name, pulumi };
  }

  /** The command, then one `pulumi import --file`; returns the program written. */
  async function takeoverAndImport(language: string, dir: string, code: string, pulumi: (...args: string[]) => Promise<string>, extra: string[] = []) {
    const out = await timed(`${language}.takeover`, () =>
      exec(
        process.execPath,
        [
          cli,
          "takeover",
          "--language",
          language,
          "--include-disabled",
          "--code",
          code,
          ...extra,
          "--base-url",
          emulator.baseUrl,
          "--partner-id",
          String(emulator.partnerId),
        ],
        dir,
        { SVC_ADMIN_SECRET: emulator.adminSecret },
      ),
    );
    expect(out).toContain(`To import: ${TOKENS} app tokens, ${WEBHOOKS} webhooks, ${EMAILS} email templates.`);
    const program = readFileSync(resolve(dir, code), "utf8");
    for (const secret of secrets) expect(out.includes(secret) || program.includes(secret), "a secret in the command's output or program").toBe(false);
    const imported = await timed(`${language}.import`, () => pulumi("import", "--file", "import.json", "--generate-code=false", "--yes"));
    expect(imported).toMatch(new RegExp(`${ALL} imported`));
    return program;
  }

  it("Python: the written __main__.py previews clean after the import", async () => {
    const p = await project("python", "python");
    // The generated SDK into a folder of this test (the cached venv is left as it is): PYTHONPATH names it.
    const sdk = join(tmp, "sdk-python");
    cpSync(join(repoRoot, "sdk-gen", "python"), sdk, { recursive: true });
    const site = join(tmp, "site");
    await timed("python.sdk", () =>
      exec(
        languageTools().python,
        ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-q", "--no-build-isolation", "--no-deps", "--target", site, sdk],
        tmp,
      ),
    );
    env.PYTHONPATH = site;
    const program = await takeoverAndImport("python", p.dir, "__main__.py", p.pulumi);
    expect(program).toContain("import pulumi_svc as svc");
    const preview = await timed("python.preview", () => p.pulumi("preview", "--json", "--expect-no-changes"));
    expect(JSON.parse(preview).changeSummary).toEqual({ same: ALL + 1 });
    for (const secret of secrets) expect(backendFilesText(join(tmp, "backend")).includes(secret)).toBe(false);
  }, 600_000);

  it("TypeScript: the written index.ts (on pulumi-svc/native) previews clean after the import", async () => {
    const p = await project("typescript", "nodejs", "index.ts");
    // The repository's node_modules, where pulumi-svc is this package (test/plugin/takeover.test.ts does the same).
    symlinkSync(join(repoRoot, "node_modules"), join(p.dir, "node_modules"), "dir");
    writeFileSync(
      join(p.dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "Node16", moduleResolution: "Node16", strict: true, skipLibCheck: true, types: ["node"] },
      }),
    );
    const program = await takeoverAndImport("typescript", p.dir, "index.ts", p.pulumi);
    expect(program).toContain('import * as svc from "pulumi-svc/native";');
    const preview = await timed("typescript.preview", () => p.pulumi("preview", "--json", "--expect-no-changes"));
    expect(JSON.parse(preview).changeSummary).toEqual({ same: ALL + 1 });
  }, 600_000);

  it("YAML: the written Main.yaml previews clean after the import", async () => {
    const p = await project("yaml", "yaml");
    const program = await takeoverAndImport("yaml", p.dir, "Main.yaml", p.pulumi);
    expect(program).toContain("type: svc:index:EmailNotificationTemplate");
    const preview = await timed("yaml.preview", () => p.pulumi("preview", "--json", "--expect-no-changes"));
    expect(JSON.parse(preview).changeSummary).toEqual({ same: ALL + 1 });
  }, 600_000);

  it("Go: the written program (package program) previews clean after the import", async () => {
    // The CLI loads the project's language host even for an import with --generate-code=false, and no Go host is
    // served here: the project says `runtime: yaml` for the import (which runs no program), as in goPlugin.test.ts.
    const p = await project("go", "yaml");
    const module = join(tmp, "gotakeover");
    cpSync(join(repoRoot, "test", "takeover", "gotakeover"), module, { recursive: true });
    const goMod = join(module, "go.mod");
    writeFileSync(goMod, readFileSync(goMod, "utf8").replace("=> ../../../sdk-gen/go", `=> ${join(repoRoot, "sdk-gen", "go")}`));
    mkdirSync(join(module, "program"));
    const program = await takeoverAndImport("go", p.dir, join(module, "program", "takeover.go"), p.pulumi, ["--go-package", "program"]);
    expect(program).toContain("package program");
    const runner = join(tmp, "gotakeover-bin");
    await timed("go.build", () => exec("go", ["build", "-o", runner, "."], module, { GOFLAGS: "-mod=mod" }));
    const report = await timed("go.preview", () => exec(runner, ["test", p.name], p.dir));
    expect(JSON.parse(report.trim().split("\n").pop()!)).toEqual({ same: ALL + 1 });
  }, 600_000);
});
