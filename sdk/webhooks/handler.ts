/**
 * Ready webhook receivers: createWebhookHandler for node:http, webhookMiddleware for Express-style stacks.
 * Nothing a peer does may reject into the void (an unhandled rejection ends a Node process): every path ends in an
 * answer or a closed socket.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { checkWebhookOptions, processWebhook, report, signatureHeadersOf, type WebhookOptions, type WebhookReply } from "./processWebhook";

/** The sender went away (or its connection broke) before the whole body arrived. */
class IncompleteBodyError extends Error {
  constructor(cause?: unknown) {
    super("the request body ended before it was complete", { cause });
    this.name = "IncompleteBodyError";
  }
}

/** `(req, res) => void` for http.createServer: reads the raw body (bounded), verifies, answers. */
export function createWebhookHandler(options: WebhookOptions): (req: IncomingMessage, res: ServerResponse) => void {
  checkWebhookOptions(options);
  return (req, res) => {
    handle(req, res, options).catch((error: unknown) => fail(res, options, error));
  };
}

/**
 * The last resort: an incomplete body is a 400 if anyone is still listening (usually no one: the socket is gone),
 * anything else a 500 reported to onError; when no answer can be written the socket is closed.
 */
function fail(res: ServerResponse, options: WebhookOptions, error: unknown): void {
  const incomplete = error instanceof IncompleteBodyError;
  if (!incomplete) report(options, error, "request");
  try {
    if (!res.headersSent && res.writable && !res.destroyed) {
      send(res, incomplete ? { status: 400, body: { error: "request body incomplete" } } : { status: 500, body: { error: "internal error" } }, true);
      return;
    }
  } catch {
    // Fall through to closing the socket.
  }
  res.destroy();
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
    // An incomplete body is answered here (400 or a closed socket); other errors go to next, and if next throws
    // they are answered here too: nothing is left to reject unhandled.
    const onFailure = (error: unknown): void => {
      if (error instanceof IncompleteBodyError) {
        fail(res, options, error);
        return;
      }
      try {
        next(error);
      } catch (thrown) {
        fail(res, options, thrown);
      }
    };
    const already = Buffer.isBuffer(req.rawBody)
      ? req.rawBody
      : Buffer.isBuffer(req.body)
        ? req.body
        : typeof req.body === "string"
          ? Buffer.from(req.body)
          : undefined;
    if (already) {
      processWebhook(already, signatureHeadersOf(req.headers), options)
        .then((reply) => send(res, reply))
        .catch(onFailure);
      return;
    }
    if (req.body !== undefined && req.readableEnded) {
      next(new Error("webhookMiddleware: the body was already parsed; mount it before JSON parsers or use express.raw()"));
      return;
    }
    handle(req, res, options).catch(onFailure);
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

/**
 * Read the body up to `max` bytes; stops reading (and says so) as soon as it is exceeded. Rejects with
 * IncompleteBodyError when the request errors or closes before its end (a sender that dropped mid-body).
 */
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
    // A settled promise ignores these; before the end they mean the body will never be complete.
    req.on("error", (error) => reject(new IncompleteBodyError(error)));
    req.on("close", () => reject(new IncompleteBodyError()));
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
