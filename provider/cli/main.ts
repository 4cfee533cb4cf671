#!/usr/bin/env node
/**
 * pulumi-svc: the package's command line.
 *   pulumi-svc takeover [--language typescript|python|go|yaml] [--state <export.json|->] [--import-file import.json]
 *                       [--code <file>] [--include-disabled]
 * lists an account's app tokens, webhook and email templates that a stack does not manage yet (active ones; disabled
 * ones too with --include-disabled), and writes Pulumi's import file and the program that declares them, in the
 * language asked for (docs/takeover.md).
 * The connection is the provider's: the `svc:*` keys of `--config` (the output of `pulumi config --json
 * --show-secrets`), then the SVC_* variables, which the flags override (a flag also wins over `--config`). Secrets
 * are taken from the file or the environment only (never from flags, which other users of the machine can see), and
 * never printed; a malformed file is reported by line and column, never quoted. What the platform sends is checked
 * before it becomes code (takeoverGrammar.ts), and the files are written whole or not at all, never through a link,
 * mode 0600 (privateFiles.ts).
 *   pulumi-svc recover --stack <name> [--yes] [--cwd <program dir>] [--release-lock] [--since <time>] [--account-from-environment] [--expect-plan <digest>]
 * settles what a run that died left (pending creates, objects the platform made that no state records), through
 * the user's `pulumi` CLI on the stack's backend; a dry run without --yes (recover.ts, docs/design.md).
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { ProviderProcess } from "../core/providerProcess";
import { HashType } from "../../contract/platform";
import { stripUserinfo } from "../../contract/urlUserinfo";
import { resolveConnection, SETTINGS } from "../core/connection";
import { DEFINITIONS } from "../definitions";
import { displayed } from "./asciiLiteral";
import { parseJsonInput } from "./jsonInput";
import { EXIT_CODES, type RecoverOptions, recover } from "./recover";
import { writePrivateFiles } from "./privateFiles";
import { importFile } from "./takeoverCode";
import { isGoPackageName } from "./takeoverGo";
import { listCandidates, type Managed, managedBy } from "./takeoverListing";
import { DEFAULT_CODE_FILE, type Language, LANGUAGES, programFor } from "./takeoverWriters";

interface TakeoverOptions {
  baseUrl?: string;
  partnerId?: string;
  appTokenId?: string;
  appTokenHashType?: string;
  config?: string;
  state?: string;
  importFile: string;
  /** Default: the language's usual file (DEFAULT_CODE_FILE). */
  code?: string;
  language?: Language;
  goPackage?: string;
  includeDisabled?: boolean;
  force?: boolean;
}

/** The URL without user:password, should one be written into it: the program's header names the account, never a credential. */
function withoutUserInfo(url: string): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.toString().replace(/\/$/, "");
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? "" : "s"}`;

/** A file's text, or standard input for "-" (read as a stream: readFileSync(0) fails with EAGAIN on a non-blocking pipe). */
async function readInput(path: string): Promise<string> {
  if (path !== "-") return readFileSync(path, "utf8");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const inputName = (flag: string, path: string): string => (path === "-" ? `${flag} (standard input)` : `${flag} ${path}`);

/** `pulumi config --json --show-secrets`: { "svc:baseUrl": { "value": "...", "secret": false }, ... } (or plain values). */
async function configLookup(path: string | undefined): Promise<(key: string) => string | undefined> {
  if (!path) return () => undefined;
  const what = inputName("--config", path);
  const parsed = parseJsonInput(await readInput(path), what);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(`${what} is not the output of \`pulumi config --json\` (expected a JSON object of settings)`);
  }
  const config = parsed as Record<string, unknown>;
  return (key) => {
    const entry = config[key];
    // Without --show-secrets a secret entry has no value: left unset (the error then names the missing setting).
    const value = entry !== null && typeof entry === "object" ? (entry as { value?: unknown }).value : entry;
    return value === undefined || value === null ? undefined : String(value);
  };
}

export async function takeover(options: TakeoverOptions, out: (line: string) => void = console.log): Promise<{ imported: number }> {
  if (options.state === "-" && options.config === "-") throw new Error("--state and --config cannot both be read from standard input");
  const language = options.language ?? "typescript";
  if (!LANGUAGES.includes(language)) throw new Error(`--language ${JSON.stringify(language)}: expected one of ${LANGUAGES.join(", ")}`);
  const goPackage = options.goPackage ?? "main";
  if (options.goPackage !== undefined && language !== "go") throw new Error("--go-package is for --language go");
  if (!isGoPackageName(goPackage)) throw new Error(`--go-package ${JSON.stringify(goPackage)}: expected a Go package name (lower-case letters, digits, _)`);
  const codeFile = options.code ?? DEFAULT_CODE_FILE[language];
  // The flags and the SVC_* variables are one source, the command line's: `--base-url` and `--partner-id` name the
  // account whose secret SVC_ADMIN_SECRET (or SVC_APP_TOKEN with `--app-token-id`) holds. A flag overrides the
  // variable and the `--config` key of its name; a flag of the account or its credentials hides all of those keys
  // of `--config` (one account, one source: the file's secret is never sent to the account the flags name).
  const flags: Record<string, string | undefined> = {
    SVC_BASE_URL: options.baseUrl,
    SVC_PARTNER_ID: options.partnerId,
    SVC_APP_TOKEN_ID: options.appTokenId,
    SVC_APP_TOKEN_HASH_TYPE: options.appTokenHashType,
  };
  const given = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  const env = { ...process.env, ...given };
  const ofAccount = (setting: (typeof SETTINGS)[keyof typeof SETTINGS]) => "account" in setting || "credential" in setting;
  const accountFlag = Object.values(SETTINGS).some((setting) => ofAccount(setting) && setting.env in given);
  const overridden = new Set(
    Object.values(SETTINGS)
      .filter((setting) => setting.env in given || (accountFlag && ofAccount(setting)))
      .map((setting) => setting.config as string),
  );
  const fromFile = await configLookup(options.config);
  const lookup = (key: string) => (overridden.has(key) ? undefined : fromFile(key));
  resolveConnection(undefined, lookup, env); // fails early, naming what is missing (never a value)
  // This run's provider process: its client of the account, closed once the listing is done.
  const session = new ProviderProcess();
  session.configure({ get: lookup }, env);
  const account = session.clients.accountOf(undefined)!;

  const managed: Managed = options.state
    ? managedBy(parseJsonInput(await readInput(options.state), inputName("--state", options.state)))
    : { ids: [], names: new Map() };
  const started = performance.now();
  const listing = await listCandidates(session.contextFor(undefined), account.partnerId, managed, {
    includeDisabled: options.includeDisabled === true,
  }).finally(() => session.close());
  const listedMs = Math.round(performance.now() - started);
  const found = listing.candidates.length + listing.managedCount + listing.skipped.length + listing.disabledCount;
  out(
    `partner ${account.partnerId}: ${found} objects (listed in ${listedMs} ms), ${listing.managedCount} already managed by the stack, ${listing.skipped.length} skipped`,
  );
  if (listing.disabledCount > 0) out(`  ${plural(listing.disabledCount, "disabled object")} left out (--include-disabled takes them)`);
  for (const skipped of listing.skipped) out(`  skipped ${skipped.type} ${displayed(skipped.id)}: ${skipped.reason}`);
  if (listing.candidates.length === 0) {
    out("Nothing to import.");
    return { imported: 0 };
  }
  // Both texts are made (and what the platform sent checked) before either file is written.
  const files = [
    { path: options.importFile, text: `${JSON.stringify(importFile(listing.candidates), null, 2)}\n` },
    {
      path: codeFile,
      text: programFor(
        language,
        listing.candidates,
        { partnerId: account.partnerId, baseUrl: withoutUserInfo(account.baseUrl), importFile: basename(options.importFile) },
        { goPackage },
      ),
    },
  ];
  await writePrivateFiles(files, { overwrite: options.force === true });
  out(
    `To import: ${DEFINITIONS.map((d) => plural(listing.candidates.filter((c) => c.definition === d).length, d.takeover.noun)).join(", ")}. Wrote ${options.importFile} and ${codeFile}.`,
  );
  out(`Next: pulumi import --file ${options.importFile} --generate-code=false, then merge ${codeFile} into the program; pulumi preview shows no change.`);
  return { imported: listing.candidates.length };
}

export const program = new Command("pulumi-svc").description("pulumi-svc: Pulumi resources for the video platform");

program
  .command("takeover")
  .description(
    "list an account's app tokens, webhooks and email templates a stack does not manage; write Pulumi's import file and the program for them (TypeScript, Python, Go or YAML)",
  )
  .addOption(new Option("--language <language>", "the program's language").choices([...LANGUAGES]).default("typescript"))
  .addOption(new Option("--base-url <url>", "the platform's api_v3 root (else svc:baseUrl of --config, else SVC_BASE_URL)"))
  .addOption(new Option("--partner-id <n>", "the account's partner id (else svc:partnerId, else SVC_PARTNER_ID)"))
  .addOption(new Option("--app-token-id <id>", "authenticate with this app token (its value: svc:appToken or SVC_APP_TOKEN)"))
  .addOption(new Option("--app-token-hash-type <hash>", `that app token's hash type: ${HashType.options.join(", ")}`))
  .addOption(
    new Option(
      "--config <file>",
      "stack config as JSON, the output of `pulumi config --json --show-secrets` (its svc:* keys, secrets included), or - for stdin",
    ),
  )
  .addOption(new Option("--state <file>", "the stack's `pulumi stack export` (what it manages is left out), or - for stdin"))
  .addOption(new Option("--import-file <file>", "where to write Pulumi's import file").default("import.json"))
  .addOption(new Option("--code <file>", "where to write the program (default index.ts, __main__.py, main.go or Main.yaml, by language)"))
  .addOption(new Option("--go-package <name>", "the Go file's package: main (default; with func main) or yours, whose code calls Takeover(ctx)"))
  .option("--include-disabled", "take disabled app tokens and templates too (left out by default)")
  .option("--force", "overwrite --import-file and --code when they exist")
  .action(async (options: TakeoverOptions) => {
    await takeover(options);
  });

program
  .command("recover")
  .description(
    "after a run that died: delete what it provably made that no state records, and clear its pending creates (a dry run without --yes); " +
      "exit 2 when something cannot be proven (nothing of it is deleted), 3 on a locked stack",
  )
  .requiredOption("--stack <name>", "the stack (as `pulumi --stack` names it)")
  .option("--yes", "do it (without it, print what it would do)")
  .option("--cwd <dir>", "the Pulumi program's folder (default: the current one)")
  .option(
    "--release-lock",
    "no run of the stack is in progress (its runner died): read when the dead run started from the lock it left, then release the lock (pulumi cancel)",
  )
  .addOption(new Option("--since <time>", "when the interrupted run started (ISO 8601), where no record of the backend tells it").argParser(parseTime))
  .option("--account-from-environment", "this job's SVC_* variables are the ones the run had (for a stack whose state and config record no account)")
  .option("--expect-plan <digest>", "with --yes: act only if the plan is the one a dry run printed")
  .action(async (options: RecoverOptions) => {
    const result = await recover(options);
    process.exitCode = EXIT_CODES[result.outcome];
  });

/** An ISO 8601 time, or a clear error naming the option. */
function parseTime(text: string): Date {
  const time = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || !Number.isFinite(time.getTime())) {
    throw new InvalidArgumentError(`expected an ISO 8601 time such as 2026-11-28T15:04:05Z, got ${JSON.stringify(text.slice(0, 40))}`);
  }
  return time;
}

if (require.main === module) {
  program.parseAsync(process.argv).then(
    () => process.exit(process.exitCode ?? 0),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`pulumi-svc: ${stripUserinfo(message)}`);
      process.exit(1);
    },
  );
}
