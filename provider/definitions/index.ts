/**
 * Every resource of the package, each from its one definition. A new resource is listed here, and also needs its
 * dynamic class (provider/resources/), its native class (provider/native/index.ts) and its export (provider/index.ts).
 */
import { appToken } from "./appToken";
import type { ResourceDefinition } from "./define";
import { emailNotificationTemplate } from "./emailNotificationTemplate";
import { httpNotificationTemplate } from "./httpNotificationTemplate";

export const DEFINITIONS: readonly ResourceDefinition[] = [appToken, httpNotificationTemplate, emailNotificationTemplate];

export { appToken, emailNotificationTemplate, httpNotificationTemplate };
