/** Backend clients of the avatar APIs (Node; on the sdk transport). The browser library is sdk/browser. */
export { AvatarSessionApi, type AvatarSessionHandle, type CreateAvatarSessionInput } from "./avatarSessions";
export { AvatarVideoApi, type ConfigurationReport, type ListInput } from "./avatarVideo";
export { AvatarApiError, type AvatarApiErrorCode } from "./errors";
export type { AvatarClientOptions, KsSource } from "./options";
// The avatar wire contract a caller sees: limits, languages, end reasons and the response shapes.
export {
  AVATAR_PATHS,
  EndReason,
  IDLE_TIMEOUT_MS,
  KEEP_ALIVE_INTERVAL_MS,
  SOURCE_ONLY_CHECK,
  TTS_LANGUAGES,
  TTSLanguage,
  type AvatarOperation,
  type AvatarRecord,
  type AvatarVideo,
  type CheckConfigurationResponse,
  type ConfigurationCheck,
  type InitClientResponse,
  type SayResponse,
  type SayTextRequest,
  type SessionEvent,
  type TurnServer,
  type VoiceConfig,
} from "../../contract/avatar";
