export { verifySignature, computeSignature, type SignatureAlgorithm } from "./verifySignature";
export { createWebhookHandler, webhookMiddleware } from "./handler";
export { processWebhook, signatureHeadersOf, WEBHOOK_DEFAULTS, type SignatureHeaders, type WebhookOptions, type WebhookReply } from "./processWebhook";
