/**
 * Runs the receiver: WEBHOOK_SIGNING_SECRET (required, the template's signSecret), PORT (default 4020),
 * HOST (default 127.0.0.1). Build and start it from the repo root:
 *   npx tsc -p examples/webhook-receiver && npx node examples/webhook-receiver/dist/server.js
 */
import type { AddressInfo } from "node:net";
import { createReceiverServer } from "./receiver";

const secret = process.env.WEBHOOK_SIGNING_SECRET ?? "";
if (secret.length < 16) {
  console.error("WEBHOOK_SIGNING_SECRET must be set to the template's signing secret (at least 16 characters)");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4020);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number (0-65535), got "${process.env.PORT}"`);
  process.exit(2);
}
const host = process.env.HOST ?? "127.0.0.1";

const server = createReceiverServer({ secret });
server.listen(port, host, () => {
  const { port: actual } = server.address() as AddressInfo;
  console.log(`webhook receiver listening on http://${host}:${actual}/hooks (Ctrl+C to stop)`);
});

const stop = (): void => {
  server.close(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
