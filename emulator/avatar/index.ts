export { createAvatarApiRoutes } from "./avatarApiRoutes";
export { createAvatarVideoRoutes } from "./avatarVideoRoutes";
export { avatarStateOf, CONFIGURATION_CHECKS } from "./state";
export type { AvatarEmulatorContext, AvatarKsInfo, AvatarRouteOptions } from "./context";
