/** Service `session` on the wire: start (admin secret), startWidgetSession, end. No ks handling here. */
import { z } from "zod";
import { SessionString, SessionTypeValue, WidgetSession } from "../../contract/platform";
import type { CallOptions } from "../transport";
import type { PlatformApi } from "./platformApi";
import { validateInput } from "./validate";

const SERVICE = "session";

export const StartSessionInput = z.strictObject({
  secret: z.string().min(1, "must be a non-empty string"),
  partnerId: z.number().int().positive(),
  type: SessionTypeValue,
  userId: z.string().optional(),
  /** Seconds of validity (the platform's default is 86400). */
  expiry: z.number().int().positive().optional(),
  privileges: z.string().optional(),
});
export type StartSessionInput = z.input<typeof StartSessionInput>;

export class SessionService {
  constructor(private readonly api: PlatformApi) {}

  /** session.start: returns the ks string. */
  async start(input: StartSessionInput, options?: CallOptions): Promise<string> {
    const params = validateInput(StartSessionInput, input, "sessions.start");
    return this.api.call({ service: SERVICE, action: "start", params, schema: SessionString, auth: "none" }, options);
  }

  /** session.startWidgetSession("_" + partnerId): an anonymous widget session, used to start app token sessions. */
  async startWidgetSession(widgetId: string, expiry?: number, options?: CallOptions): Promise<WidgetSession> {
    return this.api.call({ service: SERVICE, action: "startWidgetSession", params: { widgetId, expiry }, schema: WidgetSession, auth: "none" }, options);
  }

  /** session.end: invalidates `ks`. */
  async end(ks: string, options?: CallOptions): Promise<void> {
    await this.api.call({ service: SERVICE, action: "end", schema: z.unknown(), auth: { ks } }, options);
  }
}
