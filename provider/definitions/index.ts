/**
 * Every resource and every function of the package, each from its one definition. A new function is added here and
 * nowhere else; a new resource is listed here, and also needs its dynamic class (provider/resources/), its native
 * class (provider/native/index.ts) and its export (provider/index.ts).
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

export const DEFINITIONS: readonly ResourceDefinition[] = [appToken, httpNotificationTemplate, emailNotificationTemplate];

export const FUNCTIONS: readonly FunctionDefinition[] = [getAppToken, getAppTokens, getNotificationTemplate, getSystemTemplates];

export { getAppToken, getAppTokens, getNotificationTemplate, getSystemTemplates };
export { appToken, emailNotificationTemplate, httpNotificationTemplate };
