/**
 * The plugin's launcher (plugin/bin/pulumi-resource-svc) turns on Node's compile cache only in a folder of this user
 * that nobody else can write (Node runs what it finds there). The launcher runs here with a stand-in for node
 * (PULUMI_SVC_NODE) that prints the NODE_COMPILE_CACHE it was given, and a TMPDIR of the test's own.
 */
import { execFile } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";

const launcher = join(repoRoot, "plugin", "bin", "pulumi-resource-svc");
const uid = process.getuid!();

describe("the plugin launcher's compile cache folder", () => {
  let tmp: string;
  let fakeNode: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), "launcher-cache-"));
    fakeNode = join(tmp, "node");
    writeFileSync(fakeNode, `#!/bin/sh\necho "cache=\${NODE_COMPILE_CACHE:-none}"\n`, { mode: 0o755 });
    mkdirSync(join(tmp, "t"));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const launch = (env: Record<string, string> = {}) =>
    new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(
        "sh",
        [launcher],
        { env: { PATH: process.env.PATH ?? "", PULUMI_SVC_NODE: fakeNode, TMPDIR: join(tmp, "t"), ...env } },
        (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout: stdout.trim(), stderr: stderr.trim() })),
      ),
    );
  const folder = () => join(tmp, "t", `pulumi-svc-compile-cache-${uid}`);
  const refusal = () =>
    `pulumi-resource-svc: compile cache off: refusing ${folder()} (not a folder of this user that only this user can write); remove it to get the cache back`;

  it("creates this user's folder 0700 and uses it", async () => {
    expect(await launch()).toEqual({ stdout: `cache=${folder()}`, stderr: "" });
    expect(statSync(folder()).mode & 0o777).toBe(0o700);
    expect(await launch()).toEqual({ stdout: `cache=${folder()}`, stderr: "" });
  });

  it("refuses a folder others can write to", async () => {
    mkdirSync(folder());
    chmodSync(folder(), 0o777);
    expect(await launch()).toEqual({ stdout: "cache=none", stderr: refusal() });
  });

  it("refuses a symlink planted in its place", async () => {
    mkdirSync(join(tmp, "elsewhere"), { mode: 0o700 });
    symlinkSync(join(tmp, "elsewhere"), folder());
    expect(await launch()).toEqual({ stdout: "cache=none", stderr: refusal() });
  });

  it.runIf(uid === 0)("refuses a folder another user owns (run as root here, which can give it away)", async () => {
    mkdirSync(folder(), { mode: 0o700 });
    chownSync(folder(), 4242, 4242);
    expect(await launch()).toEqual({ stdout: "cache=none", stderr: refusal() });
  });

  it("leaves a NODE_COMPILE_CACHE the user chose alone", async () => {
    expect(await launch({ NODE_COMPILE_CACHE: "/somewhere/mine" })).toEqual({ stdout: "cache=/somewhere/mine", stderr: "" });
  });
});
