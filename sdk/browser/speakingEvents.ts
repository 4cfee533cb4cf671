/**
 * Polls the session's events endpoint (GET /v1/avatar-session/{id}/events?after=<cursor>) and reports
 * speakingStart/speakingEnd. 410 means the server ended the session; 404/401/403 mean there is no events
 * endpoint (or no access) and polling stops quietly (keep-alive still watches the session); other failures
 * are retried by the next poll.
 */
import type { EndReason, SessionEventType } from "../../contract/avatar";
import type { AvatarApiClient } from "./avatarApiClient";
import { statusOf } from "./avatarApiClient";
import type { Clock } from "./clock";
import type { AvatarError } from "./errors";
import type { Logger } from "./logger";
import { Repeater } from "./repeater";

export interface SpeakingEventsInput {
  api: AvatarApiClient;
  sessionId: string;
  token: string;
  clock: Clock;
  intervalMs: number;
  log: Logger;
  onEvent(type: SessionEventType): void;
  onGone(error: AvatarError): void;
}

export function pollSpeakingEvents(input: SpeakingEventsInput): { stop(): void } {
  let cursor = 0;
  const repeater: Repeater = new Repeater(input.clock, input.intervalMs, async () => {
    try {
      const page = await input.api.events(input.sessionId, input.token, cursor);
      cursor = page.cursor;
      for (const event of page.events) input.onEvent(event.type);
    } catch (error) {
      const status = statusOf(error);
      if (status === 410) {
        repeater.stop();
        input.onGone(error as AvatarError);
      } else if (status === 404 || status === 401 || status === 403) {
        input.log.debug(`speaking events unavailable (${status}); polling stopped`);
        repeater.stop();
      }
    }
  }).start();
  return repeater;
}

export function endReasonOf(error: AvatarError): EndReason {
  const reason = error.details?.reason;
  return reason === "client" || reason === "server" || reason === "idle-timeout" || reason === "error" ? reason : "server";
}
