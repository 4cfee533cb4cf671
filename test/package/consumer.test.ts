/**
 * The package as a user meets it. `npm pack` (prepack builds it), then the tarball installed with `npm install`
 * into a program of its own in a temp dir outside the repo (its own package.json and strict tsconfig.json):
 * the emulator's packages (optional peer dependencies) are not installed and the emulator says what to install;
 * once they are, every export resolves and type-checks, `svc-emulator` runs from the installed package, and the
 * plain `pulumi` CLI takes a stack through init, secret config, up, preview --expect-no-changes and destroy, as a
 * pipeline does.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMULATOR_PACKAGES, MEDIA_PACKAGES } from "../../emulator/shared/optionalPackages";
import { SvcClient } from "../../sdk";
import { cleanEnv, pulumiEnv, run, runOk, scratchDir, startEmulatorBin, type EmulatorInfo, type Result } from "./processes";
import { installTarball, MAX_PACKED_BYTES, packRepo, repoToolVersion, writeFiles, type Packed } from "./packedPackage";

const SIGN_SECRET = "consumer-signing-secret-0123456789";
const PASSPHRASE = "consumer-test-passphrase";

/** A user's program, written apart from the repo: it knows the package only by its name. */
const consumerProgram = (): Record<string, string> => ({
  "package.json": JSON.stringify(
    { name: "svc-consumer", private: true, devDependencies: { typescript: repoToolVersion("typescript"), "@types/node": repoToolVersion("@types/node") } },
    null,
    2,
  ),
  "tsconfig.json": JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        module: "Node16",
        moduleResolution: "Node16",
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noImplicitOverride: true,
        esModuleInterop: true,
        // The package's own declaration files are checked too (skipLibCheck would hide a broken .d.ts).
        skipLibCheck: false,
        types: ["node"],
        noEmit: true,
      },
      include: ["*.ts"],
    },
    null,
    2,
  ),
  "Pulumi.yaml": "name: svc-consumer\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\n",
  "index.ts": `import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

const token = new svc.AppToken("consumer", {
  description: "installed from the tarball",
  sessionType: "USER",
  sessionDuration: 3600,
  keepers: { rotation: config.get("rotation") ?? "1" },
});

const hook = new svc.HttpNotificationTemplate("hook", {
  event: "entry.ready",
  name: "Consumer hook",
  systemName: "CONSUMER_HOOK",
  url: config.require("webhookUrl"),
  signSecret: config.requireSecret("signSecret"),
});

export const tokenId = token.tokenId;
export const tokenValue = token.token;
export const templateId = hook.templateId;
`,
  // Every other public entry, used the way their docs show; type-checked, and run by entries.ts below.
  "entries.ts": `import { SvcClient, computeSignature, verifySignature, type SvcClientOptions } from "pulumi-svc/sdk";
import { AvatarSessionApi, AvatarApiError } from "pulumi-svc/sdk/avatar";
import { SvcAvatarSession, AvatarError, SessionState, type AvatarConfig } from "pulumi-svc/sdk/client";
import { FakeClock, FakeDocument, FakePeerConnection } from "pulumi-svc/sdk/client/fakes";
import { startEmulator, EVENT_KEYS, type RunningEmulator } from "pulumi-svc/emulator";
import * as runtime from "pulumi-svc/provider-runtime";

export async function exerciseEntries(): Promise<string[]> {
  const emulator: RunningEmulator = await startEmulator({ port: 0, quiet: true });
  const options: SvcClientOptions = { baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } };
  const client = new SvcClient(options);
  try {
    const made = await client.appTokens.add({ description: "from entries.ts" });
    const body = '{"event":"x"}';
    const signature = computeSignature(body, "secret-0123456789abcdef");
    const clock = new FakeClock();
    const seen: string[] = [
      typeof made.id,
      String(verifySignature(body, signature, "secret-0123456789abcdef")),
      typeof AvatarSessionApi,
      typeof AvatarApiError,
      typeof SvcAvatarSession,
      typeof AvatarError,
      typeof SessionState,
      typeof FakeDocument,
      typeof FakePeerConnection,
      String(clock.now() > 0),
      String(EVENT_KEYS.length > 0),
      Object.keys(runtime).sort().join(","),
    ];
    const config: Partial<AvatarConfig> = {};
    seen.push(typeof config);
    return seen;
  } finally {
    await client.close();
    await emulator.close();
  }
}

if (require.main === module) {
  exerciseEntries().then((seen) => console.log(JSON.stringify(seen)), (error: unknown) => { console.error(error); process.exit(1); });
}
`,
});

describe("the package as a user installs it", () => {
  let tmp: string;
  let packed: Packed;
  let program: string;
  let emulator: Awaited<ReturnType<typeof startEmulatorBin>> | undefined;
  let info: EmulatorInfo;
  const outputs: Result[] = [];

  beforeAll(async () => {
    tmp = scratchDir("pulumi-svc-consumer-");
    packed = await packRepo(join(tmp, "pack"));
    program = join(tmp, "program");
    writeFiles(program, consumerProgram());
    await installTarball(program, packed.tarball);
  }, 600_000);
  afterAll(async () => {
    await emulator?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("the tarball is publishable: not private, built library, types, the emulator's media, README, LICENSE, CHANGELOG, and nothing else", () => {
    expect(packed.manifest.private).toBeUndefined();
    expect(packed.manifest.name).toBe("pulumi-svc");
    expect(packed.size).toBeLessThan(MAX_PACKED_BYTES);
    const paths = packed.files.map((f) => f.path);
    for (const path of paths) {
      expect(path, path).toMatch(
        /^(dist\/(contract|provider|sdk|emulator|client|pulumi-resource-svc|policy)\/|plugin\/schema\.json$|emulator\/avatar\/media\/|policy\/(PulumiPolicy\.yaml|package\.json|analyzer)$|README\.md$|LICENSE$|CHANGELOG\.md$|package\.json$)/,
      );
      expect(path, path).not.toMatch(/(^|\/)(test|tests|bench|__tests__)\/|\.test\.|\.map$|tsbuildinfo/);
    }
    for (const path of [
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "dist/provider/index.d.ts",
      "dist/client/svc-avatar-session.js",
      "dist/pulumi-resource-svc/pulumi-resource-svc",
      "dist/pulumi-resource-svc/pulumi-resource-svc.js",
      // pulumi-svc/native reads the plugin's version and download URL from it
      "dist/provider/core/pluginRelease.js",
      "plugin/schema.json",
      "dist/emulator/cli.js",
      "dist/sdk/browser/fakes/index.d.ts",
      "emulator/avatar/media/avatar-face.ivf",
    ]) {
      expect(paths, path).toContain(path);
    }
    // prepack built it (npm pack runs it; the output says so)
    expect(packed.prepackOutput).toMatch(/prepack|setup/);
    console.log(`[consumer] packed ${packed.size} B (${packed.unpackedSize} B unpacked), ${paths.length} files`);
  });

  it("installs with one npm install: @pulumi/pulumi comes as the program's single copy (a peer), the runtime deps as dependencies, no emulator package", () => {
    const modules = join(program, "node_modules");
    for (const name of ["pulumi-svc", "@pulumi/pulumi", "undici", "zod", "commander"]) {
      expect(existsSync(join(modules, name, "package.json")), name).toBe(true);
    }
    expect(existsSync(join(modules, "pulumi-svc", "node_modules", "@pulumi"))).toBe(false);
    // dev tools of the repo stay out of a user's install
    for (const name of ["vitest", "esbuild", "nock", "playwright-core", "node"]) expect(existsSync(join(modules, name)), name).toBe(false);
    // nor do the emulator's packages and its media stack (optional peer dependencies, docs/packaging.md)
    for (const name of [...EMULATOR_PACKAGES, ...MEDIA_PACKAGES, "mediabunny"]) expect(existsSync(join(modules, name)), name).toBe(false);
  });

  it("without the emulator's packages the provider and the sdk load, and the emulator names the command that installs them", async () => {
    const env = cleanEnv();
    const node = (code: string) => run(process.execPath, ["-e", code], { cwd: program, env });
    const loaded = await node(
      'for (const m of ["pulumi-svc", "pulumi-svc/sdk", "pulumi-svc/sdk/avatar", "pulumi-svc/provider-runtime"]) require(m); console.log("loaded");',
    );
    expect(loaded.stderr).toBe("");
    expect(loaded.stdout.trim()).toBe("loaded");

    const manifest = packed.manifest as { peerDependencies: Record<string, string> };
    const command = `npm install ${EMULATOR_PACKAGES.map((name) => `${name}@${manifest.peerDependencies[name]}`).join(" ")}`;
    const imported = await node('require("pulumi-svc/emulator")');
    expect(imported.code).not.toBe(0);
    expect(imported.stderr).toContain(`needs the optional packages ${EMULATOR_PACKAGES.join(", ")}, which are not installed: ${command}`);
    const bin = join(program, "node_modules", ".bin", "svc-emulator");
    const started = await run(bin, ["start", "--port", "0", "--json"], { cwd: program, env, timeoutMs: 60_000 });
    expect(started.code).toBe(1);
    expect(started.stderr.trim()).toBe(
      `svc-emulator: The emulator (pulumi-svc/emulator, svc-emulator start) needs the optional packages ${EMULATOR_PACKAGES.join(", ")}, which are not installed: ${command}`,
    );
    // The commands that only talk to a running emulator load without them.
    expect((await runOk(bin, ["trigger", "--help"], { cwd: program, env })).stdout).toContain("fire an event on a running emulator");

    // What a user does next: the command the message gave (from the local cache, as the install above).
    const [npm, install, ...names] = command.split(" ");
    await runOk(npm as string, [install as string, "--no-audit", "--no-fund", "--prefer-offline", ...names], { cwd: program, env, timeoutMs: 300_000 });
    for (const name of EMULATOR_PACKAGES) expect(existsSync(join(program, "node_modules", name, "package.json")), name).toBe(true);
  }, 360_000);

  it("every export resolves, the browser condition gives the ES module bundle, and a strict tsc passes", async () => {
    const env = cleanEnv();
    const resolve = (conditions: string[], specifier: string) =>
      runOk(process.execPath, [...conditions.map((c) => `--conditions=${c}`), "-p", `require.resolve(${JSON.stringify(specifier)})`], {
        cwd: program,
        env,
      }).then((r) => r.stdout.trim());
    const pkg = join(program, "node_modules", "pulumi-svc");
    expect(await resolve([], "pulumi-svc")).toBe(join(pkg, "dist/provider/index.js"));
    expect(await resolve([], "pulumi-svc/sdk/client")).toBe(join(pkg, "dist/sdk/browser/index.js"));
    expect(await resolve(["browser"], "pulumi-svc/sdk/client")).toBe(join(pkg, "dist/client/svc-avatar-session.js"));
    expect(await resolve([], "pulumi-svc/sdk/client/fakes")).toBe(join(pkg, "dist/sdk/browser/fakes/index.js"));
    // the serialized provider's require path, and the one stored by releases before `exports` (compatibility promise)
    expect(await resolve([], "pulumi-svc/provider-runtime")).toBe(join(pkg, "dist/provider/runtime/index.js"));
    expect(await resolve([], "pulumi-svc/dist/provider/runtime")).toBe(join(pkg, "dist/provider/runtime/index.js"));
    const bundle = readFileSync(join(pkg, "dist/client/svc-avatar-session.js"), "utf8");
    expect(bundle).toMatch(/export\s*\{/);
    expect(JSON.parse(readFileSync(join(pkg, "dist/client/package.json"), "utf8"))).toEqual({ type: "module" });

    // The program's own tsc, strict, declaration files included; it also emits out/ for the next test to run.
    const tsc = await run(
      process.execPath,
      [join(program, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--noEmit", "false", "--outDir", "out"],
      { cwd: program, env },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  }, 180_000);

  it("the public entries work at run time from the installed package", async () => {
    const env = cleanEnv();
    // entries.ts as the strict tsc above compiled it, on plain node: no repo file is involved.
    expect(existsSync(join(program, "out", "entries.js")), "the tsc test above must pass first").toBe(true);
    const result = await runOk(process.execPath, [join(program, "out", "entries.js")], { cwd: program, env });
    const seen = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as string[];
    expect(seen).toEqual([
      "string",
      "true",
      "function",
      "function",
      "function",
      "function",
      "object",
      "function",
      "function",
      "true",
      "true",
      "appToken,configure,emailNotificationTemplate,httpNotificationTemplate",
      "object",
    ]);
  }, 120_000);

  it("svc-emulator runs from the installed package's bin", async () => {
    const bin = join(program, "node_modules", ".bin", "svc-emulator");
    emulator = await startEmulatorBin(bin, ["--partner-id", "4242", "--admin-secret", "consumer-admin-secret-01"], { cwd: program, env: cleanEnv() });
    info = emulator.info;
    expect(info).toMatchObject({ partnerId: 4242, adminSecret: "consumer-admin-secret-01" });
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api_v3$/);
    // Without the optional media stack the emulator runs all the same, with no TURN relay.
    expect(info.turnUrl).toBeNull();
  }, 60_000);

  it("the plain pulumi CLI: stack init, config set --secret, up, preview --expect-no-changes, destroy", async () => {
    expect(info, "the emulator test above must pass first").toBeDefined();
    const backend = join(tmp, "backend");
    const home = join(tmp, "pulumi-home");
    writeFiles(tmp, { "backend/.keep": "", "pulumi-home/.keep": "" });
    const env = cleanEnv(pulumiEnv(home, `file://${backend}`, PASSPHRASE));
    const pulumi = async (args: string[], input?: string) => {
      const result = await runOk("pulumi", [...args, "--non-interactive", "--color", "never"], {
        cwd: program,
        env,
        ...(input === undefined ? {} : { input }),
        timeoutMs: 240_000,
      });
      outputs.push(result);
      return result;
    };

    await pulumi(["stack", "init", "dev"]);
    await pulumi(["config", "set", "svc:baseUrl", info.baseUrl]);
    await pulumi(["config", "set", "svc:partnerId", String(info.partnerId)]);
    await pulumi(["config", "set", "webhookUrl", "http://127.0.0.1:9/hooks"]);
    // Secrets from stdin, as a pipeline pipes them from its secret store: never on a command line.
    await pulumi(["config", "set", "--secret", "svc:adminSecret"], info.adminSecret);
    await pulumi(["config", "set", "--secret", "signSecret"], SIGN_SECRET);
    const stackFile = readFileSync(join(program, "Pulumi.dev.yaml"), "utf8");
    expect(stackFile).toMatch(/svc:adminSecret:\n\s+secure: /);
    expect(stackFile).not.toContain(info.adminSecret);

    const up = await pulumi(["up", "--yes"]);
    expect(up.stdout).toMatch(/\+ 3 created/);
    await pulumi(["preview", "--expect-no-changes"]);
    const outputsJson = JSON.parse((await pulumi(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, string>;
    const tokenValue = outputsJson.tokenValue!;
    expect(tokenValue).toMatch(/^[0-9a-f]{32,}$/);

    const admin = new SvcClient({ baseUrl: info.baseUrl, partnerId: info.partnerId, auth: { adminSecret: info.adminSecret } });
    try {
      expect((await admin.appTokens.get(outputsJson.tokenId!)).description).toBe("installed from the tarball");
      expect((await admin.templates.get(outputsJson.templateId!)).systemName).toBe("CONSUMER_HOOK");

      // Secrets stay encrypted at rest and out of every line the CLI printed (outputs listed with --show-secrets aside).
      const atRest = readdirSync(backend, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
        .join("\n");
      expect(atRest).toContain(outputsJson.tokenId!);
      for (const secret of [info.adminSecret, SIGN_SECRET, tokenValue]) {
        expect(atRest).not.toContain(secret);
        for (const printed of outputs.slice(0, -1)) expect(printed.output).not.toContain(secret);
      }

      const destroy = await pulumi(["destroy", "--yes"]);
      expect(destroy.stdout).toMatch(/- 3 deleted/);
      await expect(admin.appTokens.get(outputsJson.tokenId!)).rejects.toThrow(/not found|APP_TOKEN_ID_NOT_FOUND/i);
      await pulumi(["stack", "rm", "--yes"]);
    } finally {
      await admin.close();
    }
  }, 600_000);
});
