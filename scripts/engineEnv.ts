/**
 * The one place that knows where the Pulumi engine is and how to run it here: the bin dir scripts/ensure-pulumi.sh
 * built (recorded in node_modules/.pulumi-svc-engine), with the project's Node 22 next on PATH (the language host
 * and the dynamic provider host run `node`), no plugin downloads and no update checks. Used by the demo,
 * `npm run pulumi`, the bench and the end-to-end tests.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The repo root, found from this file whether it runs as TypeScript (vitest) or from dist/. */
export const repoRoot = findRepoRoot(__dirname);
/** The local file backend of `npm run demo` and `npm run pulumi`. */
export const localStateDir = join(repoRoot, ".pulumi-state");
/** The dev stack's local-only passphrase (its secrets guard an emulator, nothing real). */
export const DEV_PASSPHRASE = "pulumi-svc-dev";

function findRepoRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "pulumi-svc") return dir;
  }
  throw new Error(`no pulumi-svc package.json above ${from}`);
}

/** The engine's version, as pinned in scripts/pulumi-engine/cli/go.mod (pkg/v3); the Node SDK's is @pulumi/pulumi's. */
export function enginePinnedVersion(): string {
  const goMod = readFileSync(join(repoRoot, "scripts", "pulumi-engine", "cli", "go.mod"), "utf8");
  const version = /github\.com\/pulumi\/pulumi\/pkg\/v3 v(\d+\.\d+\.\d+)/.exec(goMod)?.[1];
  if (!version) throw new Error("scripts/pulumi-engine/cli/go.mod does not pin github.com/pulumi/pulumi/pkg/v3");
  return version;
}

/**
 * The bin dir holding pulumi, pulumi-language-nodejs and pulumi-resource-pulumi-nodejs; fails (never skips) without it.
 * PULUMI_SVC_ENGINE_BIN points at another such dir instead of the one ensure-pulumi.sh recorded: an older engine build,
 * to check the oldest CLI version the README claims (e.g. `PULUMI_SVC_ENGINE_BIN=~/.cache/pulumi-svc/engine/v3.259.0-<key>/bin`).
 */
export function engineBinDir(): string {
  const override = process.env.PULUMI_SVC_ENGINE_BIN;
  const marker = join(repoRoot, "node_modules", ".pulumi-svc-engine");
  if (!override && !existsSync(marker))
    throw new Error("The Pulumi engine is not set up: run `bash scripts/ensure-pulumi.sh` (npm test and npm run demo do it)");
  const bin = override || readFileSync(marker, "utf8").trim();
  const fix = override ? "PULUMI_SVC_ENGINE_BIN must name an engine bin dir" : "run bash scripts/ensure-pulumi.sh";
  for (const exe of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
    if (!existsSync(join(bin, exe))) throw new Error(`The Pulumi engine in ${bin} lacks ${exe}: ${fix}`);
  }
  return bin;
}

/** What scripts/ensure-languages.sh built and recorded: the Python and YAML hosts, the Python venv, the SDK generators. */
export interface LanguageTools {
  /** bin dirs holding pulumi-language-python (+ pulumi-language-python-exec) and pulumi-language-yaml */
  bins: string[];
  /** the virtual environment with `pulumi` from PyPI, and its python */
  venv: string;
  python: string;
  /** pulumi-svc-codegen <schema.json> <outdir>: writes <outdir>/{nodejs,python,go} */
  codegen: string;
  /** versions: of sdk/v3 the Python host is built from, of pulumi-yaml, of `pulumi` on PyPI */
  pythonHost: string;
  yamlHost: string;
  pulumiPython: string;
}

/** The language tools; fails (never skips) when ensure-languages.sh has not run (`npm test` runs it). */
export function languageTools(): LanguageTools {
  const marker = join(repoRoot, "node_modules", ".pulumi-svc-languages");
  if (!existsSync(marker)) throw new Error("The language hosts are not set up: run `bash scripts/ensure-languages.sh` (npm test does it)");
  const tools = JSON.parse(readFileSync(marker, "utf8")) as LanguageTools;
  for (const file of [...tools.bins, tools.python, tools.codegen]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run bash scripts/ensure-languages.sh`);
  }
  return tools;
}

export interface EngineEnvOptions {
  /** file:// URL of the state backend; default the local .pulumi-state/ (or PULUMI_BACKEND_URL when set). */
  backendUrl?: string;
  /** Default the dev passphrase (or PULUMI_CONFIG_PASSPHRASE when set). */
  passphrase?: string;
  /** PULUMI_HOME, e.g. a temp dir for tests. */
  home?: string;
  /** Also the Python and YAML language hosts and the Python venv (scripts/ensure-languages.sh), as an activated venv. */
  languages?: boolean;
}

export function engineEnv(options: EngineEnvOptions = {}, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const tools = options.languages ? languageTools() : undefined;
  const languagePath = tools ? [...tools.bins, join(tools.venv, "bin")] : [];
  return {
    PATH: [engineBinDir(), ...languagePath, join(repoRoot, "node_modules", ".bin"), base.PATH ?? ""].join(":"),
    PULUMI_BACKEND_URL: options.backendUrl ?? base.PULUMI_BACKEND_URL ?? `file://${localStateDir}`,
    PULUMI_CONFIG_PASSPHRASE: options.passphrase ?? base.PULUMI_CONFIG_PASSPHRASE ?? DEV_PASSPHRASE,
    ...(options.home ? { PULUMI_HOME: options.home } : {}),
    ...(tools ? { VIRTUAL_ENV: tools.venv, PULUMI_PYTHON_CMD: tools.python } : {}),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}
