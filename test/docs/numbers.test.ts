/**
 * The numbers the docs state (defaults, limits, ceilings, sizes, counts), each checked against the constant it
 * names: every claim below is written from the code's value, so a changed default or limit fails here until the
 * doc says the new one. A claim is a phrase the doc must contain (whitespace and line breaks aside). Claims that
 * are generated into the docs (docs/resources.md's field tables) are checked by test/provider/generated.test.ts;
 * the count of hand-written files a new resource needs, by test/provider/addResource.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_PARTS, PARTS, SCALE_PARTS } from "../../bench/parts";
import { DEFAULT_SIZES } from "../../bench/provider";
import { TTS_LANGUAGES } from "../../contract/avatar";
import { EVENT_KEYS } from "../../contract/events";
import { EMAIL_LIMITS } from "../../contract/emailTemplates";
import { HashType, PAGER } from "../../contract/platform";
import { PROVIDER_BACKOFF, PROVIDER_MAX_RETRIES } from "../../provider/core/clients";
import { DEFAULT_MAX_CONCURRENCY, DEFAULT_REQUEST_TIMEOUT_MS } from "../../provider/core/connection";
import { OPERATION_DEADLINE_MS } from "../../provider/core/operationLifetime";
import { TRANSPORT_DEFAULTS } from "../../sdk/transport/options";
import { MAX_PACKED_BYTES } from "../package/packedPackage";

const repo = join(__dirname, "..", "..");
const flat = (text: string) => text.replace(/\s+/g, " ");
const doc = (path: string) => flat(readFileSync(join(repo, path), "utf8"));

const seconds = (ms: number) => `${ms / 1000}`;
const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/** The waits of `retries` retries with full jitter: each is random(0, min(cap, base × 2^(n−1))). */
function jitterWaits(retries: number, { baseDelayMs, maxDelayMs }: { baseDelayMs: number; maxDelayMs: number }) {
  let most = 0;
  for (let n = 1; n <= retries; n++) most += Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
  return { averageMs: most / 2, mostMs: most };
}

const providerWaits = jitterWaits(PROVIDER_MAX_RETRIES, PROVIDER_BACKOFF);

/** [doc, the phrase it must contain, the constants the phrase is written from]. */
const CLAIMS: [string, string, string][] = [
  // The provider's retries and their ceiling.
  [
    "docs/design.md",
    `The provider's client makes up to ${PROVIDER_MAX_RETRIES} retries per call (the sdk's default is ${TRANSPORT_DEFAULTS.maxRetries})`,
    "PROVIDER_MAX_RETRIES, TRANSPORT_DEFAULTS.maxRetries",
  ],
  [
    "docs/design.md",
    `Its backoff is full jitter from ${PROVIDER_BACKOFF.baseDelayMs} ms capped at ${seconds(PROVIDER_BACKOFF.maxDelayMs)} s (the sdk's cap is ${seconds(TRANSPORT_DEFAULTS.maxDelayMs)} s), so the ${WORDS[PROVIDER_MAX_RETRIES]} retries wait about ${seconds(providerWaits.averageMs)} s on average and ${seconds(providerWaits.mostMs)} s at most`,
    "PROVIDER_BACKOFF, PROVIDER_MAX_RETRIES",
  ],
  [
    "docs/design.md",
    `a Retry-After is honoured as sent (up to ${seconds(TRANSPORT_DEFAULTS.maxRetryAfterMs)} s); all of it bounded by the operation's ${seconds(OPERATION_DEADLINE_MS)} s deadline`,
    "TRANSPORT_DEFAULTS.maxRetryAfterMs, OPERATION_DEADLINE_MS",
  ],
  ["docs/design.md", `\`svc:maxConcurrency\` (default ${DEFAULT_MAX_CONCURRENCY}:`, "DEFAULT_MAX_CONCURRENCY"],
  // The sdk's transport defaults.
  [
    "docs/sdk.md",
    `\`random(0, min(maxDelayMs ${seconds(TRANSPORT_DEFAULTS.maxDelayMs)} s, baseDelayMs ${TRANSPORT_DEFAULTS.baseDelayMs} ms × 2^(retry−1)))\``,
    "TRANSPORT_DEFAULTS.maxDelayMs, baseDelayMs",
  ],
  ["docs/sdk.md", `capped at \`maxRetryAfterMs\` (${seconds(TRANSPORT_DEFAULTS.maxRetryAfterMs)} s)`, "TRANSPORT_DEFAULTS.maxRetryAfterMs"],
  [
    "docs/sdk.md",
    `keep-alive (${seconds(TRANSPORT_DEFAULTS.keepAliveTimeoutMs)} s), \`connections\` per origin (default ${TRANSPORT_DEFAULTS.connections}), connect timeout ${seconds(TRANSPORT_DEFAULTS.connectTimeoutMs)} s, headers timeout ${seconds(TRANSPORT_DEFAULTS.headersTimeoutMs)} s, body timeout ${seconds(TRANSPORT_DEFAULTS.bodyTimeoutMs)} s`,
    "TRANSPORT_DEFAULTS",
  ],
  ["docs/sdk.md", `Overall deadline per call (\`timeoutMs\`, default ${seconds(TRANSPORT_DEFAULTS.timeoutMs)} s)`, "TRANSPORT_DEFAULTS.timeoutMs"],
  ["docs/sdk.md", `Responses are capped at ${TRANSPORT_DEFAULTS.maxResponseBytes / 2 ** 20} MiB.`, "TRANSPORT_DEFAULTS.maxResponseBytes"],
  ["README.md", `timeout of each HTTP attempt (default ${DEFAULT_REQUEST_TIMEOUT_MS})`, "DEFAULT_REQUEST_TIMEOUT_MS"],
  ["README.md", `requests in flight at once per provider process (default ${DEFAULT_MAX_CONCURRENCY})`, "DEFAULT_MAX_CONCURRENCY"],
  // The email template's limits.
  ["docs/design.md", `at most ${EMAIL_LIMITS.subject} characters (RFC 5322's line limit)`, "EMAIL_LIMITS.subject"],
  ["docs/design.md", `| \`body\` | string | at most ${EMAIL_LIMITS.body.toLocaleString("en-US")} characters |`, "EMAIL_LIMITS.body"],
  ["docs/design.md", `1–${EMAIL_LIMITS.recipients} recipients`, "EMAIL_LIMITS.recipients"],
  ["docs/bench.md", `in pages of ${PAGER.maxPageSize} (the platform's cap)`, "PAGER.maxPageSize"],
  // The package's size limit.
  ["docs/packaging.md", `limit asserted by test/package/consumer.test.ts: ${MAX_PACKED_BYTES / 1_000_000} MB, \`MAX_PACKED_BYTES\``, "MAX_PACKED_BYTES"],
  // The bench's parts and its default ones.
  ["docs/bench.md", `\`--only ${PARTS.join(",")}\``, "PARTS"],
  ["docs/bench.md", `default \`${DEFAULT_PARTS.join(",")}\`: \`DEFAULT_PARTS\``, "DEFAULT_PARTS"],
  ["docs/bench.md", `\`--shape scale\` (the ${SCALE_PARTS.slice(0, -1).join(", ")} and ${SCALE_PARTS.at(-1)} parts`, "SCALE_PARTS"],
  ["docs/bench.md", `(defaults: sizes ${DEFAULT_SIZES.join(", ")}, 2 rounds each`, "DEFAULT_SIZES"],
  ["README.md", `the provider's scale curve (${DEFAULT_SIZES[0]} to ${DEFAULT_SIZES.at(-1)} AppTokens`, "DEFAULT_SIZES"],
  // The contract's counts.
  ["docs/design.md", `The contract's \`VoiceConfig\` takes the spec's ${TTS_LANGUAGES.length} codes`, "TTS_LANGUAGES"],
  ["docs/design.md", `A system email template per catalog event (ids 201–${200 + EVENT_KEYS.length}, \`EMAIL_<EVENT>\`)`, "EVENT_KEYS"],
  // The hash types an app token may have, as the settings table says them.
  ["docs/registry/installation-configuration.md", `The hash type of that app token: ${HashType.options.join(", ")} |`, "HashType"],
];

describe("the numbers the docs state", () => {
  it.each(CLAIMS)("%s: %s", (path, phrase, constants) => {
    expect(doc(path), `${path} should say "${phrase}" (from ${constants})`).toContain(flat(phrase));
  });

  it("packaging.md names every entry of package.json's files", () => {
    const files = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { files: string[] }).files;
    const page = doc("docs/packaging.md");
    expect(files.filter((entry) => !entry.startsWith("!") && !page.includes(`\`${entry}\``))).toEqual([]);
  });

  it("a changed constant fails its claim", () => {
    const [path, phrase] = CLAIMS[1]!;
    expect(doc(path)).not.toContain(flat(phrase.replace(`${seconds(providerWaits.mostMs)} s at most`, `${seconds(providerWaits.mostMs - 1000)} s at most`)));
  });
});
