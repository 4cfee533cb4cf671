/**
 * The release's self-check: each executable this machine can run, unpacked from its archive, answers GetSchema
 * (through `pulumi package get-schema`) with the release's version. linux-arm64 runs through qemu-user (Debian's
 * qemu-user and libc6-arm64-cross) when those are installed; a platform that cannot run here is reported, not run.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostPlatformName, platformName } from "./platforms.mjs";

const onPath = (exe) => {
  try {
    return execFileSync("sh", ["-c", `command -v ${exe}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
};

/** How this machine runs `platform`'s executable: undefined when it cannot. */
function runner(platform) {
  if (platformName(platform) === hostPlatformName()) return [];
  if (platformName(platform) === "linux-arm64") {
    const qemu = onPath("qemu-aarch64") ?? onPath("qemu-aarch64-static");
    if (qemu && existsSync("/usr/aarch64-linux-gnu/lib")) return [qemu, "-L", "/usr/aarch64-linux-gnu"];
  }
  return undefined;
}

export function checkExecutable(platform, archive, version, root) {
  const how = runner(platform);
  if (!how) return `not run (cannot run ${platformName(platform)} executables on ${hostPlatformName()})`;
  const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-selfcheck-"));
  try {
    execFileSync("tar", ["-xzf", archive, "-C", dir]);
    let exe = join(dir, platform.exe);
    if (how.length > 0) {
      // The engine starts the plugin by path: a wrapper that runs it under qemu.
      const wrapper = join(dir, "wrapped", platform.exe);
      execFileSync("mkdir", ["-p", join(dir, "wrapped")]);
      writeFileSync(wrapper, `#!/bin/sh\nexec ${how.map((a) => `'${a}'`).join(" ")} '${exe}' "$@"\n`);
      chmodSync(wrapper, 0o755);
      exe = wrapper;
    }
    const engineBin = readFileSync(join(root, "node_modules", ".pulumi-svc-engine"), "utf8").trim();
    const started = process.hrtime.bigint();
    const text = execFileSync(join(engineBin, "pulumi"), ["package", "get-schema", exe], {
      encoding: "utf8",
      env: { ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true" },
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
    const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
    const schema = JSON.parse(text);
    if (schema.version !== version) throw new Error(`${platformName(platform)}: GetSchema answered version ${schema.version}, expected ${version}`);
    return `GetSchema answered version ${schema.version}, pluginDownloadURL ${schema.pluginDownloadURL} (${ms} ms${how.length ? ", under qemu-user" : ""})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
