/**
 * The emulator's Hono app: api_v3 (one service file per platform service), the control API, fault injection,
 * and the one error handler (errors.ts errorResponse) that turns HTTPException/ApiError into responses.
 */
import { Hono } from "hono";
import type { ServiceDefinition } from "./api/call";
import { partnerTrafficMiddleware } from "./api/partnerTraffic";
import { limitBody } from "./middleware/bodyLimits";
import { createApiV3Routes } from "./api/routes";
import { createAvatarApiRoutes, createAvatarVideoRoutes } from "./avatar";
import type { EmulatorContext } from "./context/emulatorContext";
import { createControlRoutes } from "./control/routes";
import { errorResponse } from "./shared/errors";
import { controlAccess } from "./middleware/controlAccess";
import { faultInjection } from "./middleware/faults";
import { APP_TOKEN_SERVICE } from "./platform/appToken";
import { createEntryServices } from "./platform/entry";
import { createEventNotificationTemplateService } from "./platform/eventNotificationTemplate";
import { createSessionService } from "./platform/session";

export function platformServices(ctx: EmulatorContext): ServiceDefinition[] {
  return [createSessionService(ctx), APP_TOKEN_SERVICE, createEventNotificationTemplateService(ctx), ...createEntryServices(ctx)];
}

export function createEmulatorApp(ctx: EmulatorContext): Hono {
  // strict: false so `/api_v3/` and `/api_v3` are the same route.
  const app = new Hono({ strict: false });

  app.onError((err, c) => errorResponse(err, c, ctx.log));
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));

  // The control API hands out the admin secret: open on loopback only (emulator/middleware/controlAccess.ts).
  app.use("/_emulator/*", controlAccess(ctx.access));
  app.use("/avatar-video/_emulator/*", controlAccess(ctx.access));
  // The control API is never subject to injected faults; everything else is.
  app.route("/_emulator", createControlRoutes(ctx));
  // Bodies over the cap are refused (413) while they stream in, before anything parses them.
  app.use("/api_v3/*", limitBody(ctx.maxApiBodyBytes, "api_v3 calls (maxApiBodyBytes, --max-body-bytes)"));
  // Per-account in-flight counts and aimed faults, outside the emulator-wide faults so their latency counts as in flight.
  app.use("/api_v3/*", partnerTrafficMiddleware(ctx.traffic));
  app.use("*", faultInjection(ctx.faults));

  app.route("/api_v3", createApiV3Routes(ctx, platformServices(ctx)));

  // ---- avatar APIs (emulator/avatar/, written by the avatar engineer) -------------------------------
  app.route("/avatar-api", createAvatarApiRoutes(ctx));
  app.route("/avatar-video", createAvatarVideoRoutes(ctx));
  // ---- end of avatar APIs --------------------------------------------------------------------------

  return app;
}
