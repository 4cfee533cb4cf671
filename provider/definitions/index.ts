/** Every resource of the package, each from its one definition. A new resource is added here and nowhere else. */
import { appToken } from "./appToken";
import type { ResourceDefinition } from "./define";
import { httpNotificationTemplate } from "./httpNotificationTemplate";

export const DEFINITIONS: readonly ResourceDefinition[] = [appToken, httpNotificationTemplate];

export { appToken, httpNotificationTemplate };
