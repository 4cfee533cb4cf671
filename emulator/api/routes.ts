/**
 * The api_v3 router: `/service/:service/action/:action`, `/service/:service` (multirequest) and the
 * query-style `/?service=...&action=...`, POST only (the spec). Every API failure is HTTP 200 with the platform's
 * error object.
 */
import { Hono, type Context } from "hono";
import type { EmulatorContext } from "../context/emulatorContext";
import { HttpError } from "../shared/errors";
import type { ServiceDefinition } from "./call";
import { ApiDispatcher, type Outcome } from "./dispatch";
import { leaf, readParams } from "./params";
import { formatOf, omitNulls, toJson, toXml } from "./serialize";

export function createApiV3Routes(ctx: EmulatorContext, services: ServiceDefinition[]): Hono {
  const dispatcher = new ApiDispatcher(ctx, services);
  // strict: false so `/api_v3/` and `/api_v3` are the same route.
  const app = new Hono({ strict: false });

  async function handle(c: Context, pathService?: string, pathAction?: string): Promise<Response> {
    const started = performance.now();
    const params = await readParams(c);
    const service = pathService ?? leaf(params, "service") ?? "";
    const format = formatOf(leaf(params, "format"));
    const seconds = Number(((performance.now() - started) / 1000).toFixed(4));
    if (service.toLowerCase() === "multirequest") {
      const outcomes = await dispatcher.multirequest(params);
      const body = outcomes.map(bodyOf);
      return format === "json" ? json(c, JSON.stringify(omitNulls(body.map((b) => (b === undefined ? null : b))))) : xml(c, toXml(body, false, seconds));
    }
    const action = pathAction ?? leaf(params, "action") ?? "";
    const outcome = await dispatcher.run(service, action, params);
    if (format === "json") return json(c, toJson(bodyOf(outcome)));
    return xml(c, toXml(bodyOf(outcome), !outcome.ok, seconds));
  }

  // The spec: every platform operation is a POST. Anything else is refused before any parsing (405, Allow: POST).
  app.use("*", async (c, next) => {
    if (c.req.method !== "POST") throw new HttpError(405, `api_v3 takes POST, not ${c.req.method}`, { Allow: "POST" });
    await next();
  });
  // The body cap is mounted in app.ts, in front of everything that reads an api_v3 body (the per-account counter too).
  app.post("/service/:service/action/:action", function serviceActionRoute(c) {
    return handle(c, c.req.param("service"), c.req.param("action"));
  });
  app.post("/service/:service", (c) => handle(c, c.req.param("service")));
  app.post("/", (c) => handle(c));
  app.post("/index.php", (c) => handle(c));
  return app;
}

function bodyOf(outcome: Outcome): unknown {
  if (!outcome.ok) return outcome.error.toBody();
  return outcome.result;
}

function json(c: Context, text: string): Response {
  return c.body(text, 200, { "content-type": "application/json" });
}

function xml(c: Context, text: string): Response {
  return c.body(text, 200, { "content-type": "text/xml; charset=utf-8" });
}
