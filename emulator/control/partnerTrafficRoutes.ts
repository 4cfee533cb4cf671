/**
 * Control API for per-account traffic: `GET /traffic` (calls in flight, peak in flight and calls per partner since the
 * last reset, and the peak of all partners together), `POST /traffic/reset`, and faults aimed at one account: `GET|POST|DELETE /partners/:id/faults` (the
 * body is the same as `/faults`).
 */
import { Hono } from "hono";
import { describeIssues } from "../../contract/issues";
import type { EmulatorContext } from "../context/emulatorContext";
import { HttpError } from "../shared/errors";
import { FaultConfig } from "../middleware/faults";

export function createPartnerTrafficRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();
  const partnerOf = (idText: string): number => {
    const id = Number(idText);
    if (!ctx.store.getPartner(id)) throw new HttpError(404, `no account ${idText}`);
    return id;
  };

  app.get("/traffic", (c) => c.json({ partners: ctx.traffic.snapshot(), peakInFlightAllPartners: ctx.traffic.peakInFlightAll }));
  app.post("/traffic/reset", (c) => {
    ctx.traffic.reset();
    return c.json({});
  });

  app.get("/partners/:id/faults", (c) => c.json(ctx.traffic.faultsSnapshot()[String(partnerOf(c.req.param("id")))] ?? {}));
  app.post("/partners/:id/faults", async (c) => {
    const id = partnerOf(c.req.param("id"));
    const text = await c.req.text();
    let body: unknown;
    try {
      body = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      throw new HttpError(400, "body must be JSON");
    }
    const parsed = FaultConfig.safeParse(body);
    if (!parsed.success) throw new HttpError(400, describeIssues(parsed.error.issues, { input: body }));
    ctx.traffic.setFaults(id, parsed.data);
    return c.json(ctx.traffic.faultsSnapshot()[String(id)] ?? {});
  });
  app.delete("/partners/:id/faults", (c) => {
    ctx.traffic.setFaults(partnerOf(c.req.param("id")), {});
    return c.json({});
  });
  return app;
}
