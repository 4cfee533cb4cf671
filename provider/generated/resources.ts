// Generated from the resource definitions by `npm run generate`: do not edit.
/** The dynamic resource classes of `pulumi-svc` and their Args. */
export { AppToken, type AppTokenArgs } from "./appToken";
export { HttpNotificationTemplate, type HttpNotificationTemplateArgs } from "./httpNotificationTemplate";
export { EmailNotificationTemplate, type EmailNotificationTemplateArgs } from "./emailNotificationTemplate";
export type { EmailRecipientArgs, ContentParameterArgs } from "./inputTypes";
export type { ConnectionArgs } from "../resources/connectionArgs";
