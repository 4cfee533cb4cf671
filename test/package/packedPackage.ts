/**
 * The package as a user gets it: `npm pack` of this repo (which runs `prepack`, the build), read back from the
 * tarball, and installed into a program of its own outside the repo.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../support/pulumi";
import { cleanEnv, runOk } from "./processes";
import { withRegistryRetry } from "../support/registryRetry";

/**
 * The packed package, at most: under 1 MB. The native plugin is most of it: one self-contained file with every
 * dependency inside (the protocol's messages, zod, undici's public index), about 360 kB of the tarball, so that its
 * folder runs wherever it is copied; blanks and comments out, no grpc-js (the plugin serves gRPC on node:http2)
 * (scripts/build-plugin.mjs). 1,030 kB before the first cut, 991.5 kB with grpc-js, 924 kB without; a jump past the
 * bound is a question.
 */
export const MAX_PACKED_BYTES = 1_000_000;

export interface PackedFile {
  path: string;
  size: number;
}

export interface Packed {
  tarball: string;
  /** Compressed size of the tarball in bytes. */
  size: number;
  unpackedSize: number;
  files: PackedFile[];
  /** The package.json inside the tarball. */
  manifest: Record<string, unknown>;
  prepackOutput: string;
}

/**
 * `npm pack` into `destination`: the real thing, prepack and all. `ignoreScripts` packs the build as it is (for a
 * second test file in the same run: npm test has just built it, and one prepack at a time is enough).
 */
export async function packRepo(destination: string, options: { ignoreScripts?: boolean } = {}): Promise<Packed> {
  mkdirSync(destination, { recursive: true });
  const flags = options.ignoreScripts ? ["--ignore-scripts"] : [];
  const result = await runOk("npm", ["pack", "--json", ...flags, "--pack-destination", destination], { cwd: repoRoot, env: cleanEnv(), timeoutMs: 300_000 });
  // npm prints the prepack script's output before the JSON; the JSON is the last top-level array.
  const json = result.stdout.slice(result.stdout.lastIndexOf("\n[") + 1);
  const [info] = JSON.parse(json.startsWith("[") ? json : result.stdout) as { filename: string; size: number; unpackedSize: number; files: PackedFile[] }[];
  const tarball = join(destination, info!.filename);
  const listing = await runOk("tar", ["-xzOf", tarball, "package/package.json"], { cwd: destination, env: cleanEnv() });
  return {
    tarball,
    size: info!.size,
    unpackedSize: info!.unpackedSize,
    files: info!.files,
    manifest: JSON.parse(listing.stdout) as Record<string, unknown>,
    prepackOutput: result.stderr,
  };
}

/** Versions of the repo's own dev tools, so a temp program's `npm install` finds them in the local npm cache. */
export function repoToolVersion(name: string): string {
  return (JSON.parse(readFileSync(join(repoRoot, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** `npm install` of the tarball into `dir` (which has its own package.json), from the local cache where it can. */
export async function installTarball(dir: string, tarball: string, extraArgs: string[] = []): Promise<void> {
  await withRegistryRetry(() =>
    runOk("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--save-exact", ...extraArgs, tarball], {
      cwd: dir,
      env: cleanEnv(),
      timeoutMs: 300_000,
    }),
  );
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}
