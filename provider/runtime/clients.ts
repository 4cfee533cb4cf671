/**
 * One sdk client per connection for the life of the provider process: the engine runs one dynamic provider process
 * per deployment, so every resource of an `up` shares one session (a handful of session.start calls, not one per
 * resource) and one keep-alive connection pool.
 */
import { SvcClient } from "../../sdk";
import type { ConnectionInput } from "../schemas/connection";
import { ConnectionError, connectionKey, resolveConnection, type ConfigLookup } from "./connection";

let stackConfig: ConfigLookup = () => undefined;
const clients = new Map<string, SvcClient>();

/** Called from the dynamic provider's configure(req): keeps a lookup of the stack config for this process. */
export function configure(config: { get(key: string): string | undefined }): void {
  stackConfig = (key) => config.get(key);
}

/**
 * What is wrong with the connection this resource would use, before any call (for check, so that `pulumi preview`
 * reports missing stack config); undefined when it resolves. Never includes a secret.
 */
export function connectionProblem(explicit: ConnectionInput | undefined): string | undefined {
  try {
    resolveConnection(explicit, stackConfig);
    return undefined;
  } catch (error) {
    if (error instanceof ConnectionError) return error.message;
    throw error;
  }
}

export function clientFor(explicit: ConnectionInput | undefined): SvcClient {
  const connection = resolveConnection(explicit, stackConfig);
  const key = connectionKey(connection);
  let client = clients.get(key);
  if (!client) {
    const { auth } = connection;
    client = new SvcClient({
      baseUrl: connection.baseUrl,
      partnerId: connection.partnerId,
      timeoutMs: connection.requestTimeoutMs,
      auth:
        "adminSecret" in auth
          ? { adminSecret: auth.adminSecret }
          : "appTokenId" in auth
            ? { appTokenId: auth.appTokenId, appToken: auth.appToken, hashType: auth.hashType }
            : { ks: auth.ks },
    });
    clients.set(key, client);
  }
  return client;
}

/** The overall deadline of one provider operation (each HTTP call also has its own timeout). */
export const OPERATION_DEADLINE_MS = 120_000;

export function operationSignal(): AbortSignal {
  return AbortSignal.timeout(OPERATION_DEADLINE_MS);
}

/** For tests: forget cached clients and config. */
export async function resetForTests(): Promise<void> {
  await Promise.all([...clients.values()].map((c) => c.close()));
  clients.clear();
  stackConfig = () => undefined;
}
