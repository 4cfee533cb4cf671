export { verifySignature, computeSignature } from "./verifySignature";
export { createWebhookHandler, webhookMiddleware } from "./handler";
export { processWebhook, WEBHOOK_DEFAULTS, type WebhookOptions, type WebhookReply } from "./processWebhook";
