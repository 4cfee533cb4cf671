/**
 * The control API under /_emulator (local only, no auth: it is the emulator's own test hook, like a
 * LocalStack endpoint): account info, extra accounts, event triggers, the delivery log, the email log and mailbox
 * (emailRoutes.ts), faults and stats.
 */
import { jobHead, logFilterOf, waitUntilIdle } from "./deliveryLogQuery";
import { Hono } from "hono";
import { z } from "zod";
import { describeIssues } from "../../contract/issues";
import type { EmulatorContext } from "../context/emulatorContext";
import { HttpError } from "../shared/errors";
import { createEmailControlRoutes } from "./emailRoutes";
import { createPartnerTrafficRoutes } from "./partnerTrafficRoutes";
import { EVENT_KEYS, isEventKey, sampleObject } from "../events/catalog";
import { limitBody, MAX_BODY_BYTES } from "../middleware/bodyLimits";
import { FaultConfig } from "../middleware/faults";
import { featuresOf, PARTNER_FEATURES, setFeature } from "../store/partnerFeatures";
import type { DeliveryRow } from "../store/store";

const TriggerBody = z.object({
  event: z.string(),
  object: z.record(z.string(), z.unknown()).optional(),
  partnerId: z.number().int().optional(),
});

async function jsonBody(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "body must be JSON");
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new HttpError(400, describeIssues(r.error.issues, { input: value }));
  return r.data;
}

/** The delivery log entry as the control API shows it (payload parsed; the signature is not shown). */
export function deliveryView(d: DeliveryRow): Record<string, unknown> {
  const payload = JSON.parse(d.payload) as Record<string, unknown>;
  return {
    ...jobHead(d),
    url: d.url,
    state: d.state,
    delivered: d.state === "delivered",
    attempts: d.attempts,
    statusCodes: d.attempts.map((a) => a.status ?? null),
    payload,
    createdAtMs: d.createdAt,
    updatedAtMs: d.updatedAt,
  };
}

export function createControlRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();
  app.use("*", limitBody(MAX_BODY_BYTES.control, "the control API"));

  app.get("/health", (c) => c.json({ ok: true }));

  /** The seeded account, credential included: it is the emulator's own local dev key (the CLI prints it too). */
  app.get("/account", (c) => c.json({ partnerId: ctx.partner.partnerId, adminSecret: ctx.partner.adminSecret }));

  app.post("/partners", async (c) => {
    const body = parse(z.object({ adminSecret: z.string().min(8).optional() }), await jsonBody(c.req.raw));
    const p = ctx.createPartner(body.adminSecret);
    return c.json({ partnerId: p.id, adminSecret: p.adminSecret }, 201);
  });

  /** Plugin permissions of an account (all on unless switched off): `{"eventNotification": false}` switches one off. */
  const partnerOf = (idText: string): number => {
    const id = Number(idText);
    if (!ctx.store.getPartner(id)) throw new HttpError(404, `no account ${idText}`);
    return id;
  };
  app.get("/partners/:id/features", (c) => c.json(featuresOf(ctx.store, partnerOf(c.req.param("id")))));
  app.post("/partners/:id/features", async (c) => {
    const id = partnerOf(c.req.param("id"));
    const body = parse(z.partialRecord(z.enum(PARTNER_FEATURES), z.boolean()), await jsonBody(c.req.raw));
    for (const [feature, enabled] of Object.entries(body)) setFeature(ctx.store, id, feature as (typeof PARTNER_FEATURES)[number], enabled === true);
    return c.json(featuresOf(ctx.store, id));
  });

  app.get("/events", (c) => c.json({ events: EVENT_KEYS }));

  app.post("/trigger", async (c) => {
    const body = parse(TriggerBody, await jsonBody(c.req.raw));
    if (!isEventKey(body.event)) throw new HttpError(400, `unknown event "${body.event}"; expected one of ${EVENT_KEYS.join(", ")}`);
    const partnerId = body.partnerId ?? ctx.partner.partnerId;
    if (!ctx.store.getPartner(partnerId)) throw new HttpError(404, `no account ${partnerId}`);
    const object = body.object ?? sampleObject(body.event, partnerId, Math.floor(ctx.now() / 1000));
    return c.json(ctx.events.raise(partnerId, body.event, object), 202);
  });

  app.get("/deliveries", (c) => {
    return c.json({ deliveries: ctx.store.listDeliveries(logFilterOf(c.req.query())).map(deliveryView) });
  });

  /** Waits until no delivery is scheduled or running (bounded by timeoutMs, default 10 s). */
  app.post("/deliveries/wait", async (c) => {
    const idle = await waitUntilIdle(() => ctx.deliverer.idle(), c.req.query("timeoutMs"));
    return c.json({ idle, pending: ctx.store.listDeliveries({ state: "pending" }).length });
  });

  // Email templates: /emails (the email delivery log), /emails/wait, /mailbox (what the mail sink received).
  app.route("/", createEmailControlRoutes(ctx));

  // Per-account traffic and faults aimed at one account: /traffic, /partners/:id/faults.
  app.route("/", createPartnerTrafficRoutes(ctx));

  app.get("/faults", (c) => c.json(ctx.faults.get()));
  app.post("/faults", async (c) => {
    ctx.faults.set(parse(FaultConfig, await jsonBody(c.req.raw)));
    return c.json(ctx.faults.get());
  });
  app.delete("/faults", (c) => {
    ctx.faults.set({});
    return c.json(ctx.faults.get());
  });

  app.get("/stats", (c) => c.json(ctx.stats.snapshot()));
  app.post("/stats/reset", (c) => {
    ctx.stats.reset();
    return c.json({});
  });

  return app;
}
