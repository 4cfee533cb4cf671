/**
 * The package's sizes that the docs state (docs/packaging.md's table and runtime bundle, docs/avatar.md's browser
 * bundle), measured on the built package (`npm pack --dry-run --json --ignore-scripts` of the current dist/, the
 * bundles' files gzipped as npm packs them): each figure in the text is within TOLERANCE of the measured one, so a
 * figure that drifts fails here until the doc says the new one. Reads dist/, so it runs in `npm test` (which builds
 * first), not in test:unit.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

/** How far a stated figure may be from the measured one: room for rounding and a few small changes, not for a stale figure. */
const TOLERANCE = 0.05;

const repoRoot = join(__dirname, "..", "..");
const PLUGIN_BUNDLE = "dist/pulumi-resource-svc/pulumi-resource-svc.js";
const RUNTIME_BUNDLE = "dist/provider/runtime/index.js";
const BROWSER_BUNDLE = "dist/client/svc-avatar-session.js";

/** The number captured by `pattern`'s first group in the doc at `path`. */
function stated(path: string, pattern: RegExp): number {
  const match = readFileSync(join(repoRoot, path), "utf8").replace(/\s+/g, " ").match(pattern);
  if (!match) throw new Error(`${path} no longer says ${pattern}`);
  return Number(match[1]!.replace(/,/g, ""));
}

const packedBytes = (path: string) => gzipSync(readFileSync(join(repoRoot, path)), { level: 9 }).length;
const bytes = (path: string) => readFileSync(join(repoRoot, path)).length;

interface Measured {
  size: number;
  unpackedSize: number;
  files: number;
}

/** One `npm pack --dry-run` for the file, awaited by each test (so a failed pack fails them, never skips them). */
let packing: Promise<Measured> | undefined;
function packed(): Promise<Measured> {
  packing ??= (async () => {
    // npm_* variables of an npm script running vitest would change what the nested npm does.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
    const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot, env, timeout: 120_000 });
    const [info] = JSON.parse(stdout.slice(stdout.indexOf("["))) as { size: number; unpackedSize: number; files: unknown[] }[];
    return { size: info!.size, unpackedSize: info!.unpackedSize, files: info!.files.length };
  })();
  return packing;
}

describe("the docs' package sizes, measured", () => {
  const packaging: [string, RegExp, (measured: Measured) => number][] = [
    ["the packed size (kB)", /\| `npm pack` size \| [^|]+ \| ([\d,.]+) kB/, (measured) => measured.size / 1000],
    ["the plugin's share of the packed size (kB)", /native plugin's bundle \(about ([\d,.]+) kB of it\)/, () => packedBytes(PLUGIN_BUNDLE) / 1000],
    ["the file count", /\| files \| [^|]+ \| ([\d,]+) \|/, (measured) => measured.files],
    ["the unpacked size (MB)", /\| unpacked \| [^|]+ \| ([\d.]+) MB/, (measured) => measured.unpackedSize / 1e6],
    ["the plugin's one file (MB)", /the plugin's one file, minified with its names kept, is ([\d.]+) MB of it/, () => bytes(PLUGIN_BUNDLE) / 1e6],
    ["what the runtime bundle adds packed (kB)", /The runtime bundle adds about ([\d.]+) kB packed/, () => packedBytes(RUNTIME_BUNDLE) / 1000],
    ["the runtime bundle's size (KiB)", /The runtime bundle adds about [\d.]+ kB packed \(([\d.]+) KiB\)/, () => bytes(RUNTIME_BUNDLE) / 1024],
  ];
  const avatar: [string, RegExp, () => number][] = [
    ["the browser bundle (KiB)", /The build prints its size: ([\d.]+) KiB/, () => bytes(BROWSER_BUNDLE) / 1024],
    ["the browser bundle gzipped (kB)", /The build prints its size: [\d.]+ KiB, ([\d.]+) kB gzipped/, () => packedBytes(BROWSER_BUNDLE) / 1000],
  ];
  const cases = [
    ...packaging.map(([what, pattern, measure]) => ["docs/packaging.md", what, pattern, measure] as const),
    ...avatar.map(([what, pattern, measure]) => ["docs/avatar.md", what, pattern, measure] as const),
  ];

  it.each(cases)(
    `%s: %s is within ${TOLERANCE * 100}% of the measured figure`,
    async (path, _what, pattern, measure) => {
      const figure = stated(path, pattern);
      const actual = measure(await packed());
      expect(Math.abs(figure - actual) / actual, `${path} says ${figure}, measured ${actual.toFixed(2)}`).toBeLessThanOrEqual(TOLERANCE);
    },
    120_000,
  );
});
