/**
 * The real Pulumi engine for the bench: the bin dir scripts/ensure-pulumi.sh built, a local file backend and a
 * passphrase in a temp dir, and a copy of a bench program with the repo's node_modules linked beside it (so stack
 * files never land in the repo and `pulumi-svc` resolves to this package). Every node process the engine starts
 * loads dist/bench/probe/processProbe.js (built from bench/probe/processProbe.ts), which records the peak memory and CPU of the language host and the dynamic
 * provider host in the stack's probe dir.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { engineBinDir, engineEnv, repoRoot } from "../scripts/engineEnv";

export { repoRoot };

export const fixturesDir = join(repoRoot, "bench", "fixtures");
const probeScript = join(__dirname, "probe", "processProbe.js");

export interface ProcessFigures {
  /** Peak resident memory of the process (bytes). */
  maxRssBytes: number;
  /** User + system CPU time of the process (µs). */
  cpuMicros: number;
}

export interface BenchStack {
  stack: Stack;
  /** Where the probe writes (and, with cpuProfile, the .cpuprofile files). */
  probeDir: string;
  /** Forget what the probe recorded so far (call before an operation). */
  clearProbe(): void;
  /**
   * What the probe recorded per role since the last clear; several processes of a role are summed (CPU, and
   * sumMaxRssBytes: their peaks added, the most they can hold at once) or maxed (maxRssBytes).
   */
  probed(): Partial<Record<"provider" | "program", ProcessFigures & { processes: number; sumMaxRssBytes: number }>>;
  /** Size of the stack's checkpoint file in the backend (what the engine rewrites on every step), bytes. */
  checkpointBytes(): number;
  cleanup(): Promise<void>;
}

export interface BenchStackOptions {
  /** Extra environment for the engine and the processes it starts. */
  env?: Record<string, string>;
  /** Profile the language host's and the provider host's CPU (inspector), written to probeDir. */
  cpuProfile?: boolean;
  /** A plugin folder to name in the program's Pulumi.yaml (`plugins: providers: - name: svc, path`). */
  pluginDir?: string;
}

/** A fresh stack of bench/fixtures/<program>, copied into a temp dir, on its own temp file backend. */
export async function benchStack(program: string, options: BenchStackOptions = {}): Promise<BenchStack> {
  const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-bench-"));
  const home = join(tmp, "home");
  const backendDir = join(tmp, "backend");
  const workDir = join(tmp, "program");
  const probeDir = join(tmp, "probe");
  for (const dir of [home, backendDir, probeDir]) mkdirSync(dir, { recursive: true });
  cpSync(join(fixturesDir, program), workDir, { recursive: true });
  symlinkSync(join(repoRoot, "node_modules"), join(workDir, "node_modules"), "dir");
  if (options.pluginDir) appendFileSync(join(workDir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: svc\n      path: ${options.pluginDir}\n`);
  const envVars = {
    ...engineEnv({ home, backendUrl: `file://${backendDir}`, passphrase: "bench-passphrase" }),
    NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require ${probeScript}`].filter(Boolean).join(" "),
    PULUMI_SVC_PROBE_DIR: probeDir,
    ...(options.cpuProfile ? { PULUMI_SVC_PROBE_CPU_PROFILE: "1" } : {}),
    ...options.env,
  };
  const pulumiCommand = await PulumiCommand.get({ root: dirname(engineBinDir()) });
  const stack = await LocalWorkspace.createStack({ stackName: "bench", workDir }, { pulumiCommand, envVars, pulumiHome: home });
  const stacksDir = join(backendDir, ".pulumi", "stacks");
  return {
    stack,
    probeDir,
    clearProbe() {
      for (const file of readdirSync(probeDir)) if (file.endsWith(".json")) rmSync(join(probeDir, file), { force: true });
    },
    probed() {
      const out: ReturnType<BenchStack["probed"]> = {};
      for (const file of readdirSync(probeDir).filter((f) => f.endsWith(".json"))) {
        const rec = JSON.parse(readFileSync(join(probeDir, file), "utf8")) as ProcessFigures & { role: "provider" | "program" };
        const prev = out[rec.role];
        out[rec.role] = prev
          ? {
              maxRssBytes: Math.max(prev.maxRssBytes, rec.maxRssBytes),
              sumMaxRssBytes: prev.sumMaxRssBytes + rec.maxRssBytes,
              cpuMicros: prev.cpuMicros + rec.cpuMicros,
              processes: prev.processes + 1,
            }
          : { maxRssBytes: rec.maxRssBytes, sumMaxRssBytes: rec.maxRssBytes, cpuMicros: rec.cpuMicros, processes: 1 };
      }
      return out;
    },
    checkpointBytes() {
      let bytes = 0;
      const walk = (dir: string): void => {
        if (!existsSync(dir)) return;
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (/\.json(\.gz)?$/.test(entry.name)) bytes += statSync(path).size;
        }
      };
      walk(stacksDir);
      return bytes;
    },
    async cleanup() {
      await stack.workspace.removeStack("bench", { force: true }).catch(() => undefined);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
