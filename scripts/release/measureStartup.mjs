#!/usr/bin/env node
/**
 * Plugin start-up cost, for docs/plugin.md: CPU time (user + system, from /proc) a plugin process spends until it
 * prints its gRPC port (the engine's "ready"), median of `--runs` starts (default 7), for the SEA executable of a
 * release archive and for today's launcher (dist/pulumi-resource-svc: sh + this Node + the bundle, with and
 * without its compile cache warm).
 *
 *   node scripts/release/measureStartup.mjs <pulumi-resource-svc-v…-linux-amd64.tar.gz> [--runs 7]
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** CPU ms of one start of `exe` until its first line on stdout. */
function startCpuMs(exe, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(exe, [], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    child.on("error", reject);
    child.stdout.once("data", () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
      child.kill("SIGKILL");
      resolvePromise(ticks * TICK_MS);
    });
  });
}

async function median(exe, env, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await startCpuMs(exe, env));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const argv = process.argv.slice(2);
const archive = resolve(argv[0]);
const runs = argv.includes("--runs") ? Number(argv[argv.indexOf("--runs") + 1]) : 7;
const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-startup-"));
try {
  execFileSync("tar", ["-xzf", archive, "-C", dir]);
  const cache = join(dir, "compile-cache");
  const launcher = join(root, "dist", "pulumi-resource-svc", "pulumi-resource-svc");
  const node = join(root, "node_modules", "node", "bin", "node");
  const sea = await median(join(dir, "pulumi-resource-svc"), {}, runs);
  const cold = await median(launcher, { PULUMI_SVC_NODE: node, NODE_DISABLE_COMPILE_CACHE: "1" }, runs);
  await startCpuMs(launcher, { PULUMI_SVC_NODE: node, NODE_COMPILE_CACHE: cache });
  const warm = await median(launcher, { PULUMI_SVC_NODE: node, NODE_COMPILE_CACHE: cache }, runs);
  console.log(`SEA executable:                 ${sea.toFixed(0)} ms CPU (median of ${runs})`);
  console.log(`launcher, no compile cache:     ${cold.toFixed(0)} ms CPU`);
  console.log(`launcher, compile cache warm:   ${warm.toFixed(0)} ms CPU`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
