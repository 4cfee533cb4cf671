/**
 * The receiver for several processes or hosts behind one URL: the same server as server.ts, with its replay store
 * on a PostgreSQL every receiver shares (PostgresReplayStore; `npm install pg`). A delivery is then handled by one
 * receiver at a time, and one that dies mid-callback holds the event only for the lease: the platform's next
 * attempt is handled by another receiver. Delivery is at least once, so make the work idempotent by the event's
 * job id (below). Environment: DATABASE_URL (postgres://user@host/db; the password in it or in PGPASSWORD),
 * WEBHOOK_SIGNING_SECRET, PORT (default 4020), HOST (default 127.0.0.1). From the repo root:
 *   npx tsc -p examples/webhook-receiver && npx node examples/webhook-receiver/dist/sharedStoreServer.js
 */
import type { AddressInfo } from "node:net";
import { PostgresReplayStore } from "pulumi-svc/sdk";
import { createReceiverServer } from "./receiver";

const secret = process.env.WEBHOOK_SIGNING_SECRET ?? "";
const databaseUrl = process.env.DATABASE_URL ?? "";
if (secret.length < 16 || !databaseUrl.startsWith("postgres")) {
  console.error("set WEBHOOK_SIGNING_SECRET (the template's signing secret, 16+ characters) and DATABASE_URL (postgres://...)");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4020);
const host = process.env.HOST ?? "127.0.0.1";

// Makes its table (webhook_replay) on first use; docs/sdk.md "Receivers at scale" has the schema to make by hand.
const store = new PostgresReplayStore({ connectionString: databaseUrl, onError: (error) => console.error(`[replay store] ${String(error)}`) });

const server = createReceiverServer({
  secret,
  // Keep the lease above your slowest callback: an attempt still running when it lapses can be overlapped.
  replay: { store, leaseMs: 30_000 },
  onEvent: async (event) => {
    // Your work, idempotent by the job id: the same id can come twice if a receiver died after the work and before
    // the store recorded it, e.g. INSERT INTO orders_seen (job_id, ...) VALUES ($1, ...) ON CONFLICT (job_id) DO NOTHING.
    void event.eventNotificationJobId;
  },
});
server.listen(port, host, () => {
  const { port: actual } = server.address() as AddressInfo;
  console.log(`webhook receiver (shared replay store) listening on http://${host}:${actual}/hooks`);
});

const stop = (): void => {
  server.close(() => void store.close().then(() => process.exit(0)));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
