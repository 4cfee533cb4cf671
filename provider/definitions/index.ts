/**
 * Every resource and every function of the package, each from its one definition. A new function is added to
 * FUNCTIONS and nowhere else. A new resource is its definition file and one entry of RESOURCES; `npm run generate`
 * then writes its classes (dynamic and native), their exports, its field table row, its part of the plugin's schema
 * and of docs/resources.md.
 */
import { appToken } from "./appToken";
import type { ResourceDefinition } from "./define";
import type { FunctionDefinition } from "./defineFunction";
import { emailNotificationTemplate } from "./emailNotificationTemplate";
import { getAppToken } from "./getAppToken";
import { getAppTokens } from "./getAppTokens";
import { getNotificationTemplate } from "./getNotificationTemplate";
import { getSystemTemplates } from "./getSystemTemplates";
import { httpNotificationTemplate } from "./httpNotificationTemplate";

/** The resources by type name (each definition's `type`); the generated classes take their outputs' types from here. */
export const RESOURCES = {
  AppToken: appToken,
  HttpNotificationTemplate: httpNotificationTemplate,
  EmailNotificationTemplate: emailNotificationTemplate,
} as const;

export const DEFINITIONS: readonly ResourceDefinition[] = Object.values(RESOURCES);

export const FUNCTIONS: readonly FunctionDefinition[] = [getAppToken, getAppTokens, getNotificationTemplate, getSystemTemplates];

export { getAppToken, getAppTokens, getNotificationTemplate, getSystemTemplates };
export { appToken, emailNotificationTemplate, httpNotificationTemplate };
