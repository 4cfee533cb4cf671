/**
 * Resolves where and how to reach the platform, inside the dynamic provider process: an explicit `connection`
 * input first, then stack config (`svc:*`, handed to configure() by the engine, secrets decrypted), then the
 * environment (SVC_*). Credentials are never captured into the serialized provider nor copied into state by us.
 */
import { BASE_URL_EXPECTATION, isBaseUrl } from "../../contract/baseUrl";
import { HashType } from "../../contract/platform";
import type { ConnectionInput } from "./connectionInput";

export interface ResolvedConnection {
  baseUrl: string;
  partnerId: number;
  auth: { adminSecret: string } | { appTokenId: string; appToken: string; hashType?: HashType } | { ks: string };
  /** Timeout of one HTTP attempt (the answer's headers, then its body). */
  requestTimeoutMs: number;
  /** Requests in flight at once over this connection's one client (stack config only: it is per process). */
  maxConcurrency: number;
}

/** What configure() stores: a lookup of stack config by full key (e.g. "svc:baseUrl"). */
export type ConfigLookup = (key: string) => string | undefined;

/**
 * The provider's settings: the stack config key (also the plugin's provider input of the same name), the
 * environment fallback, and what the package schema says of each. The one list of them.
 */
export const SETTINGS = {
  baseUrl: {
    config: "svc:baseUrl",
    env: "SVC_BASE_URL",
    type: "string",
    description: "The platform's api_v3 root, e.g. https://api.example.com/api_v3 (or the emulator's).",
  },
  partnerId: { config: "svc:partnerId", env: "SVC_PARTNER_ID", type: "integer", description: "The account's numeric partner id." },
  adminSecret: {
    config: "svc:adminSecret",
    env: "SVC_ADMIN_SECRET",
    type: "string",
    secret: true,
    description: "The account's admin secret (pipelines should prefer an app token).",
  },
  appTokenId: {
    config: "svc:appTokenId",
    env: "SVC_APP_TOKEN_ID",
    type: "string",
    description: "The id of an app token to authenticate with, instead of the admin secret.",
  },
  appToken: { config: "svc:appToken", env: "SVC_APP_TOKEN", type: "string", secret: true, description: "The value of that app token." },
  appTokenHashType: {
    config: "svc:appTokenHashType",
    env: "SVC_APP_TOKEN_HASH_TYPE",
    type: "string",
    description: "The hash type of that app token: SHA1, SHA256 or SHA512.",
  },
  ks: { config: "svc:ks", env: "SVC_KS", type: "string", secret: true, description: "A ready session string, instead of other credentials." },
  requestTimeoutMs: {
    config: "svc:requestTimeoutMs",
    env: "SVC_REQUEST_TIMEOUT_MS",
    type: "integer",
    description: "Timeout of each HTTP attempt, in milliseconds (default 30000).",
  },
  maxConcurrency: {
    config: "svc:maxConcurrency",
    env: "SVC_MAX_CONCURRENCY",
    type: "integer",
    description: "Requests in flight at once to the platform (default 8).",
  },
} as const satisfies Record<string, { config: string; env: string; type: "string" | "integer"; secret?: boolean; description: string }>;

const CREDENTIALS: readonly string[] = ["adminSecret", "appTokenId", "appToken", "appTokenHashType", "ks"];

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Small on purpose: 500 resources must not hit the platform at once; the engine's own parallelism is often larger. */
export const DEFAULT_MAX_CONCURRENCY = 8;

export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
}

export function resolveConnection(explicit: ConnectionInput | undefined, config: ConfigLookup, env: NodeJS.ProcessEnv = process.env): ResolvedConnection {
  const explicitCredentials = CREDENTIALS.some((key) => explicit?.[key as keyof ConnectionInput]);
  const pick = <K extends keyof typeof SETTINGS>(key: K): string | undefined => {
    // maxConcurrency is per provider process, so it comes from stack config or the environment only.
    const given = key === "maxConcurrency" ? undefined : explicit?.[key as Exclude<K, "maxConcurrency">];
    if (given !== undefined && given !== null && given !== "") return String(given);
    // Credentials never mix: an explicit connection that brings one takes none from the stack's (another account's).
    if (explicitCredentials && CREDENTIALS.includes(key)) return undefined;
    const fromConfig = config(SETTINGS[key].config);
    if (fromConfig !== undefined && fromConfig !== "") return fromConfig;
    const fromEnv = env[SETTINGS[key].env];
    return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
  };
  const where = (key: keyof typeof SETTINGS) => `\`${SETTINGS[key].config}\` (stack config) or ${SETTINGS[key].env}`;

  const baseUrl = pick("baseUrl");
  if (!baseUrl) throw new ConnectionError(`No platform URL: set ${where("baseUrl")}, e.g. https://<host>/api_v3`);
  if (!isBaseUrl(baseUrl)) throw new ConnectionError(`svc:baseUrl must be ${BASE_URL_EXPECTATION}`);
  const partnerText = pick("partnerId");
  const partnerId = Number(partnerText);
  if (!partnerText || !Number.isInteger(partnerId) || partnerId <= 0)
    throw new ConnectionError(`No partner id: set ${where("partnerId")} to the account's numeric id`);

  const timeoutText = pick("requestTimeoutMs");
  const requestTimeoutMs = timeoutText ? Number(timeoutText) : DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs <= 0)
    throw new ConnectionError(`svc:requestTimeoutMs must be a positive whole number of milliseconds`);

  const concurrencyText = pick("maxConcurrency");
  const maxConcurrency = concurrencyText ? Number(concurrencyText) : DEFAULT_MAX_CONCURRENCY;
  if (!Number.isInteger(maxConcurrency) || maxConcurrency <= 0 || maxConcurrency > 1000) {
    throw new ConnectionError(`svc:maxConcurrency must be a whole number from 1 to 1000 (requests in flight at once); got "${concurrencyText}"`);
  }
  const common = { baseUrl, partnerId, requestTimeoutMs, maxConcurrency };

  const adminSecret = pick("adminSecret");
  const appTokenId = pick("appTokenId");
  const appToken = pick("appToken");
  const ks = pick("ks");
  if (appTokenId || appToken) {
    if (!appTokenId || !appToken)
      throw new ConnectionError(`An app token needs both ${where("appTokenId")} and ${where("appToken")} (set the value with --secret)`);
    const hashType = HashType.optional().safeParse(pick("appTokenHashType"));
    if (!hashType.success) throw new ConnectionError(`svc:appTokenHashType must be one of ${HashType.options.join(", ")}`);
    return { ...common, auth: { appTokenId, appToken, hashType: hashType.data } };
  }
  if (adminSecret) return { ...common, auth: { adminSecret } };
  if (ks) return { ...common, auth: { ks } };
  throw new ConnectionError(
    `No credentials: set ${where("appTokenId")} with ${where("appToken")} (recommended for pipelines), or ${where("adminSecret")}, or ${where("ks")}; set secrets with \`pulumi config set --secret\``,
  );
}

/** A stable key for caching one client per connection within the provider process (hashed: it holds secrets). */
export function connectionKey(connection: ResolvedConnection): string {
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  return createHash("sha256").update(JSON.stringify(connection)).digest("hex");
}
