/**
 * The two parts of undici the transport uses, `Agent` and `request`, loaded from their own files instead of undici's
 * index. The index loads all of undici (fetch, WebSocket, EventSource, the cache, mock and proxy agents: 110
 * modules, about 100 ms of CPU), and the engine starts a new dynamic provider process, which loads the sdk, for
 * every `pulumi up`, `preview`, `refresh` and `destroy`; these two need 25 modules (about 30 ms). See docs/bench.md.
 * undici is pinned to an exact version (package.json); test/sdk/undiciParts.test.ts checks that these are the very
 * objects undici's index exports, so an upgrade that moves them fails there, not in a user's deployment.
 */
import type { Agent as AgentClass, Dispatcher } from "undici";

export const Agent = require("undici/lib/dispatcher/agent.js") as typeof AgentClass;
const apiRequest = require("undici/lib/api/api-request.js") as (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const { parseURL } = require("undici/lib/core/util.js") as { parseURL(url: string): URL };

/** What undici's `request(url, { dispatcher, ... })` does with a dispatcher given (undici's index, makeDispatcher). */
export function request(url: string, opts: Omit<Dispatcher.RequestOptions, "origin" | "path"> & { dispatcher: Dispatcher }): Promise<Dispatcher.ResponseData> {
  const parsed = parseURL(url);
  const { dispatcher, ...rest } = opts;
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: opts.method || (opts.body ? "PUT" : "GET"),
  });
}
