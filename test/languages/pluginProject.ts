/**
 * An example program of examples/<language> run as users run it, through the engine and the native plugin, against
 * an emulator in this process: the folder copied into a temp dir (its `plugins: providers: path` made absolute: the
 * build's dist/pulumi-resource-svc), `pulumi stack init`, the `svc:*` config and the secrets, on a temp file backend
 * and PULUMI_HOME, with the engine and the language tools of scripts/ensure-languages.sh on PATH.
 *
 * Commands run asynchronously: the emulator answers in this process's event loop.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { engineEnv, repoRoot } from "../../scripts/engineEnv";
import { SvcClient } from "../../sdk";
import { backendFilesText } from "../support/pulumi";
import { emulatorSecrets, FIXED_TEST_SECRETS, SecretScan } from "../support/secretScan";

export const pluginDir = join(repoRoot, "dist", "pulumi-resource-svc");
export const SIGN_SECRET = FIXED_TEST_SECRETS.languagesSignSecret;
/** What the examples' Pulumi.yaml say, relative to examples/<language>. */
const RELATIVE_PLUGIN_PATH = "path: ../../dist/pulumi-resource-svc";

export interface PluginProject {
  tmp: string;
  dir: string;
  backendDir: string;
  env: Record<string, string>;
  emulator: RunningEmulator;
  client: SvcClient;
  /**
   * Checked at close (test/support/secretScan.ts): the temp folder (backend, PULUMI_HOME, program), every command's
   * stdout and stderr (stdout of `--show-secrets` commands aside), secret config, and the emulator's secrets.
   */
  scan: SecretScan;
  /** Runs `cmd args` in the project folder with the project's env; resolves stdout, rejects with stderr. */
  exec(cmd: string, args: string[], cwd?: string): Promise<string>;
  /** `pulumi <args> --non-interactive` in the project folder. */
  pulumi(...args: string[]): Promise<string>;
  /** Every file of the state backend as one text (for "no secret in plain text"). */
  backendText(): string;
  /** The resource changes of the stack's last update. */
  lastChanges(): Promise<Record<string, number>>;
  /** `pulumi preview --json`'s change summary. */
  preview(): Promise<Record<string, number>>;
  /** The stack's state: resources by name. */
  resources(): Promise<Record<string, { type: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>>;
  /** Runs the secret scan (a hit fails the test), and releases the emulator and the temp folder either way. */
  close(): Promise<void>;
}

export async function pluginProject(example: string, options: { stack?: string; env?: Record<string, string> } = {}): Promise<PluginProject> {
  const stack = options.stack ?? "test";
  const emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-langplugin-"));
  const dir = join(tmp, "program");
  const home = join(tmp, "home");
  const backendDir = join(tmp, "backend");
  mkdirSync(home);
  mkdirSync(backendDir);
  cpSync(join(repoRoot, "examples", example), dir, { recursive: true });
  const yamlPath = join(dir, "Pulumi.yaml");
  const yaml = readFileSync(yamlPath, "utf8");
  if (!yaml.includes(RELATIVE_PLUGIN_PATH)) throw new Error(`examples/${example}/Pulumi.yaml does not name the plugin as "${RELATIVE_PLUGIN_PATH}"`);
  writeFileSync(yamlPath, yaml.replace(RELATIVE_PLUGIN_PATH, `path: ${pluginDir}`));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...engineEnv({ languages: true, home, backendUrl: `file://${backendDir}`, passphrase: FIXED_TEST_SECRETS.languagesPluginPassphrase }),
    PULUMI_STACK: stack,
    CGO_ENABLED: "0",
    ...options.env,
  };
  const scan = new SecretScan();
  scan.addRoot(tmp);
  scan.addSource(() => emulatorSecrets(emulator));
  const exec = (cmd: string, args: string[], cwd = dir) =>
    new Promise<string>((resolve, reject) => {
      const secretIndex = args.indexOf("--secret");
      const secretValue = secretIndex === -1 ? undefined : args[secretIndex + 2];
      if (secretValue) scan.register(`secret config ${args[secretIndex + 1]}`, secretValue);
      execFile(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        const command = [cmd, ...args.filter((a) => !a.startsWith("--"))].slice(0, 3).join(" ");
        // `--show-secrets` asks for plain values on stdout: that is the one place they may be.
        if (!args.includes("--show-secrets")) scan.record(`${command}: stdout`, stdout);
        scan.record(`${command}: stderr`, stderr);
        if (error) reject(new Error(`${cmd} ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      });
    });
  const pulumi = (...args: string[]) => exec("pulumi", [...args, "--non-interactive"]);
  await pulumi("stack", "init", stack);
  await pulumi("config", "set", "svc:baseUrl", emulator.baseUrl);
  await pulumi("config", "set", "svc:partnerId", String(emulator.partnerId));
  await pulumi("config", "set", "--secret", "svc:adminSecret", emulator.adminSecret);
  await pulumi("config", "set", "webhookUrl", "https://publishing.example.com/hooks/entry-ready");
  await pulumi("config", "set", "--secret", "webhookSigningSecret", SIGN_SECRET);
  const client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
  return {
    tmp,
    dir,
    backendDir,
    env,
    emulator,
    client,
    scan,
    exec,
    pulumi,
    backendText: () => backendFilesText(backendDir),
    async lastChanges() {
      const history = JSON.parse(await pulumi("stack", "history", "--json")) as { resourceChanges?: Record<string, number> }[];
      return history[0]?.resourceChanges ?? {};
    },
    async preview() {
      return (JSON.parse(await pulumi("preview", "--json")) as { changeSummary?: Record<string, number> }).changeSummary ?? {};
    },
    async resources() {
      const state = JSON.parse(await pulumi("stack", "export")) as {
        deployment: { resources?: { urn: string; type: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[] };
      };
      return Object.fromEntries((state.deployment.resources ?? []).map((r) => [r.urn.split("::").pop()!, r]));
    },
    async close() {
      try {
        scan.check();
      } finally {
        await client.close();
        await emulator.close();
        rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}

/** A token made outside Pulumi, to import: what the program then declares for it. */
export const OUTSIDE_TOKEN = { description: "made outside Pulumi", hashType: "SHA1", sessionType: "ADMIN", sessionDuration: 7200, sessionPrivileges: "list:*" };

export async function makeOutsideToken(client: SvcClient): Promise<{ id: string; token: string }> {
  const made = await client.appTokens.add({
    description: OUTSIDE_TOKEN.description,
    hashType: OUTSIDE_TOKEN.hashType,
    sessionType: 2,
    sessionDuration: OUTSIDE_TOKEN.sessionDuration,
    sessionPrivileges: OUTSIDE_TOKEN.sessionPrivileges,
  } as never);
  if (!made.token) throw new Error("the emulator returned no token value");
  return { id: made.id, token: made.token };
}
