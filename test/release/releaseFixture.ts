/**
 * The release as users get it, for the tests of test/release/: this machine's release (scripts/release/release.mjs
 * for the host platform only, into dist/release-test/, rebuilt only when its inputs change: the plugin bundle, the
 * SDKs, the built package), served by a small HTTP server on loopback standing in for the download site, and a
 * project on a fresh PULUMI_HOME and file backend whose engine may download plugins (automatic acquisition on) and
 * is pointed at the server with PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, the engine's mirror setting: the SDKs keep
 * the published pluginDownloadURL they ship with. An emulator runs in this process.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { engineBinDir, engineEnv, repoRoot } from "../../scripts/engineEnv";
import { SvcClient } from "../../sdk";
import { backendFilesText } from "../support/pulumi";

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string; pulumiSvc: { pluginDownloadURL: string } };
export const VERSION = pkg.version;
/** The published download URL the schema and the SDKs name (package.json's `pulumiSvc.pluginDownloadURL`). */
export const PUBLISHED_URL = pkg.pulumiSvc.pluginDownloadURL;
export const RELEASE_DIR = join(repoRoot, "dist", "release-test");
export const HOST_ARCHIVE = `pulumi-resource-svc-v${VERSION}-linux-amd64.tar.gz`;

/** What the release is made from: when none of it changed, the release of the last run is reused. */
const RELEASE_INPUTS = [
  "package.json",
  "LICENSE",
  "sdk-gen",
  "scripts/release",
  "scripts/build-plugin.mjs",
  "plugin/schema.json",
  "dist/pulumi-resource-svc",
  "dist/provider",
  "dist/sdk",
  "dist/contract",
  "dist/emulator",
  "dist/client",
];

function inputsHash(): string {
  const hash = createHash("sha256").update(process.version);
  const add = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name));
    else hash.update(path.slice(repoRoot.length)).update(readFileSync(path));
  };
  for (const input of RELEASE_INPUTS) add(join(repoRoot, input));
  return hash.digest("hex");
}

/** Blocks until `done()` holds, checking every 200 ms (another test file is building the release). */
function waitFor(done: () => boolean, what: string, timeoutMs: number): void {
  const until = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    Atomics.wait(pause, 0, 0, 200);
  }
}

/** This machine's release in dist/release-test/, built when its inputs changed (one test file at a time). */
export function hostRelease(): string {
  const stamp = join(RELEASE_DIR, ".inputs");
  const key = inputsHash();
  const current = () => existsSync(stamp) && readFileSync(stamp, "utf8") === key;
  if (current()) return RELEASE_DIR;
  const lock = `${RELEASE_DIR}.lock`;
  mkdirSync(join(repoRoot, "dist"), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      waitFor(() => !existsSync(lock), "another test's release build (dist/release-test.lock)", 600_000);
      if (current()) return RELEASE_DIR;
    }
  }
  try {
    if (!current()) {
      execFileSync(join(repoRoot, "node_modules", ".bin", "node"), [join(repoRoot, "scripts", "release", "release.mjs"), "--out", RELEASE_DIR, "--no-check"], {
        cwd: repoRoot,
        stdio: ["ignore", "ignore", "pipe"],
      });
      writeFileSync(stamp, key);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return RELEASE_DIR;
}

export interface ReleaseServer {
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the files of `dir` on loopback, except those named in `missing` (answered 404, as a missing asset). */
export async function startReleaseServer(dir: string, options: { missing?: string[] } = {}): Promise<ReleaseServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    requests.push(path);
    const file = join(dir, normalize(path).replace(/^(\.\.(\/|$))+/, ""));
    if (!file.startsWith(dir) || options.missing?.some((m) => path.endsWith(m)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-length": statSync(file).size, "content-type": "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The engine's mirror setting sending the published URL to `serverUrl` (docs/registry/installation-configuration.md). */
export const mirrorOverride = (serverUrl: string): string => `^${PUBLISHED_URL.slice(0, PUBLISHED_URL.lastIndexOf("/v"))}=${serverUrl}`;

export interface ReleaseProject {
  tmp: string;
  dir: string;
  home: string;
  env: Record<string, string>;
  emulator: RunningEmulator;
  server: ReleaseServer;
  /** A client of the emulator's account. */
  client: SvcClient;
  /** Runs `cmd args` (in the project folder by default); resolves stdout, rejects with stdout and stderr. */
  exec(cmd: string, args: string[], cwd?: string): Promise<string>;
  /** `pulumi <args> --non-interactive` in the project folder. */
  pulumi(...args: string[]): Promise<string>;
  backendText(): string;
  /** The plugins installed in PULUMI_HOME, as `pulumi plugin ls --json` says. */
  installedPlugins(): Promise<{ name: string; version: string }[]>;
  close(): Promise<void>;
}

/**
 * A temp folder with a fresh PULUMI_HOME and backend, the release server and an emulator; `path` is the PATH the
 * commands get (default: the engine only).
 */
export async function releaseProject(options: { path?: string[]; env?: Record<string, string>; server?: ReleaseServer } = {}): Promise<ReleaseProject> {
  const release = hostRelease();
  const server = options.server ?? (await startReleaseServer(release));
  const emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-release-"));
  const dir = join(tmp, "program");
  const home = join(tmp, "home");
  const backend = join(tmp, "backend");
  for (const d of [dir, home, backend]) mkdirSync(d);
  const base = engineEnv({ home, backendUrl: `file://${backend}`, passphrase: "release-test" });
  const env: Record<string, string> = {
    HOME: process.env.HOME ?? tmp,
    ...base,
    PATH: (options.path ?? [engineBinDir()]).join(":"),
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: mirrorOverride(server.url),
    PULUMI_STACK: "test",
    ...options.env,
  };
  const client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
  const project: ReleaseProject = {
    tmp,
    dir,
    home,
    env,
    emulator,
    server,
    client,
    // The project's folder as it is when called: a test may move it (p.dir) to a second project.
    exec: (cmd, args, cwd = project.dir) =>
      new Promise<string>((resolve, reject) => {
        execFile(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`${cmd} ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`));
          else resolve(stdout);
        });
      }),
    pulumi: (...args) => project.exec(join(engineBinDir(), "pulumi"), [...args, "--non-interactive"]),
    backendText: () => backendFilesText(backend),
    async installedPlugins() {
      return JSON.parse(await project.pulumi("plugin", "ls", "--json")) as { name: string; version: string }[];
    },
    async close() {
      await client.close();
      await emulator.close();
      if (!options.server) await server.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
  return project;
}

/** A `pulumi new` template's placeholder, e.g. `${PROJECT}`. */
const placeholder = (name: string): string => ["$", `{${name}}`].join("");

/**
 * `pulumi new <template>` into the project folder with the emulator's account as config: baseUrl and partnerId on
 * the command line, the admin secret with `pulumi config set --secret` (`pulumi new -c` stores values in plain
 * text, even those the template marks secret).
 */
/**
 * How: "new" is `pulumi new` whole (it installs the dependencies); "generate-only" is `pulumi new --generate-only`
 * (the test installs them: the npm package's URL is the published one); "copy" writes the files as `pulumi new`
 * would (it needs the runtime's language host even to generate, and none is served here for Go).
 */
export async function newFromTemplate(p: ReleaseProject, template: string, how: "new" | "generate-only" | "copy" = "new"): Promise<void> {
  const name = `${template}-test`;
  const source = join(repoRoot, "templates", template);
  const config: [string, string][] = [
    ["svc:baseUrl", p.emulator.baseUrl],
    ["svc:partnerId", String(p.emulator.partnerId)],
  ];
  if (how !== "new") {
    if (how === "generate-only") await p.pulumi("new", source, "--dir", p.dir, "--yes", "--name", name, "--generate-only");
    else
      for (const file of readdirSync(source)) {
        const text = readFileSync(join(source, file), "utf8")
          .replaceAll(placeholder("PROJECT"), name)
          .replaceAll(placeholder("DESCRIPTION"), `${template} test`);
        writeFileSync(join(p.dir, file), text);
      }
    await p.pulumi("stack", "init", "test");
    for (const [key, value] of config) await p.pulumi("config", "set", key, value);
  } else {
    await p.pulumi("new", source, "--dir", p.dir, "--yes", "--stack", "test", "--name", name, ...config.flatMap(([k, v]) => ["-c", `${k}=${v}`]));
  }
  await p.pulumi("config", "set", "--secret", "svc:adminSecret", p.emulator.adminSecret);
}
