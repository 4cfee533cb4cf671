export { createTransport, HttpTransport } from "./transport";
export { TRANSPORT_DEFAULTS } from "./options";
export type { CallOptions, Transport, TransportEvent, TransportOptions, TransportRequest, TransportResponse } from "./options";
export { shouldRetry, parseRetryAfter, requestNotSent, mayHaveActed, mayStillAct, RETRY_RULES, type RetryRule } from "./retryPolicy";
export { createRequestGate, type RequestGate } from "./requestGate";
