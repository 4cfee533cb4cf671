/**
 * The webhook receiver, as a function so it can be started by server.ts, embedded in your own app, or driven by
 * a test. POST /hooks goes to the sdk's createWebhookHandler, which reads the raw body, checks X-SVC-SIGNATURE
 * (hex SHA256 of the signing secret followed by the raw body, compared in constant time) and only then parses
 * it: 401 for a bad signature, 400 for a body that is not a notification, 200 once onEvent has resolved.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createWebhookHandler, type Notification, type ReplayOptions } from "pulumi-svc/sdk";

export interface ReceiverOptions {
  /** The template's signSecret (the same value as the stack's webhookSigningSecret). */
  secret: string;
  /** Called with each verified notification; a throw makes the sender retry later (the receiver answers 500). */
  onEvent?: (event: Notification) => void | Promise<void>;
  /** Where log lines go (default console.log). Lines never carry the secret nor the raw signature. */
  log?: (line: string) => void;
  /** The path deliveries are posted to; default /hooks. */
  path?: string;
  /** Replay protection: default in memory (one process); sharedStoreServer.ts passes a PostgresReplayStore. */
  replay?: ReplayOptions;
}

/** One readable line per notification: what happened, to which object, through which template. */
export function describeNotification(event: Notification): string {
  const objectId = typeof event.object.id === "string" || typeof event.object.id === "number" ? String(event.object.id) : "?";
  const template = event.templateSystemName ?? event.templateName;
  return `event ${event.eventType}/${event.eventObjectType} on ${String(event.object.objectType ?? "object")} ${objectId} (template ${event.templateId} ${template}, job ${event.eventNotificationJobId})`;
}

export function createReceiverServer(options: ReceiverOptions): Server {
  const log = options.log ?? ((line: string) => console.log(line));
  const path = options.path ?? "/hooks";
  const hooks = createWebhookHandler({
    secret: options.secret,
    ...(options.replay ? { replay: options.replay } : {}),
    onEvent: async (event) => {
      log(`[webhook] ${describeNotification(event)}`);
      await options.onEvent?.(event);
    },
    // The platform only sees a bare 500 and retries; the details stay here.
    onError: (error) => log(`[webhook] handler failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    if (url.pathname === path) {
      // Log refusals too: a 401 here usually means the template's signSecret and this receiver's secret differ.
      res.on("finish", () => {
        if (res.statusCode !== 200) log(`[webhook] refused a ${req.method} to ${path}: ${res.statusCode}`);
      });
      hooks(req, res);
      return;
    }
    if (url.pathname === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
}
