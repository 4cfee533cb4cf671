/**
 * Which function answers `service.action`. The services are plain tables of named functions (for example
 * APP_TOKEN_SERVICE in emulator/platform/appToken.ts, listed in app.ts platformServices), so a reader goes from a
 * call to its handler with go-to-definition. Names match case-insensitively, as on the real service.
 */
import type { ActionHandler, ServiceDefinition } from "./call";

export interface FoundAction {
  /** The service's canonical name, when it exists. */
  service?: string;
  /** The action's canonical name and its handler, when it exists. */
  action?: string;
  handler?: ActionHandler;
}

export function findAction(services: readonly ServiceDefinition[], service: string, action: string): FoundAction {
  const definition = services.find((candidate) => sameName(candidate.name, service));
  if (!definition) return {};
  const name = Object.keys(definition.actions).find((candidate) => sameName(candidate, action));
  return name ? { service: definition.name, action: name, handler: definition.actions[name] } : { service: definition.name };
}

function sameName(canonical: string, asked: string): boolean {
  return canonical === asked || canonical.toLowerCase() === asked.toLowerCase();
}
