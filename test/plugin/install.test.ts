/**
 * Installing the plugin without a registry, from the packed package (what `npm install pulumi-svc` unpacks): the
 * folder dist/pulumi-resource-svc named in Pulumi.yaml (`plugins: providers: path`), the folder on PATH, and
 * `pulumi plugin install resource svc <version> --file` of the folder and of a tarball of it. Each path runs a
 * program through the engine (up, then destroy). The engine's PATH here holds `node` alone, so the plugin is found
 * only the way each case says. Also: `pulumi package get-schema` on the plugin's executable returns the schema.
 * Every engine here goes out through a recording proxy that refuses everything (HTTP(S)_PROXY; loopback, where the
 * emulator is, excepted): "no download is tried" is then checked, not assumed, and no case can reach the network.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { packRepo } from "../package/packedPackage";
import { engineBinDir, newTestStack, repoRoot, type TestStack } from "../support/pulumi";

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
  let proxy: Server;
  let proxyEnv: Record<string, string>;
  /** Every host an engine asked the proxy for (CONNECT host:port, or a plain request's URL). */
  const proxied: string[] = [];

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
    proxy = createServer((req, res) => {
      proxied.push(req.url ?? "");
      res.writeHead(403).end();
    });
    proxy.on("connect", (req, socket) => {
      proxied.push(req.url ?? "");
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    proxyEnv = {
      HTTP_PROXY: proxyUrl,
      HTTPS_PROXY: proxyUrl,
      http_proxy: proxyUrl,
      https_proxy: proxyUrl,
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
    };
  }, 300_000);
  afterAll(async () => {
    await new Promise((r) => proxy?.close(r));
    await emulator?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A stack of the program with `yaml` appended to its Pulumi.yaml, up then destroy; `prepare` runs first. */
  async function upAndDestroy(
    name: string,
    yaml: string,
    extraPath: string[],
    prepare?: (env: Record<string, string>) => void,
    beforeCleanup?: (t: TestStack) => void,
  ): Promise<void> {
    const dir = join(tmp, `program-${name}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "index.js"), PROGRAM);
    writeFileSync(join(dir, "Pulumi.yaml"), `name: installed-${name}\nruntime: nodejs\nmain: index.js\n${yaml}`);
    const t = await newTestStack(dir, {
      copyProgram: true,
      stackName: name,
      extraEnv: { PATH: [engineBinDir(), ...extraPath, nodeOnly, "/usr/bin:/bin"].join(":"), ...proxyEnv },
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
      try {
        beforeCleanup?.(t);
      } finally {
        await t.cleanup();
      }
    }
  }

  it("the proxy sees a download when one is tried (so its silence below means something)", async () => {
    const before = proxied.length;
    const home = join(tmp, "home-download");
    const env = {
      ...process.env,
      PATH: [engineBinDir(), nodeOnly, "/usr/bin:/bin"].join(":"),
      PULUMI_HOME: home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      ...proxyEnv,
    };
    const failed = await new Promise<string>((resolve) =>
      execFile(join(engineBinDir(), "pulumi"), ["plugin", "install", "resource", "svc", "0.0.1"], { env, encoding: "utf8" }, (error, stdout, stderr) =>
        resolve(error ? `${stdout}${stderr}` : "installed?"),
      ),
    );
    expect(failed).not.toBe("installed?");
    expect(proxied.length).toBeGreaterThan(before);
  }, 120_000);

  it("without the plugin, the engine fails clearly and no download is tried", async () => {
    const before = proxied.length;
    let home = "";
    let failure: unknown;
    try {
      await upAndDestroy("missing", "", [], undefined, (t) => {
        home = join(t.tmp, "home");
        // What a download would leave in PULUMI_HOME: a plugins/resource-svc-v* folder (or its .partial/.lock).
        const plugins = join(home, "plugins");
        expect(existsSync(plugins) ? readdirSync(plugins).filter((f) => f.includes("svc")) : []).toEqual([]);
      });
    } catch (error) {
      failure = error;
    }
    expect(home).not.toBe("");
    const message = String((failure as Error | undefined)?.message);
    expect(message).toMatch(/pulumi-resource-svc|resource plugin svc|plugin svc/);
    expect(message).not.toMatch(/download/i);
    // and the engine asked nobody for anything
    expect(proxied.slice(before)).toEqual([]);
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
