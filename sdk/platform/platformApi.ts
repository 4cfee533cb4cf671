/**
 * The shared request function of every api_v3 service: builds the URL and form body (format=1, ks as a
 * form parameter, never a header), sends it through the transport with the action's retry class,
 * maps error objects, validates the response with the contract's schema, and renews an expired
 * session once (INVALID_KS is checked before the action runs, so nothing took effect).
 */
import type { z } from "zod";
import { SvcApiError } from "../errors";
import type { CallOptions, Transport, TransportResponse } from "../transport";
import { isIdempotentAction, isNotFoundAfterRetriedDelete } from "./actionSafety";
import { readBody, type CallLabel } from "./apiResponse";
import { encodeForm, type FormParams } from "./formEncode";
import { validateResponse } from "./validate";

/** Where the ks of a call comes from; renew() replaces a ks the server rejected. */
export interface KsSource {
  ks(options?: CallOptions): Promise<string>;
  renew(rejected: string, options?: CallOptions): Promise<string>;
}

/** "session": the client's managed session; "none": no ks (session.start); {ks}: this exact ks. */
export type CallAuth = "session" | "none" | { ks: string };

export interface CallSpec<S extends z.ZodType> {
  service: string;
  action: string;
  params?: FormParams;
  schema: S;
  auth?: CallAuth;
}

export interface RawSend {
  service: string;
  action: string;
  /** Path after the base url, e.g. "/service/multirequest". */
  path: string;
  params: FormParams;
  idempotent: boolean;
}

export class PlatformApi {
  private sessions: KsSource | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly transport: Transport,
  ) {}

  /** Set once by the client: the session manager needs this api to mint sessions. */
  attachSessions(sessions: KsSource): void {
    this.sessions = sessions;
  }

  async call<S extends z.ZodType>(spec: CallSpec<S>, options: CallOptions = {}): Promise<z.output<S>> {
    const path = `/service/${spec.service}/action/${spec.action}`;
    const send = { service: spec.service, action: spec.action, path, params: spec.params ?? {}, idempotent: isIdempotentAction(spec.action) };
    const body = await this.withKs(
      spec.auth ?? "session",
      options,
      async (ks) => {
        const response = await this.send(send, ks, options);
        const label: CallLabel = { service: spec.service, action: spec.action, requestId: response.requestId };
        try {
          return readBody(response, label);
        } catch (error) {
          if (error instanceof SvcApiError && isNotFoundAfterRetriedDelete(spec.action, response.attempts, error.code)) return null;
          throw error;
        }
      },
      (error) => error instanceof SvcApiError && error.code === "INVALID_KS",
    );
    return validateResponse(spec.schema, body, { service: spec.service, action: spec.action });
  }

  /**
   * Run `fn` with the ks of `auth`; when `rejected(result or error)` says the managed ks was refused,
   * renew it once and run `fn` again.
   */
  async withKs<T>(auth: CallAuth, options: CallOptions, fn: (ks: string | undefined) => Promise<T>, rejected: (error: unknown) => boolean): Promise<T> {
    if (auth === "none") return fn(undefined);
    if (typeof auth === "object") return fn(auth.ks);
    const sessions = this.requireSessions();
    const ks = await sessions.ks(options);
    try {
      return await fn(ks);
    } catch (error) {
      if (!rejected(error)) throw error;
      const fresh = await sessions.renew(ks, options);
      return fn(fresh);
    }
  }

  /** One POST of a form body to the platform. */
  async send(req: RawSend, ks: string | undefined, options: CallOptions): Promise<TransportResponse> {
    const params: FormParams = { format: 1, ...req.params };
    if (ks !== undefined) params.ks = ks;
    return this.transport.request({
      method: "POST",
      url: this.baseUrl + req.path,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: encodeForm(params),
      idempotent: req.idempotent,
      service: req.service,
      action: req.action,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      signal: options.signal,
    });
  }

  private requireSessions(): KsSource {
    if (!this.sessions) throw new Error("PlatformApi: no session source attached");
    return this.sessions;
  }
}
