export { verifySignature, computeSignature, type SignatureAlgorithm, type VerifyOptions } from "./verifySignature";
export { MemoryReplayStore, REPLAY_DEFAULTS, type ReplayStore } from "./replayStore";
export { createWebhookHandler, webhookMiddleware } from "./handler";
export {
  processWebhook,
  signatureHeadersOf,
  WEBHOOK_DEFAULTS,
  type ReplayOptions,
  type SignatureHeaders,
  type WebhookOptions,
  type WebhookReply,
} from "./processWebhook";
