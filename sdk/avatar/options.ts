/** Construction options shared by the two avatar backend clients. */
import { insecureHttpProblem } from "../../contract/baseUrl";
import { createTransport, type Transport, type TransportOptions } from "../transport";
import { SvcValidationError } from "../core/errors";
import { registerSecret } from "../core/redact";

/** A session string, or a function that yields a current one (e.g. from the sdk's session manager). */
export type KsSource = string | (() => string | Promise<string>);

export interface AvatarClientOptions {
  /** API root: {avatar_api_url} or {avatar_video_url}. Plain http only to loopback, unless allowInsecureHttp. */
  baseUrl: string;
  /** Allow a plain http:// baseUrl to a host outside loopback; default false: the session string would travel unencrypted. */
  allowInsecureHttp?: boolean;
  /** The session string used for KS/Bearer auth when a call does not pass its own. */
  ks?: KsSource;
  /** Reuse a transport (shared with SvcClient); otherwise one is created and closed by close(). */
  transport?: Transport;
  transportOptions?: TransportOptions;
}

export interface ResolvedClient {
  baseUrl: string;
  transport: Transport;
  ownsTransport: boolean;
  ks: KsSource | undefined;
}

export function resolveClient(options: AvatarClientOptions, field: string): ResolvedClient {
  let url: URL;
  try {
    url = new URL(options?.baseUrl);
  } catch {
    throw new SvcValidationError(`${field}: expected an absolute http(s) URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new SvcValidationError(`${field}: expected an http(s) URL`);
  const insecure = insecureHttpProblem(options.baseUrl, options.allowInsecureHttp === true, "the option `allowInsecureHttp: true`");
  if (insecure) throw new SvcValidationError(`${field}: ${insecure}`);
  if (typeof options.ks === "string") registerSecret(options.ks);
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    transport: options.transport ?? createTransport(options.transportOptions),
    ownsTransport: !options.transport,
    ks: options.ks,
  };
}

export async function ksOf(given: KsSource | undefined, fallback: KsSource | undefined, op: string): Promise<string> {
  const source = given ?? fallback;
  const ks = typeof source === "function" ? await source() : source;
  if (typeof ks !== "string" || ks === "") throw new SvcValidationError(`${op}: a session string (ks) is required`);
  registerSecret(ks);
  return ks;
}
