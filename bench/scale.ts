/**
 * The scale shapes (`npm run bench -- --only scale`, not in the default run): through the real engine, at each size N
 * (default 200 and 1,000), `up`, a no-change `preview`, `refresh`, an in-place update of a tenth of the resources and
 * `destroy` of
 *   - the floor: N no-op dynamic resources (bench/fixtures/noop),
 *   - shape (a): N AppTokens on one account, on the dynamic provider and on the native plugin,
 *   - shape (b): 20 accounts x N/20 resources (AppTokens, HTTP and email templates mixed), on the dynamic providers
 *     (an explicit `connection` per resource), on the plugin (20 explicit providers, 20 plugin processes) and on the
 *     plugin with named accounts (accountsNamed: one provider, `svc:accounts`, each resource's `account`),
 *   - the same accounts with AppTokens alone, on the plugin (accountTokensPlugin), with named accounts
 *     (accountTokensNamed: one plugin process for all 20 accounts), and on 20 explicit providers of the no-op native
 *     plugin (floorNativeAccounts: the engine's own cost of 20 plugin processes, no provider goes below),
 * (`accounts` changes the 20: the shape of 100 accounts x 10 is `--scale-accounts 100` at N = 1,000),
 * one run each (the sizes are big), programs taking turns going first. Per operation: wall time, its ratio to the
 * floor's in the same run, CPU of the program, the provider process(es) and the rest, the provider's peak memory
 * (the largest of its processes), the peak of all its processes together (program and providers: their peaks added),
 * and ms per resource (the curve from 200 to 1,000).
 * Run alone: `npm run build && npx node dist/bench/scale.js [sizes] [programs, e.g. floorNative,tokensPlugin] [accounts]`.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { benchStack, fixturesDir, repoRoot, type BenchStack } from "./engine";
import { buildNoopPlugin } from "./noopPluginBuild";
import { startEmulatorProcess } from "./emulatorProcess";

export const SCALE_OPERATIONS = ["up", "preview", "refresh", "update", "destroy"] as const;
export type ScaleOperation = (typeof SCALE_OPERATIONS)[number];
export const isScaleOperation = (name: string): name is ScaleOperation => (SCALE_OPERATIONS as readonly string[]).includes(name);
export const SCALE_PROGRAMS = [
  "floor",
  "floorNative",
  "tokensDynamic",
  "tokensPlugin",
  "accountsDynamic",
  "accountsPlugin",
  "floorNativeAccounts",
  "accountTokensPlugin",
  "accountTokensNamed",
  "accountsNamed",
] as const;
export type ScaleProgram = (typeof SCALE_PROGRAMS)[number];
export const isScaleProgram = (name: string): name is ScaleProgram => (SCALE_PROGRAMS as readonly string[]).includes(name);
export const DEFAULT_SCALE_SIZES = [200, 1_000];
export const ACCOUNTS = 20;
/** The programs with one account per group of resources (their sizes are multiples of the accounts). */
const MANY_ACCOUNTS: readonly ScaleProgram[] = [
  "accountsDynamic",
  "accountsPlugin",
  "floorNativeAccounts",
  "accountTokensPlugin",
  "accountTokensNamed",
  "accountsNamed",
];
/** The programs that declare one explicit provider per account (one plugin process each). */
const EXPLICIT_PROVIDERS: readonly ScaleProgram[] = ["accountsPlugin", "floorNativeAccounts", "accountTokensPlugin"];
/** The programs of named accounts: one provider (stack config `svc:accounts`), each resource naming its account. */
const NAMED_ACCOUNTS: readonly ScaleProgram[] = ["accountTokensNamed", "accountsNamed"];

export interface ScaleSample {
  ms: number;
  /** ms / N. */
  msPerResource: number;
  /** ms / the floor's ms of the same operation and size. */
  ratio: number;
  cpu: { program: number; provider: number; rest: number };
  /** cpu total / the floor's. */
  cpuRatio: number;
  /** ms and CPU against the no-op native plugin's (the plugin's own floor). */
  nativeRatio: number;
  nativeCpuRatio: number;
  /** CPU against floorNativeAccounts (the engine's cost of the accounts' no-op plugin processes). */
  nativeAccountsCpuRatio: number;
  providerProcesses: number;
  providerPeakMiB: number;
  /** The program's and every provider process's peaks, added: the most they can hold at once. */
  allPeakMiB: number;
}

export interface ScaleSize {
  resources: number;
  samples: Record<ScaleProgram, Partial<Record<ScaleOperation, ScaleSample>>>;
}

export interface ScaleBenchResult {
  engine: string;
  /** Accounts of the many-accounts programs. */
  accounts: number;
  sizes: ScaleSize[];
  /** Programs or sizes that failed, with why (the others still ran). */
  failures: string[];
}

const plugin = join(repoRoot, "dist", "pulumi-resource-svc");

export async function benchScale(
  options: {
    sizes?: number[];
    programs?: readonly ScaleProgram[];
    /** A subset of the operations; up and destroy always run (the others need what up made, the next size an empty stack). */
    operations?: readonly ScaleOperation[];
    accounts?: number;
    log?: (line: string) => void;
    operationTimeoutMs?: number;
  } = {},
): Promise<ScaleBenchResult> {
  const sizes = options.sizes ?? DEFAULT_SCALE_SIZES;
  // The floor is always measured: every ratio is against it.
  const programs = SCALE_PROGRAMS.filter((p) => p === "floor" || (options.programs ?? SCALE_PROGRAMS).includes(p));
  const accountCount = options.accounts ?? ACCOUNTS;
  if (sizes.some((n) => !Number.isInteger(n) || n < accountCount || n % accountCount !== 0))
    throw new Error(`scale sizes must be multiples of ${accountCount}`);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench scale] ${line}\n`));
  const timeoutMs = options.operationTimeoutMs ?? 900_000;
  const emulator = await startEmulatorProcess();
  const stacks: Partial<Record<ScaleProgram, BenchStack>> = {};
  const failures: string[] = [];
  const noopPluginDir = mkdtempSync(join(tmpdir(), "pulumi-svc-noop-plugin-"));
  try {
    const target = emulator.target;
    const accounts = [target];
    for (let i = 1; i < accountCount; i++) {
      const p = (await emulator.control("POST", "/partners", {})) as { partnerId: number; adminSecret: string };
      accounts.push({ baseUrl: target.baseUrl, ...p });
    }
    const single = {
      "svc:baseUrl": { value: target.baseUrl },
      "svc:partnerId": { value: String(target.partnerId) },
      "svc:adminSecret": { value: target.adminSecret, secret: true },
    };
    const makers: Record<ScaleProgram, () => Promise<BenchStack>> = {
      floor: () => benchStack("noop"),
      floorNative: async () => benchStack("appTokensPlugin", { pluginDir: await buildNoopPlugin(noopPluginDir) }),
      tokensDynamic: () => benchStack("appTokens"),
      tokensPlugin: () => benchStack("appTokensPlugin", { pluginDir: plugin }),
      accountsDynamic: () => benchStack("accounts"),
      accountsPlugin: () => accountsPluginStack(plugin),
      floorNativeAccounts: async () => accountsPluginStack(await buildNoopPlugin(noopPluginDir)),
      accountTokensPlugin: () => accountsPluginStack(plugin),
      accountTokensNamed: () => accountsPluginStack(plugin, "accountsNamed"),
      accountsNamed: () => accountsPluginStack(plugin, "accountsNamed"),
    };
    for (const p of programs) {
      const made = await makers[p]();
      stacks[p] = made;
      if (p === "floorNative" || p === "tokensDynamic" || p === "tokensPlugin") await made.stack.setAllConfig(single);
      if (MANY_ACCOUNTS.includes(p)) {
        // Named accounts: `svc:accounts` maps a0..aN to each account's connection (a secret, as a reseller's stack holds it).
        const named = Object.fromEntries(accounts.map((a, i) => [`a${i}`, { baseUrl: a.baseUrl, partnerId: a.partnerId, adminSecret: a.adminSecret }]));
        await made.stack.setAllConfig({
          accountCount: { value: String(accountCount) },
          ...(NAMED_ACCOUNTS.includes(p)
            ? { "svc:accounts": { value: JSON.stringify(named), secret: true } }
            : { accounts: { value: JSON.stringify(accounts), secret: true } }),
          ...(p === "floorNativeAccounts" || p === "accountTokensPlugin" || p === "accountTokensNamed" ? { tokensOnly: { value: "true" } } : {}),
        });
      }
    }
    const engine = (await stacks.floor!.stack.workspace.pulumiVersion) ?? "unknown";
    const all = stacks as Record<ScaleProgram, BenchStack>;

    const results: ScaleSize[] = [];
    for (const resources of sizes) {
      const raw = Object.fromEntries(SCALE_PROGRAMS.map((p) => [p, {}])) as Record<
        ScaleProgram,
        Partial<Record<ScaleOperation, Omit<ScaleSample, "ratio" | "cpuRatio" | "nativeRatio" | "nativeCpuRatio" | "nativeAccountsCpuRatio">>>
      >;
      for (const p of programs) {
        const config: Record<string, { value: string }> = MANY_ACCOUNTS.includes(p)
          ? { perAccount: { value: String(resources / accountCount) } }
          : { count: { value: String(resources) } };
        await all[p].stack.setAllConfig({ ...config, rev: { value: "" } });
      }
      const broken = new Set<ScaleProgram>();
      const operations = SCALE_OPERATIONS.filter((op) => op === "up" || op === "destroy" || (options.operations ?? SCALE_OPERATIONS).includes(op));
      for (const [index, op] of operations.entries()) {
        const turn = index % programs.length;
        for (const p of [...programs.slice(turn), ...programs.slice(0, turn)]) {
          if (broken.has(p)) continue;
          try {
            raw[p][op] = await measure(all[p], p, op, resources, accountCount, timeoutMs);
            log(`${resources}: ${op} ${p} ${Math.round(raw[p][op]!.ms)} ms`);
          } catch (error) {
            broken.add(p);
            failures.push(`${resources} ${p} ${op}: ${error instanceof Error ? error.message.slice(-700) : String(error)}`);
            log(`${resources}: ${op} ${p} FAILED`);
            // Whatever it made is removed, so the next size starts empty.
            await all[p].stack.destroy({ signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
          }
        }
      }
      const samples = Object.fromEntries(
        SCALE_PROGRAMS.map((p) => [
          p,
          Object.fromEntries(
            SCALE_OPERATIONS.filter((op) => raw[p][op]).map((op) => {
              const s = raw[p][op]!;
              const total = (c: ScaleSample["cpu"]) => c.program + c.provider + c.rest;
              const against = (floor: (typeof raw)["floor"][ScaleOperation]): [number, number] =>
                floor ? [round2(s.ms / floor.ms), round2(total(s.cpu) / total(floor.cpu))] : [Number.NaN, Number.NaN];
              const [ratio, cpuRatio] = against(raw.floor[op]);
              const [nativeRatio, nativeCpuRatio] = against(raw.floorNative[op]);
              const [, nativeAccountsCpuRatio] = against(raw.floorNativeAccounts[op]);
              return [op, { ...s, ratio, cpuRatio, nativeRatio, nativeCpuRatio, nativeAccountsCpuRatio }];
            }),
          ),
        ]),
      ) as ScaleSize["samples"];
      results.push({ resources, samples });
    }
    return { engine, accounts: accountCount, sizes: results, failures };
  } finally {
    await Promise.all(Object.values(stacks).map((s) => s.cleanup()));
    await emulator.close();
    rmSync(noopPluginDir, { recursive: true, force: true });
  }
}

/** A many-accounts program (explicit providers, or named accounts) on the plugin in `pluginDir` (the real one or the no-op one). */
async function accountsPluginStack(pluginDir: string, program: "accountsPlugin" | "accountsNamed" = "accountsPlugin"): Promise<BenchStack> {
  const made = await benchStack(program, { pluginDir });
  cpSync(join(fixturesDir, "accounts", "shape.js"), join(made.stack.workspace.workDir, "shape.js"));
  return made;
}

/** One operation with its checks: the engine must report exactly the steps the shape implies. */
async function measure(
  bench: BenchStack,
  program: ScaleProgram,
  op: ScaleOperation,
  resources: number,
  accounts: number,
  timeoutMs: number,
): Promise<Omit<ScaleSample, "ratio" | "cpuRatio" | "nativeRatio" | "nativeCpuRatio" | "nativeAccountsCpuRatio">> {
  const { stack } = bench;
  const signal = AbortSignal.timeout(timeoutMs);
  // The resources, the stack, and on the plugin's many-accounts shapes their explicit providers (one per account).
  const all = resources + 1 + (EXPLICIT_PROVIDERS.includes(program) ? accounts : 0);
  const perAccount = resources / accounts;
  const updated = MANY_ACCOUNTS.includes(program) ? accounts * Math.ceil(perAccount / 10) : Math.ceil(resources / 10);
  if (op === "update") await stack.setConfig("rev", { value: "1" });
  bench.clearProbe();
  const cpuBefore = childrenCpuMicros();
  const start = performance.now();
  let changes: Record<string, number> | undefined;
  if (op === "up" || op === "update") changes = (await stack.up({ signal })).summary.resourceChanges;
  else if (op === "preview") changes = (await stack.preview({ signal })).changeSummary;
  else if (op === "refresh") changes = (await stack.refresh({ signal })).summary.resourceChanges;
  else changes = (await stack.destroy({ signal })).summary.resourceChanges;
  const ms = performance.now() - start;
  const cpuTotal = (childrenCpuMicros() - cpuBefore) / 1e6;
  if (op === "destroy") await stack.setConfig("rev", { value: "" });
  const expected: Record<string, number> = {
    up: { create: all },
    preview: { same: all },
    refresh: { same: all },
    update: { same: all - updated, update: updated },
    destroy: { delete: all },
  }[op];
  if (JSON.stringify(sorted(changes ?? {})) !== JSON.stringify(sorted(expected)))
    throw new Error(`${op} changed ${JSON.stringify(changes)}, expected ${JSON.stringify(expected)}`);
  const probed = bench.probed();
  const programCpu = (probed.program?.cpuMicros ?? 0) / 1e6;
  const providerCpu = (probed.provider?.cpuMicros ?? 0) / 1e6;
  return {
    ms: Math.round(ms),
    msPerResource: round2(ms / resources),
    cpu: { program: round2(programCpu), provider: round2(providerCpu), rest: round2(Math.max(0, cpuTotal - programCpu - providerCpu)) },
    providerProcesses: probed.provider?.processes ?? 0,
    providerPeakMiB: mib(probed.provider?.maxRssBytes ?? 0),
    allPeakMiB: mib((probed.provider?.sumMaxRssBytes ?? 0) + (probed.program?.sumMaxRssBytes ?? 0)),
  };
}

const sorted = (o: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
const round2 = (x: number): number => Math.round(x * 100) / 100;
const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

/** CPU of this process's finished children and what they waited for (/proc/self/stat cutime + cstime, 10 ms ticks). */
function childrenCpuMicros(): number {
  const { readFileSync } = require("node:fs") as typeof import("node:fs");
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10_000;
  } catch {
    return 0;
  }
}

if (require.main === module) {
  const sizes = process.argv[2] ? process.argv[2].split(",").map(Number) : undefined;
  const programs = process.argv[3] ? (process.argv[3].split(",") as ScaleProgram[]) : undefined;
  const accounts = process.argv[4] ? Number(process.argv[4]) : undefined;
  benchScale({ sizes, programs, accounts }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
