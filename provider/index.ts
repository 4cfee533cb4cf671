/** pulumi-svc: Pulumi resources for the video platform. */
export { AppToken, type AppTokenArgs } from "./resources/appToken";
export { HttpNotificationTemplate, type HttpNotificationTemplateArgs } from "./resources/httpNotificationTemplate";
export type { ConnectionArgs } from "./resources/connectionArgs";
export { TEMPLATE_EVENTS, type TemplateEvent } from "./schemas/templateEvents";
