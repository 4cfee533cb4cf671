/**
 * Service `session` on the wire: start (admin secret), startWidgetSession, end. It runs on PlatformWire, not on
 * PlatformApi: these calls make (or end) the sessions PlatformApi uses, so they never need one themselves.
 */
import { z } from "zod";
import { SessionString, StartSessionParams, WidgetSession } from "../../contract/platform";
import type { CallOptions } from "../transport";
import type { PlatformWire } from "./platformWire";
import { validateInput } from "./validate";

const SERVICE = "session";

/** session.start's parameters (the contract's), unknown keys refused. */
export const StartSessionInput = z.strictObject(StartSessionParams.shape);
export type StartSessionInput = z.input<typeof StartSessionInput>;

export class SessionService {
  constructor(private readonly wire: PlatformWire) {}

  /** session.start: returns the ks string. */
  async start(input: StartSessionInput, options?: CallOptions): Promise<string> {
    const params = validateInput(StartSessionInput, input, "sessions.start");
    return this.wire.call({ service: SERVICE, action: "start", params, schema: SessionString }, undefined, options);
  }

  /** session.startWidgetSession("_" + partnerId): an anonymous widget session, used to start app token sessions. */
  async startWidgetSession(widgetId: string, expiry?: number, options?: CallOptions): Promise<WidgetSession> {
    return this.wire.call({ service: SERVICE, action: "startWidgetSession", params: { widgetId, expiry }, schema: WidgetSession }, undefined, options);
  }

  /** session.end: invalidates `ks`. */
  async end(ks: string, options?: CallOptions): Promise<void> {
    await this.wire.call({ service: SERVICE, action: "end", schema: z.unknown() }, ks, options);
  }
}
