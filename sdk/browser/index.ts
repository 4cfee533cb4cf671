/** The browser library (bundled by scripts/build-client-bundle.mjs into dist/client/svc-avatar-session.js). */
export { SvcAvatarSession } from "./SvcAvatarSession";
export { AvatarError, AvatarErrorCode } from "./errors";
export { ConnectionState, SessionState } from "./types";
export type {
  AvatarConfig,
  CreateSessionOptions,
  EndReason,
  InitSessionOptions,
  LogLevel,
  RetryConfig,
  SessionEventMap,
  SessionEventName,
  StateChangeInfo,
  TTSLanguage,
} from "./types";
export type { AvatarSessionDeps, DocumentLike, VideoElementLike } from "./config";
export type { Clock } from "./clock";
export type { PeerConnectionFactory, PeerConnectionLike } from "./rtc";
export { step as sessionMachineStep, initialMachineState, isAllowed } from "./sessionMachine";
export type { MachineEvent, MachineState, Effect } from "./sessionMachine";
export { DEFAULT_RETRY, backoffDelayMs } from "./retry";
