/** Every resource of the package, each from its one definition. A new resource is added here and nowhere else. */
import { appToken } from "./appToken";
import type { ResourceDefinition } from "./define";
import { emailNotificationTemplate } from "./emailNotificationTemplate";
import { httpNotificationTemplate } from "./httpNotificationTemplate";

export const DEFINITIONS: readonly ResourceDefinition[] = [appToken, httpNotificationTemplate, emailNotificationTemplate];

export { appToken, emailNotificationTemplate, httpNotificationTemplate };
