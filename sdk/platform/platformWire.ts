/**
 * One api_v3 call on the wire, with the ks it is given (or none): builds the URL and form body (format=1, ks as a
 * form parameter, never a header), sends it through the transport with the action's retry class, maps error
 * objects and validates the response with the contract's schema. It knows nothing of managed sessions: the calls
 * that make sessions (session.start, startWidgetSession, appToken.startSession) run on it before any session
 * exists, and PlatformApi adds the managed session on top.
 */
import type { z } from "zod";
import { SvcApiError } from "../core/errors";
import type { CallOptions, HttpTransport, TransportResponse } from "../transport";
import { isIdempotentAction, isNotFoundAfterRetriedDelete } from "./actionSafety";
import { type CallLabel, readBody } from "./apiResponse";
import { encodeForm, type FormParams } from "./formEncode";
import { validateResponse } from "./validate";

export interface WireCallSpec<S extends z.ZodType> {
  service: string;
  action: string;
  params?: FormParams;
  schema: S;
  /** Told the size of the answer in bytes (the pager bounds a list by the bytes it read). */
  onAnswerBytes?: (bytes: number) => void;
}

export interface RawSend {
  service: string;
  action: string;
  /** Path after the base url, e.g. "/service/multirequest". */
  path: string;
  params: FormParams;
  idempotent: boolean;
}

export class PlatformWire {
  constructor(
    /** The api_v3 root without a trailing slash (see contract/baseUrl.ts). */
    readonly baseUrl: string,
    private readonly transport: HttpTransport,
  ) {}

  /** service.action with `ks` (undefined: no ks), its answer read and validated. */
  async call<S extends z.ZodType>(spec: WireCallSpec<S>, ks: string | undefined, options: CallOptions = {}): Promise<z.output<S>> {
    const send: RawSend = {
      service: spec.service,
      action: spec.action,
      path: `/service/${spec.service}/action/${spec.action}`,
      params: spec.params ?? {},
      idempotent: isIdempotentAction(spec.action),
    };
    const response = await this.send(send, ks, options);
    spec.onAnswerBytes?.(Buffer.byteLength(response.body));
    const label: CallLabel = { service: spec.service, action: spec.action, requestId: response.requestId };
    let body: unknown;
    try {
      body = readBody(response, label);
    } catch (error) {
      if (!(error instanceof SvcApiError && isNotFoundAfterRetriedDelete(spec.action, response.attempts, error.code))) throw error;
      body = null;
    }
    return validateResponse(spec.schema, body, { service: spec.service, action: spec.action });
  }

  /** One POST of a form body to the platform. */
  send(req: RawSend, ks: string | undefined, options: CallOptions): Promise<TransportResponse> {
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
}
