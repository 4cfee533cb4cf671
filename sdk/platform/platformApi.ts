/**
 * The shared request function of the api_v3 services that act with the client's session: a PlatformWire call with
 * the managed ks, renewed once when the server rejects it (INVALID_KS is checked before the action runs, so nothing
 * took effect). Built complete, with its session source: there is no object to use before it is ready.
 */
import type { z } from "zod";
import { SvcApiError } from "../core/errors";
import type { CallOptions, TransportResponse } from "../transport";
import type { PlatformWire, RawSend, WireCallSpec } from "./platformWire";

/** Where the ks of a call comes from; renew() replaces a ks the server rejected. */
export interface KsSource {
  ks(options?: CallOptions): Promise<string>;
  renew(rejected: string, options?: CallOptions): Promise<string>;
}

/** What sends the reads when they are coalesced (sdk/platform/readBatcher.ts). */
export interface ReadCoalescer {
  read<S extends z.ZodType>(spec: WireCallSpec<S>, options?: CallOptions): Promise<z.output<S>>;
}

export class PlatformApi {
  private readonly coalescer?: ReadCoalescer;

  constructor(
    readonly wire: PlatformWire,
    private readonly sessions: KsSource,
    /** Makes the coalescer of this api's reads; none: each read is its own call. */
    coalescerFor?: (api: PlatformApi) => ReadCoalescer,
  ) {
    this.coalescer = coalescerFor?.(this);
  }

  /** service.action with the client's session. */
  call<S extends z.ZodType>(spec: WireCallSpec<S>, options: CallOptions = {}): Promise<z.output<S>> {
    return this.withSession(options, (ks) => this.wire.call(spec, ks, options), isInvalidKs);
  }

  /** A `get` of one object: coalesced with the reads made at the same time when a coalescer is given, else a call. */
  read<S extends z.ZodType>(spec: WireCallSpec<S>, options: CallOptions = {}): Promise<z.output<S>> {
    return this.coalescer ? this.coalescer.read(spec, options) : this.call(spec, options);
  }

  /** Run `fn` with the managed ks; when `rejected(error)` says the server refused it, renew it once and run `fn` again. */
  async withSession<T>(options: CallOptions, fn: (ks: string) => Promise<T>, rejected: (error: unknown) => boolean): Promise<T> {
    const ks = await this.sessions.ks(options);
    try {
      return await fn(ks);
    } catch (error) {
      if (!rejected(error)) throw error;
      const fresh = await this.sessions.renew(ks, options);
      return fn(fresh);
    }
  }

  /** One POST of a form body to the platform (multirequest builds its own body). */
  send(req: RawSend, ks: string | undefined, options: CallOptions): Promise<TransportResponse> {
    return this.wire.send(req, ks, options);
  }
}

function isInvalidKs(error: unknown): boolean {
  return error instanceof SvcApiError && error.code === "INVALID_KS";
}
