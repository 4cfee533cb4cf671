/**
 * Public entry of the sdk's platform client (`pulumi-svc/sdk`): what a user of the platform needs, nothing more.
 * Internals (the transport, the redaction registry, the form encoder, request schemas) stay importable inside this
 * package by path, but are not part of the public surface (test/sdk/exports.test.ts pins it). No Pulumi import
 * anywhere under sdk/.
 */
export { SvcClient, ClientSessions, type SvcClientOptions } from "./svcClient";
export { AppTokens, type StartAppTokenSessionInput } from "./platform/appTokens";
export { EventNotificationTemplates, EmailNotificationTemplates } from "./platform/eventNotificationTemplates";
export {
  EmailNotificationTemplateListResponse,
  type EmailTemplateFilter,
  type EmailTemplateTypes,
  type EmailTemplateUpdateInput,
  type HttpTemplateTypes,
} from "./platform/templateKinds";
export {
  EmailFormat,
  EmailNotificationTemplate,
  EmailPriority,
  type ContentParameter,
  type EmailRecipient,
  type EmailRecipientsInput,
  type EmailTemplateCloneFields,
} from "../contract/emailTemplates";
export { SessionService, type StartSessionInput } from "./platform/sessionService";
export type { MultiRequestEntry, MultiRequestResult } from "./platform/multirequest";
export { SessionHandle } from "./auth/sessionManager";
export { appTokenHash } from "./auth/tokenHash";
export type { ClientAuth, AdminSecretAuth, AppTokenAuth, KsAuth } from "./auth/credentials";
export { paginate, type Paginated, type Page, type PaginationBounds } from "./core/pagination";
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
  type PlatformErrorCode,
} from "./core/errors";
/** Per-call options and the telemetry events of `onEvent`. */
export type { CallOptions, TransportEvent } from "./transport";
export {
  verifySignature,
  computeSignature,
  createWebhookHandler,
  webhookMiddleware,
  MemoryReplayStore,
  SqliteReplayStore,
  PostgresReplayStore,
  postgresReplaySchema,
  RECOMMENDED_ALGORITHMS,
  type ClaimResult,
  type ReplayOptions,
  type ReplayStore,
  type ReplayStoreOwnership,
  type SqliteReplayStoreOptions,
  type PostgresReplayStoreOptions,
  type WebhookFailureStage,
  type SignatureAlgorithm,
  type VerifyOptions,
  type WebhookOptions,
} from "./webhooks";
export { SIGNATURE_HEADER, SIGNATURE_ALGORITHM_HEADER } from "../contract/webhooks";
export { EVENTS, type EventKey } from "../contract/events";
// The wire contract: the enums, and the response schemas (multirequest entries take them) with their types.
export {
  AppToken,
  AppTokenListResponse,
  AppTokenSession,
  AppTokenStatus,
  EventNotificationTemplate,
  EventNotificationTemplateListResponse,
  EventObjectType,
  EventType,
  HashType,
  HttpMethod,
  Notification,
  OBJECT_TYPES,
  SecureHashingAlgo,
  SessionType,
  TemplateStatus,
  TemplateType,
  type AppTokenAddFields,
  type AppTokenFilter,
  type AppTokenUpdateFields,
  type ErrorCode,
  type HttpMethodName,
  type HttpTemplateCloneFields,
  type HttpTemplateUpdateFields,
  type Pager,
  type SecureHashingAlgoName,
  type TemplateFilter,
} from "../contract/platform";
