/**
 * What the dynamic provider runtime (provider/runtime/index.ts) is, made fresh for a test: a provider session of its
 * own and one handler set per resource kind running in it. A test configures it (`session.configure`), cancels it
 * (`session.cancel()`) and closes it (`session.close()`) without touching any other test's.
 */
import { ProviderSession, type ProviderSessionOptions } from "../../provider/core/providerSession";
import { appToken, emailNotificationTemplate, httpNotificationTemplate } from "../../provider/definitions";
import { handlersFor, type ResourceHandlers } from "../../provider/runtime/handlers";

export interface ProviderRuntime {
  session: ProviderSession;
  appToken: ResourceHandlers;
  httpNotificationTemplate: ResourceHandlers;
  emailNotificationTemplate: ResourceHandlers;
}

export function providerRuntime(options?: ProviderSessionOptions): ProviderRuntime {
  const session = new ProviderSession(options);
  return {
    session,
    appToken: handlersFor(appToken, session),
    httpNotificationTemplate: handlersFor(httpNotificationTemplate, session),
    emailNotificationTemplate: handlersFor(emailNotificationTemplate, session),
  };
}
