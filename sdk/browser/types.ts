/** Public types of the browser library, as the spec's "Client library types" lists them. */
import type { EndReason, TTSLanguage } from "../../contract/avatar";
import type { AvatarError } from "./errors";

export type { EndReason, TTSLanguage };

export const SessionState = { IDLE: "IDLE", CREATING: "CREATING", READY: "READY", ENDED: "ENDED", ERROR: "ERROR" } as const;
export type SessionState = (typeof SessionState)[keyof typeof SessionState];

export const ConnectionState = {
  DISCONNECTED: "DISCONNECTED",
  CONNECTING: "CONNECTING",
  CONNECTED: "CONNECTED",
  FAILED: "FAILED",
  CLOSED: "CLOSED",
} as const;
export type ConnectionState = (typeof ConnectionState)[keyof typeof ConnectionState];

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface RetryConfig {
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  backoffMultiplier: number;
}

export interface AvatarConfig {
  /** A session string (ks) used by createSession. Not needed for initSession. */
  apiKey?: string;
  /** Avatar session API root (`{avatar_api_url}`). Never defaults to the page's origin; required (see docs/avatar.md). */
  baseUrl?: string;
  /** Catalog root; defaults to baseUrl. Kept for compatibility, no method of this library calls it. */
  catalogUrl?: string;
  /** Allow a plain http:// baseUrl (or catalogUrl) to a host outside loopback (default false: the session string would travel unencrypted). */
  allowInsecureHttp?: boolean;
  retryConfig?: RetryConfig;
  logLevel?: LogLevel;
}

export interface CreateSessionOptions {
  visualId?: string;
  voiceId?: string;
  language?: TTSLanguage | (string & {});
  videoContainerId?: string;
  /** @deprecated use visualId; still works and logs a warning once. */
  avatarId?: string;
  /** TTS model id (voiceConfig.modelId). */
  modelId?: string;
  /** Sent as `clientId` in the create body. */
  clientId?: string;
}

export interface InitSessionOptions {
  videoContainerId?: string;
}

/** Extra information given with a stateChange: the end reason when the state is ENDED. */
export interface StateChangeInfo {
  reason?: EndReason;
}

export interface SessionEventMap {
  stateChange: (state: SessionState, info: StateChangeInfo) => void;
  connectionChange: (state: ConnectionState) => void;
  error: (error: AvatarError) => void;
  speakingStart: () => void;
  speakingEnd: () => void;
}
export type SessionEventName = keyof SessionEventMap;
