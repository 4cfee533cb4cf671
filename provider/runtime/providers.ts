// Generated from the resource definitions by `npm run generate`: do not edit.
/**
 * The dynamic providers of the runtime, one per resource: the names stored shims call, which never change. Each
 * is the handlers of its definition, run in the process's provider process (session.ts).
 */
import { RESOURCES } from "../definitions";
import { DefinitionHandlers } from "./handlers";
import { session } from "./session";

/** The dynamic provider of AppToken (shims call `runtime.appToken.<method>`). */
export const appToken = new DefinitionHandlers(RESOURCES.AppToken, session);

/** The dynamic provider of HttpNotificationTemplate (shims call `runtime.httpNotificationTemplate.<method>`). */
export const httpNotificationTemplate = new DefinitionHandlers(RESOURCES.HttpNotificationTemplate, session);

/** The dynamic provider of EmailNotificationTemplate (shims call `runtime.emailNotificationTemplate.<method>`). */
export const emailNotificationTemplate = new DefinitionHandlers(RESOURCES.EmailNotificationTemplate, session);
