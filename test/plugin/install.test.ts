/**
 * Installing the plugin without a registry, from the packed package (what `npm install pulumi-svc` unpacks): the
 * folder dist/pulumi-resource-svc named in Pulumi.yaml (`plugins: providers: path`), the folder on PATH, and
 * `pulumi plugin install resource svc <version> --file` of the folder and of a tarball of it. Each path runs a
 * program through the engine (up, then destroy). The engine's PATH here holds `node` alone, so the plugin is found
 * only the way each case says. Also: `pulumi package get-schema` on the plugin's executable returns the schema.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { packRepo } from "../package/packedPackage";
import { engineBinDir, newTestStack, repoRoot } from "../support/pulumi";

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const token = new pulumi.CustomResource("svc:index:AppToken", "installed", { description: "installed plugin", tokenId: undefined, token: undefined });
exports.tokenId = token.tokenId;
exports.token = token.token;
`;

describe("installing the plugin from the packed package", () => {
  let tmp: string;
  let pluginDir: string;
  let archive: string;
  let nodeOnly: string;
  let emulator: RunningEmulator;
  let version: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-plugin-install-"));
    const packed = await packRepo(join(tmp, "pack"), { ignoreScripts: true });
    version = packed.manifest.version as string;
    mkdirSync(join(tmp, "unpacked"));
    execFileSync("tar", ["-xzf", packed.tarball, "-C", join(tmp, "unpacked")]);
    pluginDir = join(tmp, "unpacked", "package", "dist", "pulumi-resource-svc");
    archive = join(tmp, `pulumi-resource-svc-v${version}.tar.gz`);
    execFileSync("tar", ["-czf", archive, "-C", pluginDir, "."]);
    // A PATH entry with node alone: no pulumi-resource-svc the case did not put there.
    nodeOnly = join(tmp, "node-only");
    mkdirSync(nodeOnly);
    symlinkSync(join(repoRoot, "node_modules", ".bin", "node"), join(nodeOnly, "node"));
    emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
  }, 300_000);
  afterAll(async () => {
    await emulator?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A stack of the program with `yaml` appended to its Pulumi.yaml, up then destroy; `prepare` runs first. */
  async function upAndDestroy(name: string, yaml: string, extraPath: string[], prepare?: (env: Record<string, string>) => void): Promise<void> {
    const dir = join(tmp, `program-${name}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "index.js"), PROGRAM);
    writeFileSync(join(dir, "Pulumi.yaml"), `name: installed-${name}\nruntime: nodejs\nmain: index.js\n${yaml}`);
    const t = await newTestStack(dir, {
      copyProgram: true,
      stackName: name,
      extraEnv: { PATH: [engineBinDir(), ...extraPath, nodeOnly, "/usr/bin:/bin"].join(":") },
    });
    try {
      prepare?.(t.env);
      await t.stack.setAllConfig({
        "svc:baseUrl": { value: emulator.baseUrl },
        "svc:partnerId": { value: String(emulator.partnerId) },
        "svc:adminSecret": { value: emulator.adminSecret, secret: true },
      });
      const up = await t.stack.up();
      expect(up.outputs.token?.secret).toBe(true);
      expect(up.outputs.tokenId?.value).toMatch(/^\d+_/);
      expect((await t.stack.destroy()).summary.result).toBe("succeeded");
    } finally {
      await t.cleanup();
    }
  }

  it("without the plugin, the engine fails clearly (no download is tried)", async () => {
    await expect(upAndDestroy("missing", "", [])).rejects.toThrow(/svc/);
  }, 120_000);

  it("by path in Pulumi.yaml (plugins: providers)", async () => {
    await upAndDestroy("by-path", `plugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`, []);
  }, 120_000);

  it("on PATH", async () => {
    await upAndDestroy("on-path", "", [pluginDir]);
  }, 120_000);

  it("pulumi plugin install resource svc <version> --file <folder>", async () => {
    await upAndDestroy("install-folder", "", [], (env) => {
      execFileSync(join(engineBinDir(), "pulumi"), ["plugin", "install", "resource", "svc", version, "--file", pluginDir], { env: { ...process.env, ...env } });
    });
  }, 120_000);

  it("pulumi plugin install resource svc <version> --file <archive>", async () => {
    await upAndDestroy("install-archive", "", [], (env) => {
      execFileSync(join(engineBinDir(), "pulumi"), ["plugin", "install", "resource", "svc", version, "--file", archive], { env: { ...process.env, ...env } });
      const listed = execFileSync(join(engineBinDir(), "pulumi"), ["plugin", "ls"], { env: { ...process.env, ...env }, encoding: "utf8" });
      expect(listed).toMatch(new RegExp(`svc\\s+resource\\s+${version.replaceAll(".", "\\.")}`));
    });
  }, 120_000);

  it("pulumi package get-schema on the plugin returns the package schema", () => {
    const env = {
      ...process.env,
      PATH: [engineBinDir(), nodeOnly, "/usr/bin:/bin"].join(":"),
      PULUMI_HOME: join(tmp, "home-schema"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    const text = execFileSync(join(engineBinDir(), "pulumi"), ["package", "get-schema", join(pluginDir, "pulumi-resource-svc")], { env, encoding: "utf8" });
    const schema = JSON.parse(text) as { name: string; version: string; resources: Record<string, unknown> };
    expect(schema.name).toBe("svc");
    expect(schema.version).toBe(version);
    expect(Object.keys(schema.resources).sort()).toEqual(["svc:index:AppToken", "svc:index:EmailNotificationTemplate", "svc:index:HttpNotificationTemplate"]);
    expect(JSON.parse(readFileSync(join(repoRoot, "plugin", "schema.json"), "utf8")).resources).toEqual(schema.resources);
  }, 60_000);
});
