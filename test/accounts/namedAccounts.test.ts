/**
 * Named accounts in a TypeScript program (`pulumi-svc/native`), through the engine and the native plugin, against
 * one emulator with five partner accounts: the stack made with one explicit `svc.Provider` per account moves to
 * named accounts (stack config `svc:accounts.<name>.*` set by path, each resource's `account`) with nothing created,
 * deleted or replaced and every id the same; each account then holds exactly its objects, and one plugin process
 * serves them all; a function takes `account`; an unknown name is refused in preview with the names known; no
 * credential is in the state or any output (the secret scan at cleanup).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { pluginDir, values } from "../support/platformStack";
import { newTestStack, type TestStack } from "../support/pulumi";
import { emulatorSecrets } from "../support/secretScan";

const NAMES = ["eu", "us", "apac", "latam", "mea"];

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc/native";

interface Account {
  baseUrl: string;
  partnerId: number;
  adminSecret: string;
}

const config = new pulumi.Config();
const names = config.requireObject<string[]>("names");
const explicit = config.require("mode") === "explicit";
const tokenIds: Record<string, pulumi.Output<string>> = {};
const partners: Record<string, pulumi.Output<number>> = {};
for (const name of names) {
  let token: svc.AppToken;
  if (explicit) {
    // Before: a provider per account (a plugin process each).
    const account = config.requireSecretObject<Account>(\`account-\${name}\`);
    const provider = new svc.Provider(\`account-\${name}\`, { baseUrl: account.baseUrl, partnerId: account.partnerId, adminSecret: account.adminSecret });
    token = new svc.AppToken(\`\${name}-pipeline\`, { description: \`pipeline of \${name}\` }, { provider });
  } else {
    // After: the default provider serves every account by name.
    token = new svc.AppToken(\`\${name}-pipeline\`, { description: \`pipeline of \${name}\`, account: name });
  }
  tokenIds[name] = token.tokenId;
  partners[name] = token.partnerId;
}
const stray = config.get("strayAccount");
if (stray) new svc.AppToken("stray", { description: "nowhere", account: stray });
export const ids = tokenIds;
export const partnerIds = partners;
export const firstAccountTokenIds = explicit ? [] : svc.getAppTokensOutput({ account: names[0]! }).ids;
`;

describe("named accounts in a TypeScript program", () => {
  let emulator: RunningEmulator;
  let t: TestStack;
  let tmp: string;
  let partners: Record<string, { partnerId: number; adminSecret: string }>;
  let starts: string;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
    partners = Object.fromEntries(
      NAMES.map((name) => {
        const row = emulator.ctx.createPartner();
        return [name, { partnerId: row.id, adminSecret: row.adminSecret }];
      }),
    );
    tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-accounts-"));
    const program = join(tmp, "program");
    mkdirSync(program);
    writeFileSync(join(program, "index.ts"), PROGRAM);
    // A launcher that records each start of the plugin, so the test sees how many processes served the run.
    const launcherDir = join(tmp, "plugin");
    starts = join(tmp, "plugin-starts");
    mkdirSync(launcherDir);
    writeFileSync(join(launcherDir, "pulumi-resource-svc"), `#!/bin/sh\necho "$$" >> '${starts}'\nexec '${join(pluginDir, "pulumi-resource-svc")}' "$@"\n`);
    chmodSync(join(launcherDir, "pulumi-resource-svc"), 0o755);
    writeFileSync(join(program, "Pulumi.yaml"), `name: named-accounts\nruntime: nodejs\nplugins:\n  providers:\n    - name: svc\n      path: ${launcherDir}\n`);
    writeFileSync(
      join(program, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "Node16", moduleResolution: "Node16", strict: true, esModuleInterop: true, skipLibCheck: true },
      }),
    );
    writeFileSync(join(program, "package.json"), JSON.stringify({ name: "named-accounts", private: true }));
    t = await newTestStack(program, { copyProgram: true, stackName: "accounts" });
    t.scan.addSource(() => emulatorSecrets(emulator));
    await t.stack.setAllConfig({
      names: { value: JSON.stringify(NAMES) },
      mode: { value: "explicit" },
      ...Object.fromEntries(
        NAMES.map((name) => [`account-${name}`, { value: JSON.stringify({ baseUrl: emulator.baseUrl, ...partners[name] }), secret: true }]),
      ),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await emulator?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** Each account's active tokens on the platform: ids, and descriptions. */
  const tokensOf = (partnerId: number) =>
    emulator.ctx.store.listDocs<{ id: string; status: number; description: string }>("appToken", partnerId).filter((d) => d.status === 2);
  /** The plugin processes started since the last take. */
  const takeStarts = () => {
    const count = existsSync(starts) ? readFileSync(starts, "utf8").trim().split("\n").filter(Boolean).length : 0;
    writeFileSync(starts, "");
    return count;
  };

  it("moves five explicit providers to named accounts without replacement; isolation, one process, a function, an unknown name", async () => {
    // 1. Before: one explicit provider per account, one process each.
    const first = await t.stack.up();
    expect(first.summary.resourceChanges).toEqual({ create: 11 });
    const idsBefore = values(first.outputs).ids as Record<string, string>;
    for (const name of NAMES) expect(tokensOf(partners[name]!.partnerId).map((d) => d.id)).toEqual([idsBefore[name]]);
    expect(takeStarts()).toBeGreaterThanOrEqual(NAMES.length);

    // 2. After: the accounts in stack config by path (each credential a secret), each resource naming its account.
    for (const name of NAMES) {
      await t.stack.setConfig(`svc:accounts.${name}.baseUrl`, { value: emulator.baseUrl }, true);
      await t.stack.setConfig(`svc:accounts.${name}.partnerId`, { value: String(partners[name]!.partnerId) }, true);
      await t.stack.setConfig(`svc:accounts.${name}.adminSecret`, { value: partners[name]!.adminSecret, secret: true }, true);
    }
    await t.stack.setConfig("mode", { value: "named" });
    const preview = await t.stack.preview();
    // Each token's `account` recorded (an update that calls nothing), the five providers gone; no create, no replace.
    expect(preview.changeSummary).toEqual({ update: NAMES.length, delete: NAMES.length, same: 1 });
    emulator.ctx.stats.reset();
    const moved = await t.stack.up();
    expect(moved.summary.resourceChanges).toEqual({ update: NAMES.length, delete: NAMES.length, same: 1 });
    expect(Object.keys(emulator.ctx.stats.snapshot()).filter((call) => /\.(add|update|delete)$/.test(call))).toEqual([]);
    const out = values(moved.outputs) as { ids: Record<string, string>; partnerIds: Record<string, number>; firstAccountTokenIds: string[] };
    expect(out.ids).toEqual(idsBefore);
    // Isolation: each account holds exactly its token; the function searched the first account only.
    for (const name of NAMES) {
      expect(out.partnerIds[name]).toBe(partners[name]!.partnerId);
      expect(tokensOf(partners[name]!.partnerId).map((d) => [d.id, d.description])).toEqual([[idsBefore[name], `pipeline of ${name}`]]);
    }
    expect(out.firstAccountTokenIds).toEqual([idsBefore[NAMES[0]!]]);
    expect(tokensOf(emulator.partnerId)).toEqual([]);
    takeStarts();

    // 3. Clean, and one plugin process for every account (the old providers' deletes started theirs during the move).
    expect((await t.stack.preview()).changeSummary).toEqual({ same: NAMES.length + 1 });
    expect(takeStarts()).toBe(1);

    // 4. An unknown name: refused in preview, naming it and the names known; nothing made.
    await t.stack.setConfig("strayAccount", { value: "emea" });
    await expect(t.stack.preview()).rejects.toThrow(/account "emea" is unknown: this provider knows "apac", "eu", "latam", "mea", "us"/);
    await t.stack.removeConfig("strayAccount");
    for (const name of NAMES) expect(tokensOf(partners[name]!.partnerId)).toHaveLength(1);
  }, 420_000);
});
