/**
 * Resolves where and how to reach the platform, inside the provider process, from three sources, nearest first: a
 * resource's explicit `connection` input, the provider's config (the stack config `svc:*` the engine hands to
 * configure(), secrets decrypted, or an explicit plugin provider's inputs), then the environment (SVC_*).
 * Credentials are never captured into the serialized provider nor copied into state by us.
 *
 * The rules, all in resolveConnection:
 * - Each setting comes from the nearest source that sets it (maxConcurrency never from a connection: it is per
 *   process), except as below.
 * - One account, one source: a connection or the provider's config that sets any of baseUrl, partnerId or a
 *   credential takes none of those three from the environment. A missing baseUrl (or partnerId) is then an error
 *   naming where to set it, never SVC_BASE_URL: the environment may point at another platform (a staging runner), and
 *   the credentials set beside the account would go there.
 * - Credentials (adminSecret, appTokenId, appToken, appTokenHashType, ks) all come from one source: the nearest
 *   that sets any of them. No source nearer than that may name an account (baseUrl or partnerId): a source that
 *   names an account brings its own credentials, so another account's are never sent to it. One exception: the
 *   environment's credentials serve an account a nearer source names when the environment names that same
 *   account itself (SVC_BASE_URL and SVC_PARTNER_ID equal to it), as a committed stack file and a CI job's
 *   variables both naming the account do.
 * - allowInsecureHttp counts only in the source that gives the baseUrl: the opt-in to plain http is made where the
 *   URL is chosen.
 */
import { BASE_URL_EXPECTATION, insecureHttpProblem, normalizeBaseUrl } from "../../contract/baseUrl";
import type { HashTypeName } from "../../contract/hashTypes";
import type { ConnectionInput } from "./connectionInput";
import { followsRule } from "./settingRules";
import { ACCOUNT, type ConnectionKey, CREDENTIALS, SECRET_SETTINGS, SETTINGS, type SettingKey } from "./settings";

/** The provider's settings (settings.ts): imported from here by the plugin and the command line. */
export { SETTINGS };

/** Where a resolved value came from, nearest first. */
export type ConnectionSource = "connection" | "provider" | "environment";

export interface ResolvedConnection {
  baseUrl: string;
  partnerId: number;
  auth: { adminSecret: string } | { appTokenId: string; appToken: string; hashType?: HashTypeName } | { ks: string };
  /** Timeout of one HTTP attempt (the answer's headers, then its body). */
  requestTimeoutMs: number;
  /** Requests in flight at once over this connection's one client (stack config only: it is per process). */
  maxConcurrency: number;
  /** Plain http to a host outside loopback was allowed by the source of the baseUrl (the sdk client is told so). */
  allowInsecureHttp: boolean;
  /** The one source every credential came from. */
  credentialSource: ConnectionSource;
}

/** What configure() stores: a lookup of stack config by full key (e.g. "svc:baseUrl"). */
export type ConfigLookup = (key: string) => string | undefined;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Small on purpose: 500 resources must not hit the platform at once; the engine's own parallelism is often larger. */
export const DEFAULT_MAX_CONCURRENCY = 8;

export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
}

/** One source of settings: its values as text, and how a message names each of its fields. */
interface Layer {
  source: ConnectionSource;
  get(key: SettingKey): string | undefined;
  name(key: SettingKey): string;
  /** How this source opts in to plain http. */
  optIn: string;
}

/**
 * How messages name the explicit source: `connection` for a resource's input, `accounts.<name>` for a named account
 * (namedAccounts.ts), which resolves by the same rules.
 */
export type ExplicitLabel = string;

function layersOf(explicit: ConnectionInput | undefined, config: ConfigLookup, env: NodeJS.ProcessEnv, label: ExplicitLabel = "connection"): Layer[] {
  const text = (value: unknown): string | undefined => (value === undefined || value === null || value === "" ? undefined : String(value));
  return [
    {
      source: "connection",
      // A per-process setting (maxConcurrency) is never a connection's.
      get: (key) => ("perProcess" in SETTINGS[key] ? undefined : text(explicit?.[key as ConnectionKey])),
      name: (key) => `\`${label}.${key}\``,
      optIn: `\`allowInsecureHttp: true\` in the same ${label === "connection" ? "connection" : `\`${label}\``}`,
    },
    {
      source: "provider",
      get: (key) => text(config(SETTINGS[key].config)),
      name: (key) => `\`${SETTINGS[key].config}\``,
      optIn: "`pulumi config set svc:allowInsecureHttp true` (or `allowInsecureHttp: true` on the explicit provider that sets baseUrl)",
    },
    {
      source: "environment",
      get: (key) => text(env[SETTINGS[key].env]),
      name: (key) => SETTINGS[key].env,
      optIn: "SVC_ALLOW_INSECURE_HTTP=true next to SVC_BASE_URL",
    },
  ];
}

const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
const SECRET_KEYS: readonly SettingKey[] = SECRET_SETTINGS;

/**
 * Every text resolveConnection reads, as it reads them (each setting from the connection, the provider's config and
 * the environment, in that order), split into the secret settings' texts and the others: resolveConnection is a
 * function of these texts alone, so two calls with equal texts resolve to the same connection (clients.ts caches on
 * that, keyed by the texts that are not secret).
 */
export function connectionTexts(
  explicit: ConnectionInput | undefined,
  config: ConfigLookup,
  env: NodeJS.ProcessEnv,
  label?: ExplicitLabel,
): { plain: (string | undefined)[]; secret: (string | undefined)[] } {
  const plain: (string | undefined)[] = [label];
  const secret: (string | undefined)[] = [];
  for (const layer of layersOf(explicit, config, env, label)) {
    for (const key of SETTING_KEYS) (SECRET_KEYS.includes(key) ? secret : plain).push(layer.get(key));
  }
  return { plain, secret };
}

/** "`svc:baseUrl` (stack config) or SVC_BASE_URL": where a setting may be given, for messages about a missing one. */
const anywhere = (key: SettingKey) => `\`${SETTINGS[key].config}\` (stack config) or ${SETTINGS[key].env}`;

/** The same api_v3 root, whatever the case of the host or a trailing slash. */
export function sameBaseUrl(a: string, b: string): boolean {
  try {
    return normalizeBaseUrl(new URL(a).href) === normalizeBaseUrl(new URL(b).href);
  } catch {
    return false;
  }
}

/** The connection a resource uses, from its sources by the rules at the top of this file; a ConnectionError names what is missing or wrong. */
export function resolveConnection(
  explicit: ConnectionInput | undefined,
  config: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
  label?: ExplicitLabel,
): ResolvedConnection {
  const layers = layersOf(explicit, config, env, label);
  const nearestIn = (within: Layer[], key: SettingKey): { value: string; layer: Layer } | undefined => {
    for (const layer of within) {
      const value = layer.get(key);
      if (value !== undefined) return { value, layer };
    }
    return undefined;
  };
  const nearest = (key: SettingKey) => nearestIn(layers, key);
  // The nearest of the connection and the provider's config that sets any account field or credential: then the
  // account comes from those two only (the environment's credentials, by the exception above, may still serve it).
  const given = layers.filter((layer) => layer.source !== "environment");
  const namer = given.find((layer) => [...ACCOUNT, ...CREDENTIALS].some((key) => layer.get(key) !== undefined));
  const accountLayers = namer ? given.slice(given.indexOf(namer)) : layers;
  const accountField = (key: "baseUrl" | "partnerId") => nearestIn(namer ? given : layers, key);

  const base = accountField("baseUrl");
  if (!base && namer) throw new ConnectionError(notFromEnvironment(namer, accountLayers, "baseUrl", "No platform URL"));
  if (!base) throw new ConnectionError(`No platform URL: set ${anywhere("baseUrl")}, e.g. https://<host>/api_v3`);
  const baseUrl = base.value;
  // Each value is held to its setting's rule (settingRules.ts), the rule the `connection` input's zod schema is made from.
  if (!followsRule(SETTINGS.baseUrl.value, baseUrl)) throw new ConnectionError(`${base.layer.name("baseUrl")} must be ${BASE_URL_EXPECTATION}`);
  const allowText = base.layer.get("allowInsecureHttp")?.toLowerCase();
  if (allowText !== undefined && allowText !== "true" && allowText !== "false")
    throw new ConnectionError(`${base.layer.name("allowInsecureHttp")} must be true or false`);
  const allowInsecureHttp = allowText === "true";
  const insecure = insecureHttpProblem(baseUrl, allowInsecureHttp, base.layer.optIn);
  if (insecure) throw new ConnectionError(`${base.layer.name("baseUrl")}: ${insecure}`);

  const partner = accountField("partnerId");
  if (!partner && namer) throw new ConnectionError(notFromEnvironment(namer, accountLayers, "partnerId", "No partner id"));
  const partnerId = Number(partner?.value);
  if (!partner || !followsRule(SETTINGS.partnerId.value, partnerId))
    throw new ConnectionError(`No partner id: set ${partner ? partner.layer.name("partnerId") : anywhere("partnerId")} to the account's numeric id`);

  const timeoutText = nearest("requestTimeoutMs")?.value;
  const requestTimeoutMs = timeoutText ? Number(timeoutText) : DEFAULT_REQUEST_TIMEOUT_MS;
  if (!followsRule(SETTINGS.requestTimeoutMs.value, requestTimeoutMs))
    throw new ConnectionError(`svc:requestTimeoutMs must be a positive whole number of milliseconds`);

  const concurrencyText = nearest("maxConcurrency")?.value;
  const maxConcurrency = concurrencyText ? Number(concurrencyText) : DEFAULT_MAX_CONCURRENCY;
  if (!followsRule(SETTINGS.maxConcurrency.value, maxConcurrency)) {
    throw new ConnectionError(`svc:maxConcurrency must be a whole number from 1 to 1000 (requests in flight at once); got "${concurrencyText}"`);
  }

  const owner = layers.find((layer) => ACCOUNT.some((key) => layer.get(key) !== undefined)) as Layer; // baseUrl is set somewhere
  const holder = layers.find((layer) => CREDENTIALS.some((key) => layer.get(key) !== undefined));
  const envNamesThisAccount = (holder: Layer): boolean =>
    holder.source === "environment" && sameBaseUrl(holder.get("baseUrl") ?? "", baseUrl) && Number(holder.get("partnerId")) === partnerId;
  if (!holder || (layers.indexOf(holder) > layers.indexOf(owner) && !envNamesThisAccount(holder))) {
    throw new ConnectionError(missingCredentials(owner));
  }
  const common = { baseUrl, partnerId, requestTimeoutMs, maxConcurrency, allowInsecureHttp, credentialSource: holder.source };

  const [adminSecret, appTokenId, appToken, hashTypeText, ks] = (["adminSecret", "appTokenId", "appToken", "appTokenHashType", "ks"] as const).map((key) =>
    holder.get(key),
  );
  if (appTokenId || appToken || hashTypeText) {
    if (!appTokenId || !appToken)
      throw new ConnectionError(
        `An app token needs both ${holder.name("appTokenId")} and ${holder.name("appToken")}, from the same source (set the value as a secret)`,
      );
    const rule = SETTINGS.appTokenHashType.value;
    if (hashTypeText !== undefined && !followsRule(rule, hashTypeText))
      throw new ConnectionError(`${holder.name("appTokenHashType")} must be one of ${rule.options.join(", ")}`);
    return { ...common, auth: { appTokenId, appToken, hashType: hashTypeText as HashTypeName | undefined } };
  }
  if (adminSecret) return { ...common, auth: { adminSecret } };
  return { ...common, auth: { ks: ks as string } };
}

/**
 * Why an account field is missing when a connection or the provider's config set part of the account or its
 * credentials: it is never taken from the environment, which may name another platform. Names what was set, and
 * where the missing field may go (that source, or the provider's config for a connection).
 */
function notFromEnvironment(namer: Layer, candidates: Layer[], key: "baseUrl" | "partnerId", what: string): string {
  const set = [...ACCOUNT, ...CREDENTIALS].filter((field) => namer.get(field) !== undefined).map((field) => namer.name(field));
  const where = candidates.map((layer) => layer.name(key)).join(" or ");
  return (
    `${what}: ${set.join(", ")} ${set.length === 1 ? "is" : "are"} set, so ${where} must be set too; ` +
    `${SETTINGS[key].env} is never used for an account or credentials set in a provider or a connection (it may point at another platform)`
  );
}

/**
 * Why no credentials may be used: none at all, or only a farther source's, which may belong to another account.
 * Names the credential fields of the source that names the account: the only place they would be taken from.
 */
function missingCredentials(owner: Layer): string {
  if (owner.source === "environment")
    return `No credentials: set ${anywhere("appTokenId")} with ${anywhere("appToken")} (recommended for pipelines), or ${anywhere("adminSecret")}, or ${anywhere("ks")}; set secrets with \`pulumi config set --secret\``;
  const named = ACCOUNT.filter((key) => owner.get(key) !== undefined)
    .map((key) => owner.name(key))
    .join(" and ");
  const own = `set ${owner.name("appTokenId")} with ${owner.name("appToken")}, or ${owner.name("adminSecret")}, or ${owner.name("ks")}`;
  return owner.source === "connection"
    ? owner.name("baseUrl") === "`connection.baseUrl`"
      ? `No credentials in the connection: ${named} names an account, so the connection must bring its own credentials (${own}); ` +
        `the provider's credentials are never sent to an account a connection names`
      : `No credentials in ${owner.name("baseUrl").replace(/\.baseUrl`$/, "`")}: ${named} names an account, so the named account must bring its own credentials (${own}); ` +
        `the provider's credentials are never sent to a named account`
    : `No credentials for the account ${named} names: ${own}, as secrets (\`pulumi config set --secret\`, or secret inputs of the explicit provider). ` +
        `SVC_* credentials are used only when the environment names that same account (SVC_BASE_URL and SVC_PARTNER_ID)`;
}

/** A stable key for caching one client per connection within the provider process (hashed: it holds secrets). */
export function connectionKey(connection: ResolvedConnection): string {
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  return createHash("sha256").update(JSON.stringify(connection)).digest("hex");
}
