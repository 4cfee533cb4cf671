/**
 * Takeover at size: an account holding 5,000 app tokens and 500 webhook templates (made through the API, on the
 * emulator in its own process), then `pulumi-svc takeover` (the compiled CLI, in its own process) lists it page by
 * page and writes the import file: its listing time (as it reports it), wall time and peak memory. Then `pulumi import`
 * of 1,000 of those tokens into a stack on the native plugin: wall time and the plugin's peak memory.
 * Run alone with `node dist/bench/takeover.js [tokens] [templates] [imported]` (after `npm run build`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SvcClient } from "../sdk";
import { benchStack, repoRoot } from "./engine";
import { startEmulatorProcess } from "./emulatorProcess";
import type { BenchPart } from "./benchPart";
import { fmt, table } from "./report";

export interface TakeoverBenchOptions {
  tokens?: number;
  templates?: number;
  /** How many of the listed tokens `pulumi import` adopts. */
  imported?: number;
  log?: (line: string) => void;
}

export interface TakeoverBenchResult {
  tokens: number;
  templates: number;
  /** The takeover command's own figure: the listing alone (every page of every kind). */
  listingMs: number;
  /** The whole command: start, listing, the import file and the program written. */
  commandMs: number;
  commandPeakMiB: number;
  importFileResources: number;
  imported: number;
  importMs: number;
  importPluginPeakMiB: number;
  importPluginCpuSeconds: number;
}

export async function benchTakeover(options: TakeoverBenchOptions = {}): Promise<TakeoverBenchResult> {
  const tokens = options.tokens ?? 5_000;
  const templates = options.templates ?? 500;
  const imported = Math.min(options.imported ?? 1_000, tokens);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench takeover] ${line}\n`));
  const emulator = await startEmulatorProcess();
  const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-takeover-"));
  const { baseUrl, partnerId, adminSecret } = emulator.target;
  const client = new SvcClient({ baseUrl, partnerId, auth: { adminSecret }, maxConcurrency: 16 });
  try {
    const fill = async (count: number, make: (i: number) => Promise<unknown>): Promise<void> => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = next++; i < count; i = next++) await make(i);
        }),
      );
    };
    await fill(tokens, (i) => client.appTokens.add({ description: `existing token ${i}`, hashType: "SHA256" }));
    await fill(templates, (i) =>
      client.templates.clone("105", {
        name: `Existing hook ${i}`,
        systemName: `EXISTING_${i}`,
        url: `https://hooks.example.com/existing/${i}`,
        signSecret: "bench-signing-secret-0123456789abcdef",
      }),
    );
    log(`account filled: ${tokens} tokens, ${templates} templates`);

    const importPath = join(dir, "import.json");
    const started = performance.now();
    const run = spawnSync(
      "/usr/bin/time",
      [
        "-f",
        "peak-kib %M",
        process.execPath,
        join(repoRoot, "dist", "provider", "cli", "main.js"),
        "takeover",
        "--base-url",
        baseUrl,
        "--partner-id",
        String(partnerId),
        "--import-file",
        importPath,
        "--code",
        join(dir, "takeover.ts"),
      ],
      { env: { ...process.env, SVC_ADMIN_SECRET: adminSecret }, encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
    );
    const commandMs = Math.round(performance.now() - started);
    if (run.status !== 0) throw new Error(`takeover failed (${run.status}): ${run.stderr.slice(-400)}`);
    const listingMs = Number(/listed in (\d+) ms/.exec(run.stdout)?.[1] ?? Number.NaN);
    const commandPeakMiB = Math.round((Number(/peak-kib (\d+)/.exec(run.stderr)?.[1] ?? Number.NaN) / 1024) * 10) / 10;
    const file = JSON.parse(readFileSync(importPath, "utf8")) as { resources: { type: string; name: string; id: string }[] };
    log(`takeover: listed in ${listingMs} ms, ${commandMs} ms in all, ${commandPeakMiB} MiB; ${file.resources.length} in the import file`);

    // `pulumi import` of the first `imported` tokens of the file, into a stack on the plugin.
    const bench = await benchStack("appTokensPlugin", { pluginDir: join(repoRoot, "dist", "pulumi-resource-svc") });
    try {
      await bench.stack.setAllConfig({
        count: { value: "0" },
        "svc:baseUrl": { value: baseUrl },
        "svc:partnerId": { value: String(partnerId) },
        "svc:adminSecret": { value: adminSecret, secret: true },
      });
      const resources = file.resources.filter((r) => r.type === "svc:index:AppToken").slice(0, imported);
      bench.clearProbe();
      const importStarted = performance.now();
      await bench.stack.import({ resources, generateCode: false, signal: AbortSignal.timeout(900_000) } as Parameters<typeof bench.stack.import>[0]);
      const importMs = Math.round(performance.now() - importStarted);
      const probed = bench.probed().provider;
      const state = (await bench.stack.exportStack()).deployment as { resources?: { type: string }[] };
      const inState = (state.resources ?? []).filter((r) => r.type === "svc:index:AppToken").length;
      if (inState !== resources.length) throw new Error(`pulumi import left ${inState} tokens in the state, expected ${resources.length}`);
      log(`pulumi import of ${resources.length} tokens: ${importMs} ms`);
      return {
        tokens,
        templates,
        listingMs,
        commandMs,
        commandPeakMiB,
        importFileResources: file.resources.length,
        imported: resources.length,
        importMs,
        importPluginPeakMiB: Math.round(((probed?.maxRssBytes ?? 0) / 2 ** 20) * 10) / 10,
        importPluginCpuSeconds: Math.round((probed?.cpuMicros ?? 0) / 1e4) / 100,
      };
    } finally {
      await bench.cleanup();
    }
  } finally {
    await client.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const takeoverPart: BenchPart<TakeoverBenchResult> = {
  title: "Takeover at size: pulumi-svc takeover of one account, then pulumi import on the plugin",
  run: () => benchTakeover(),
  render: (r) =>
    table(
      ["tokens", "templates", "listing ms", "command ms", "command MiB", "in import file", "imported", "import ms", "plugin MiB", "plugin CPU s"],
      [
        [
          fmt(r.tokens),
          fmt(r.templates),
          fmt(r.listingMs),
          fmt(r.commandMs),
          fmt(r.commandPeakMiB, 1),
          fmt(r.importFileResources),
          fmt(r.imported),
          fmt(r.importMs),
          fmt(r.importPluginPeakMiB, 1),
          fmt(r.importPluginCpuSeconds, 2),
        ],
      ],
    ),
};

if (require.main === module) {
  const [tokens, templates, imported] = process.argv.slice(2).map(Number);
  benchTakeover({ tokens: tokens || undefined, templates: templates || undefined, imported: imported || undefined }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
