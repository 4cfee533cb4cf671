/** Ready webhook receivers: createWebhookHandler for node:http, webhookMiddleware for Express-style stacks. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { checkWebhookOptions, processWebhook, signatureHeadersOf, type WebhookOptions, type WebhookReply } from "./processWebhook";

/** `(req, res) => void` for http.createServer: reads the raw body (bounded), verifies, answers. */
export function createWebhookHandler(options: WebhookOptions): (req: IncomingMessage, res: ServerResponse) => void {
  checkWebhookOptions(options);
  return (req, res) => {
    void handle(req, res, options);
  };
}

type NextFunction = (error?: unknown) => void;
type MaybeParsedRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

/**
 * Express-style `(req, res, next)`. Mount it before any JSON body parser, or behind `express.raw()`:
 * the signature covers the raw bytes, so a body that was already parsed into an object cannot be checked
 * (next(error) is called then, a configuration error).
 */
export function webhookMiddleware(options: WebhookOptions): (req: IncomingMessage, res: ServerResponse, next: NextFunction) => void {
  checkWebhookOptions(options);
  return (req: MaybeParsedRequest, res, next) => {
    const already = Buffer.isBuffer(req.rawBody)
      ? req.rawBody
      : Buffer.isBuffer(req.body)
        ? req.body
        : typeof req.body === "string"
          ? Buffer.from(req.body)
          : undefined;
    if (already) {
      void processWebhook(already, signatureHeadersOf(req.headers), options).then((reply) => send(res, reply), next);
      return;
    }
    if (req.body !== undefined && req.readableEnded) {
      next(new Error("webhookMiddleware: the body was already parsed; mount it before JSON parsers or use express.raw()"));
      return;
    }
    void handle(req, res, options).catch(next);
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, options: WebhookOptions): Promise<void> {
  if (req.method !== "POST") {
    res.setHeader("allow", "POST");
    send(res, { status: 405, body: { error: "method not allowed" } });
    return;
  }
  const raw = await readBounded(req, checkWebhookOptions(options).maxBodyBytes);
  if (raw === "too-large") {
    send(res, { status: 413, body: { error: "payload too large" } }, true);
    return;
  }
  send(res, await processWebhook(raw, signatureHeadersOf(req.headers), options));
}

/** Read the body up to `max` bytes; stops reading (and says so) as soon as it is exceeded. */
function readBounded(req: IncomingMessage, max: number): Promise<Buffer | "too-large"> {
  if (Number(req.headers["content-length"] ?? 0) > max) return Promise.resolve("too-large");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > max) {
        req.off("data", onData);
        resolve("too-large");
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, reply: WebhookReply, closeConnection = false): void {
  if (res.headersSent) return;
  res.statusCode = reply.status;
  res.setHeader("content-type", "application/json");
  // After refusing an oversized body the rest of it is not read; closing avoids a stuck keep-alive socket.
  if (closeConnection) res.setHeader("connection", "close");
  res.end(JSON.stringify(reply.body));
}
