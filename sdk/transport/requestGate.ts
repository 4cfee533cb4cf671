/**
 * The client-wide gate every attempt of a transport passes: at most `maxConcurrency` attempts in flight (the rest
 * wait in order), and a pause of the whole client after a 429, so that hundreds of resources do not keep hitting a
 * platform that asked them to slow down.
 */
import { setTimeout as sleep } from "node:timers/promises";

export interface RequestGate {
  /** Waits for a slot (and for any pause to end); returns the release function. */
  acquire(signal: AbortSignal): Promise<() => void>;
  /** Holds every attempt not yet started for `ms` from now (a later pause is kept when longer). */
  pause(ms: number): void;
  /** Attempts in flight now and waiting now (telemetry, tests). */
  readonly inFlight: number;
  readonly waiting: number;
}

export function createRequestGate(maxConcurrency: number = Number.POSITIVE_INFINITY, now: () => number = Date.now): RequestGate {
  let inFlight = 0;
  let pausedUntil = 0;
  const queue: Array<() => void> = [];

  // A freed slot goes straight to the first waiter (inFlight unchanged), so nobody can overtake the queue.
  const release = (): void => {
    const nextWaiter = queue.shift();
    if (nextWaiter) nextWaiter();
    else inFlight--;
  };

  async function acquire(signal: AbortSignal): Promise<() => void> {
    if (inFlight >= maxConcurrency) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          const i = queue.indexOf(grant);
          if (i >= 0) queue.splice(i, 1);
          reject(signal.reason);
        };
        const grant = (): void => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
        signal.addEventListener("abort", onAbort, { once: true });
        queue.push(grant);
      });
    } else {
      inFlight++;
    }
    // A pause is waited out holding the slot: nobody else may start either.
    for (let wait = pausedUntil - now(); wait > 0; wait = pausedUntil - now()) {
      try {
        await sleep(wait, undefined, { signal });
      } catch (error) {
        release();
        throw error;
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }

  return {
    acquire,
    pause(ms: number) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return queue.length;
    },
  };
}
