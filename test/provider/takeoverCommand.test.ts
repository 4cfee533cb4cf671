/**
 * `pulumi-svc takeover` (its function, against the emulator in this process): the files it writes are mode 0600,
 * written whole or not at all, never through a symbolic link, and an existing file is kept unless --force; a
 * malformed --config or --state is reported by file, line and column, never by its content (a config holds secrets).
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { takeover } from "../../provider/cli/main";
import { SvcClient } from "../../sdk";

const SECRET_LOOKING = "sk_live_9f86d081884c7d659a2feaa0c55ad015";

describe("pulumi-svc takeover: files and inputs", () => {
  let emulator: RunningEmulator;
  let root: string;
  let dir: string;
  let configFile: string;
  const lines: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    const client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    await client.appTokens.add({ description: "ci pipeline" });
    await client.close();
    root = mkdtempSync(join(tmpdir(), "pulumi-svc-takeover-cmd-"));
    // As `pulumi config --json --show-secrets` prints it.
    configFile = join(root, "config.json");
    writeFileSync(
      configFile,
      JSON.stringify({
        "svc:baseUrl": { value: emulator.baseUrl, secret: false },
        "svc:partnerId": { value: String(emulator.partnerId), secret: false },
        "svc:adminSecret": { value: emulator.adminSecret, secret: true },
      }),
    );
  });
  afterAll(async () => {
    await emulator?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  let n = 0;
  beforeEach(() => {
    dir = join(root, `run-${++n}`);
    mkdirSync(dir);
    lines.length = 0;
  });

  const run = (options: { importFile?: string; code?: string; force?: boolean; config?: string; state?: string } = {}) =>
    takeover(
      {
        config: options.config ?? configFile,
        ...(options.state ? { state: options.state } : {}),
        importFile: options.importFile ?? join(dir, "import.json"),
        code: options.code ?? join(dir, "index.ts"),
        ...(options.force ? { force: true } : {}),
      },
      (line) => lines.push(line),
    );
  const mode = (path: string) => statSync(path).mode & 0o777;

  it("refuses a Go package that is not one, and --go-package for another language, before any call or file", async () => {
    const base = { config: configFile, importFile: join(dir, "import.json"), code: join(dir, "main.go") };
    await expect(takeover({ ...base, language: "go", goPackage: "my-program" }, (line) => lines.push(line))).rejects.toThrow(
      '--go-package "my-program": expected a Go package name (lower-case letters, digits, _)',
    );
    await expect(takeover({ ...base, language: "go", goPackage: "func" }, (line) => lines.push(line))).rejects.toThrow("expected a Go package name");
    await expect(takeover({ ...base, language: "python", goPackage: "program" }, (line) => lines.push(line))).rejects.toThrow(
      "--go-package is for --language go",
    );
    expect(lines).toEqual([]);
    expect(existsSync(join(dir, "import.json"))).toBe(false);
  });

  it("writes both files with mode 0600, whole, and nothing else", async () => {
    expect(await run()).toEqual({ imported: 1 });
    expect(readdirSync(dir).sort()).toEqual(["import.json", "index.ts"]);
    expect(mode(join(dir, "import.json"))).toBe(0o600);
    expect(mode(join(dir, "index.ts"))).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, "import.json"), "utf8")).resources).toEqual([
      expect.objectContaining({ type: "svc:index:AppToken", name: "ci-pipeline" }),
    ]);
    expect(readFileSync(join(dir, "index.ts"), "utf8")).toContain('new svc.AppToken(\n  "ci-pipeline",');
  });

  it("refuses a target that is a symbolic link, dangling or not, --force or not, and writes neither file", async () => {
    const elsewhere = join(root, `elsewhere-${n}.ts`);
    symlinkSync(elsewhere, join(dir, "index.ts"));
    await expect(run()).rejects.toThrow(`${join(dir, "index.ts")} is a symbolic link; takeover does not write through links`);
    expect(() => lstatSync(elsewhere)).toThrow(/ENOENT/);

    writeFileSync(elsewhere, "// someone else's file\n", { mode: 0o644 });
    await expect(run({ force: true })).rejects.toThrow("is a symbolic link");
    expect(readFileSync(elsewhere, "utf8")).toBe("// someone else's file\n");
    expect(readdirSync(dir)).toEqual(["index.ts"]);
    expect(lstatSync(join(dir, "index.ts")).isSymbolicLink()).toBe(true);
  });

  it("keeps an existing file without --force (and writes neither file); replaces it with --force, mode 0600", async () => {
    writeFileSync(join(dir, "index.ts"), "// mine\n", { mode: 0o644 });
    await expect(run()).rejects.toThrow(`${join(dir, "index.ts")} exists; pass --force to overwrite it`);
    expect(readFileSync(join(dir, "index.ts"), "utf8")).toBe("// mine\n");
    expect(readdirSync(dir)).toEqual(["index.ts"]);

    await run({ force: true });
    expect(readFileSync(join(dir, "index.ts"), "utf8")).toContain("new svc.AppToken(");
    expect(mode(join(dir, "index.ts"))).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(["import.json", "index.ts"]);
  });

  it("leaves no file behind when writing fails part way (the program's folder does not exist)", async () => {
    await expect(run({ code: join(dir, "missing", "index.ts") })).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("reports a malformed --config by file, line and column, never quoting it", async () => {
    const bad = join(dir, "config.json");
    const text = `{\n  "svc:baseUrl": { "value": "https://api.example.com/api_v3" },\n  "svc:adminSecret": { "value": "${SECRET_LOOKING}" oops }\n}\n`;
    writeFileSync(bad, text);
    const error = await run({ config: bad }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    const column = text.split("\n")[2]!.indexOf("oops") + 1;
    expect(message).toBe(`--config ${bad} is not JSON: an unexpected character at line 3, column ${column} (its content is not shown: it may hold secrets)`);
    expect(message).not.toContain(SECRET_LOOKING.slice(0, 8));
    expect(readdirSync(dir)).toEqual(["config.json"]);
  });

  it.each([
    ["a bare secret", SECRET_LOOKING],
    ["a secret in a string that is not closed", `{"svc:adminSecret": "${SECRET_LOOKING}`],
    ["a secret after the value", `{} ${SECRET_LOOKING}`],
    ["a comment", `{ // ${SECRET_LOOKING}\n}`],
  ])("never quotes %s", async (_, text) => {
    const bad = join(dir, "config.json");
    writeFileSync(bad, text);
    const message = await run({ config: bad }).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(message).toMatch(new RegExp(`^--config ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not JSON: .+ at line \\d+, column \\d+`));
    expect(message).not.toContain(SECRET_LOOKING.slice(0, 8));
  });

  it("says a config that is JSON but not an object is not pulumi's output, and a malformed --state is reported the same way", async () => {
    const array = join(dir, "config.json");
    writeFileSync(array, JSON.stringify([SECRET_LOOKING]));
    await expect(run({ config: array })).rejects.toThrow(`--config ${array} is not the output of \`pulumi config --json\``);
    const state = join(dir, "state.json");
    writeFileSync(state, `{"deployment": {"secrets_providers": {"state": {"salt": "${SECRET_LOOKING}"}}}`);
    const message = await run({ state }).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(message).toMatch(/^--state .* is not JSON: a closing brace was expected at line 1, column \d+/);
    expect(message).not.toContain(SECRET_LOOKING.slice(0, 8));
  });
  it("a flag naming the account hides the --config file's account and credentials: its secret never goes there", async () => {
    // The file's account and admin secret, and --base-url pointing elsewhere: refused, naming what the flags lack.
    const elsewhere = "https://elsewhere.example/api_v3";
    const message = await takeover({ config: configFile, baseUrl: elsewhere, importFile: join(dir, "import.json"), code: join(dir, "index.ts") }, (line) =>
      lines.push(line),
    ).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(message).toMatch(/^No partner id|^No credentials/);
    expect(message).not.toContain(emulator.adminSecret);
    expect(readdirSync(dir)).toEqual([]);
  });
});
