/** Public entry of the sdk's platform client. No Pulumi import anywhere under sdk/. */
export { SvcClient, ClientSessions, type SvcClientOptions } from "./platform/svcClient";
export { AppTokens, type StartAppTokenSessionInput } from "./platform/appTokens";
export { EventNotificationTemplates } from "./platform/eventNotificationTemplates";
export { SessionService, type StartSessionInput } from "./platform/sessionService";
export type { MultiRequestEntry, MultiRequestResult } from "./platform/multirequest";
export { encodeForm, type FormParams, type FormValue } from "./platform/formEncode";
export { SessionHandle } from "./auth/sessionManager";
export { appTokenHash } from "./auth/tokenHash";
export type { ClientAuth, AdminSecretAuth, AppTokenAuth, KsAuth } from "./auth/credentials";
export { paginate, type Paginated, type Page } from "./pagination";
export {
  SvcError,
  SvcApiError,
  SvcValidationError,
  SvcResponseError,
  SvcHttpError,
  SvcNetworkError,
  SvcTimeoutError,
  SvcAbortError,
  SvcSessionError,
  type SvcErrorCode,
} from "./errors";
export { redact, redactValue, registerSecret } from "./redact";
export {
  createTransport,
  TRANSPORT_DEFAULTS,
  RETRY_RULES,
  mayHaveActed,
  type RetryRule,
  type CallOptions,
  type Transport,
  type TransportEvent,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
} from "./transport";
export { verifySignature, computeSignature, createWebhookHandler, webhookMiddleware, type WebhookOptions } from "./webhooks";
export * from "./contract/platform";
