export { verifySignature, computeSignature, RECOMMENDED_ALGORITHMS, type SignatureAlgorithm, type VerifyOptions } from "./verifySignature";
export { MemoryReplayStore, REPLAY_DEFAULTS, type ClaimResult, type ReplayStore, type ReplayStoreOwnership } from "./replayStore";
export { SqliteReplayStore, type SqliteReplayStoreOptions } from "./sqliteReplayStore";
export { PostgresReplayStore, postgresReplaySchema, type PostgresReplayStoreOptions } from "./postgresReplayStore";
export { createWebhookHandler, webhookMiddleware } from "./handler";
export {
  processWebhook,
  signatureHeadersOf,
  WEBHOOK_DEFAULTS,
  type ReplayOptions,
  type SignatureHeaders,
  type WebhookFailureStage,
  type WebhookOptions,
  type WebhookReply,
} from "./processWebhook";
