/**
 * Exponential backoff by RetryConfig with "equal jitter" (each wait drawn from [d/2, d], so clients that failed
 * together do not retry together), waiting on the injected clock. The decision to retry belongs to the
 * caller (`retryable`): the library retries only keep-alive, interrupt and end (safe to repeat), and the
 * other calls only when the server answered 429 or 503 (it says it did not act).
 */
import { sleep, type Clock } from "./clock";
import type { RetryConfig } from "./types";

export const DEFAULT_RETRY: RetryConfig = { maxAttempts: 3, initialDelayMs: 500, maxDelayMs: 5_000, backoffMultiplier: 2 };

/** Delay before retry number `retry` (1-based): initial * multiplier^(retry-1), capped at maxDelayMs. */
export function backoffDelayMs(config: RetryConfig, retry: number): number {
  return Math.min(config.maxDelayMs, config.initialDelayMs * config.backoffMultiplier ** (retry - 1));
}

/** The wait actually used: uniform in [d/2, d] for d = backoffDelayMs (random() in [0, 1), injectable). */
export function jitteredDelayMs(config: RetryConfig, retry: number, random: () => number = Math.random): number {
  const ceiling = backoffDelayMs(config, retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(1, Math.max(0, random())));
}

export async function withRetry<T>(
  config: RetryConfig,
  clock: Clock,
  attempt: (attemptNumber: number) => Promise<T>,
  retryable: (error: unknown) => boolean,
  onRetry?: (error: unknown, retry: number, delayMs: number) => void,
  random: () => number = Math.random,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= config.maxAttempts || !retryable(error)) throw error;
      const delayMs = jitteredDelayMs(config, n, random);
      onRetry?.(error, n, delayMs);
      await sleep(clock, delayMs);
    }
  }
}

export function validateRetryConfig(config: RetryConfig): string | undefined {
  const fields: Array<keyof RetryConfig> = ["maxAttempts", "initialDelayMs", "maxDelayMs", "backoffMultiplier"];
  for (const field of fields) {
    const value = config[field];
    if (typeof value !== "number" || !Number.isFinite(value)) return `retryConfig.${field}: expected a number`;
  }
  if (!Number.isInteger(config.maxAttempts) || config.maxAttempts < 1) return "retryConfig.maxAttempts: expected an integer >= 1";
  if (config.initialDelayMs < 0) return "retryConfig.initialDelayMs: expected >= 0";
  if (config.maxDelayMs < config.initialDelayMs) return "retryConfig.maxDelayMs: expected >= initialDelayMs";
  if (config.backoffMultiplier < 1) return "retryConfig.backoffMultiplier: expected >= 1";
  return undefined;
}
