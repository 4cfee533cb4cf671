/**
 * Constructor arguments -> a checked configuration and the injected dependencies (with browser defaults).
 * Bad configuration throws AvatarError INVALID_CONFIGURATION naming the field, before any call is made.
 */
import type { FetchLike } from "./avatarApiClient";
import { realClock, type Clock } from "./clock";
import { isLoopbackHost } from "../../contract/webhookUrl";
import { invalidConfiguration } from "./errors";
import { LOG_LEVELS, processDeprecations, type DeprecationRegistry, type LogSink } from "./logger";
import { DEFAULT_RETRY, validateRetryConfig } from "./retry";
import type { PeerConnectionFactory } from "./rtc";
import type { AvatarConfig, LogLevel, RetryConfig } from "./types";

/** What touches the outside world; each defaults to the browser global. Tests inject fakes. */
export interface AvatarSessionDeps {
  fetch?: FetchLike;
  RTCPeerConnection?: PeerConnectionFactory;
  clock?: Clock;
  document?: DocumentLike;
  logger?: LogSink;
  deprecations?: DeprecationRegistry;
  /** Per-request timeout (default 15 s). */
  requestTimeoutMs?: number;
  /** Speaking-events poll interval (default 500 ms). */
  eventsPollIntervalMs?: number;
  /** Longest wait for ICE gathering before the offer is sent anyway (default 1 s). */
  iceGatheringTimeoutMs?: number;
  /** Source of the retry jitter, a number in [0, 1) (default Math.random). */
  random?: () => number;
}

export interface ElementLike {
  appendChild(child: unknown): unknown;
}
export interface VideoElementLike {
  autoplay: boolean;
  playsInline: boolean;
  muted?: boolean;
  srcObject: unknown;
  style: { width: string; height: string };
  setAttribute(name: string, value: string): void;
  remove(): void;
}
export interface DocumentLike {
  getElementById(id: string): ElementLike | null;
  createElement(tag: "video"): VideoElementLike;
}

export interface ResolvedConfig {
  apiKey: string | undefined;
  /** Plain http to a host outside loopback is allowed (configured URLs and the WHEP URL a server answers). */
  allowInsecureHttp: boolean;
  /** Undefined when not configured: calls then fail with INVALID_CONFIGURATION naming baseUrl. */
  baseUrl: string | undefined;
  catalogUrl: string | undefined;
  retry: RetryConfig;
  logLevel: LogLevel;
}

export interface ResolvedDeps {
  fetch: FetchLike | undefined;
  RTCPeerConnection: PeerConnectionFactory | undefined;
  clock: Clock;
  document: DocumentLike | undefined;
  logger: LogSink;
  deprecations: DeprecationRegistry;
  requestTimeoutMs: number;
  eventsPollIntervalMs: number;
  iceGatheringTimeoutMs: number;
  random: () => number;
}

export function resolveConfig(config: AvatarConfig): ResolvedConfig {
  if (config === null || typeof config !== "object") throw invalidConfiguration("config: expected an AvatarConfig object");
  if (config.apiKey !== undefined && (typeof config.apiKey !== "string" || config.apiKey === "")) {
    throw invalidConfiguration("apiKey: expected a non-empty session string");
  }
  if (config.allowInsecureHttp !== undefined && typeof config.allowInsecureHttp !== "boolean") {
    throw invalidConfiguration("allowInsecureHttp: expected true or false");
  }
  const allowInsecureHttp = config.allowInsecureHttp === true;
  const baseUrl = config.baseUrl === undefined ? defaultBaseUrl() : checkUrl("baseUrl", config.baseUrl, allowInsecureHttp);
  const catalogUrl = config.catalogUrl === undefined ? baseUrl : checkUrl("catalogUrl", config.catalogUrl, allowInsecureHttp);
  const retry = config.retryConfig ?? DEFAULT_RETRY;
  const retryProblem = validateRetryConfig(retry);
  if (retryProblem) throw invalidConfiguration(retryProblem);
  const logLevel = config.logLevel ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) throw invalidConfiguration(`logLevel: expected one of ${LOG_LEVELS.join(", ")}`);
  return { apiKey: config.apiKey, allowInsecureHttp, baseUrl, catalogUrl, retry: { ...retry }, logLevel };
}

export function resolveDeps(deps: AvatarSessionDeps = {}): ResolvedDeps {
  const g = globalThis as unknown as { fetch?: FetchLike; RTCPeerConnection?: PeerConnectionFactory; document?: DocumentLike; console: LogSink };
  return {
    fetch: deps.fetch ?? (g.fetch ? (input, init) => g.fetch!(input, init) : undefined),
    RTCPeerConnection: deps.RTCPeerConnection ?? g.RTCPeerConnection,
    clock: deps.clock ?? realClock,
    document: deps.document ?? g.document,
    logger: deps.logger ?? g.console,
    deprecations: deps.deprecations ?? processDeprecations,
    requestTimeoutMs: deps.requestTimeoutMs ?? 15_000,
    eventsPollIntervalMs: deps.eventsPollIntervalMs ?? 500,
    iceGatheringTimeoutMs: deps.iceGatheringTimeoutMs ?? 1_000,
    random: deps.random ?? Math.random,
  };
}

/**
 * The default baseUrl is the avatar API root, never the page's own origin (a default there posted the session
 * string to whatever served the page). The spec shows that root only as `{avatar_api_url}`, so there is no value
 * the library could default to: without a configured baseUrl, calls fail with INVALID_CONFIGURATION naming it,
 * before any request.
 */
function defaultBaseUrl(): string | undefined {
  return undefined;
}

/**
 * An absolute http(s) URL. Plain http only to loopback (127.0.0.0/8, ::1, localhost) unless `allowInsecureHttp`:
 * every call carries the session string, which would travel unencrypted (as the Node sdk's SvcClient refuses it).
 */
function checkUrl(field: string, value: unknown, allowInsecureHttp: boolean): string {
  const problem = urlProblem(value, allowInsecureHttp, "the session string every call carries");
  if (problem !== undefined) throw invalidConfiguration(`${field}: ${problem}`);
  return (value as string).replace(/\/+$/, "");
}

/**
 * Why `value` may not be called, or undefined when it may: the one rule for the configured URLs and the ones a server
 * answers (the WHEP URL): an absolute http(s) URL, plain http only to loopback unless `allowInsecureHttp`. `carried`
 * names what would travel unencrypted. The URL is named by its origin, which never holds the userinfo.
 */
export function urlProblem(value: unknown, allowInsecureHttp: boolean, carried: string): string | undefined {
  if (typeof value !== "string") return "expected an http(s) URL";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "expected an absolute http(s) URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "expected an http(s) URL";
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    return (
      `${url.origin} is plain http to a host outside loopback: ${carried} would travel unencrypted. ` +
      "Use https://, or, only on a network you trust, opt in with `allowInsecureHttp: true`"
    );
  }
  return undefined;
}
