/**
 * The two parts of undici the transport uses, `Agent` and `request`, from undici's public index, loaded at the first
 * agent made, not with the sdk. The index loads all of undici (fetch, WebSocket, the cache, mock and proxy agents:
 * about 35 ms of CPU and 7 MiB bundled, 70 ms from node_modules): a plugin process that answers only Configure,
 * Check and Diff, or a dynamic provider process of a `preview` that calls nothing, never pays it (docs/bench.md,
 * "undici's public API"). Only undici's public API: an upgrade that moves its files cannot break this.
 */
import type * as Undici from "undici";
import type { Agent as AgentClass, Dispatcher } from "undici";

let loaded: typeof Undici | undefined;

/** undici's index, required once, at the first use. */
function undici(): typeof Undici {
  loaded ??= require("undici") as typeof Undici;
  return loaded;
}

/** `new Agent(options)` of undici. */
export function createAgent(options: AgentClass.Options): AgentClass {
  return new (undici().Agent)(options);
}

/** undici's `request(url, options)`. */
export function request(url: string, opts: Omit<Dispatcher.RequestOptions, "origin" | "path"> & { dispatcher: Dispatcher }): Promise<Dispatcher.ResponseData> {
  return undici().request(url, opts);
}
