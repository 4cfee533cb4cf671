/**
 * What the dynamic provider runtime (provider/runtime/index.ts) is, made fresh for a test: a provider process of its
 * own and one handler set per resource running in it. A test configures it (`session.configure`), cancels it
 * (`session.cancel()`) and closes it (`session.close()`) without touching any other test's.
 */
import { ProviderProcess, type ProviderProcessOptions } from "../../provider/core/providerProcess";
import { appToken, emailNotificationTemplate, httpNotificationTemplate } from "../../provider/definitions";
import { handlersFor, type ResourceHandlers } from "../../provider/runtime/handlers";

export interface ProviderRuntime {
  session: ProviderProcess;
  appToken: ResourceHandlers;
  httpNotificationTemplate: ResourceHandlers;
  emailNotificationTemplate: ResourceHandlers;
}

/** Configures `session` as a stack whose config names the emulator's seeded account (baseUrl, partnerId, admin secret). */
export function configureForEmulator(session: ProviderProcess, emulator: { baseUrl: string; partnerId: number; adminSecret: string }): void {
  const values: Record<string, string> = {
    "svc:baseUrl": emulator.baseUrl,
    "svc:partnerId": String(emulator.partnerId),
    "svc:adminSecret": emulator.adminSecret,
  };
  session.configure({ get: (key) => values[key] });
}

export function providerRuntime(options?: ProviderProcessOptions): ProviderRuntime {
  const session = new ProviderProcess(options);
  return {
    session,
    appToken: handlersFor(appToken, session),
    httpNotificationTemplate: handlersFor(httpNotificationTemplate, session),
    emailNotificationTemplate: handlersFor(emailNotificationTemplate, session),
  };
}
