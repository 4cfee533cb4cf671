/** Backend clients of the avatar APIs (Node; on the sdk transport). The browser library is sdk/client. */
export { AvatarSessionApi, type AvatarSessionHandle, type CreateAvatarSessionInput } from "./avatarSessions";
export { AvatarVideoApi, type ConfigurationReport, type ListInput } from "./avatarVideo";
export { AvatarApiError, avatarErrorFromStatus, type AvatarApiErrorCode } from "./errors";
export type { AvatarClientOptions, KsSource } from "./options";
export * from "../contract/avatar";
