/** The library's event listeners: on/off with checked names, and emit that isolates throwing listeners. */
import { invalidConfiguration } from "./errors";
import type { Logger } from "./logger";
import type { SessionEventMap, SessionEventName } from "./types";

export const SESSION_EVENT_NAMES: readonly SessionEventName[] = ["stateChange", "connectionChange", "error", "speakingStart", "speakingEnd"];

type AnyListener = (...args: never[]) => void;

export class EventHub {
  private readonly listeners = new Map<SessionEventName, Set<AnyListener>>();

  constructor(private readonly log: Logger) {}

  on<E extends SessionEventName>(event: E, callback: SessionEventMap[E]): void {
    if (!SESSION_EVENT_NAMES.includes(event)) {
      throw invalidConfiguration(`on: unknown event "${String(event)}"; expected one of ${SESSION_EVENT_NAMES.join(", ")}`);
    }
    if (typeof callback !== "function") throw invalidConfiguration("on: callback must be a function");
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(callback as AnyListener);
  }

  off<E extends SessionEventName>(event: E, callback: SessionEventMap[E]): void {
    this.listeners.get(event)?.delete(callback as AnyListener);
  }

  emit<E extends SessionEventName>(event: E, ...args: Parameters<SessionEventMap[E]>): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (...a: unknown[]) => void)(...args);
      } catch (error) {
        this.log.error(`a ${event} listener threw`, { error: (error as Error)?.message });
      }
    }
  }
}
