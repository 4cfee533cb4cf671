/** Leveled logging (AvatarConfig.logLevel) through one sink; every line is redacted. Deprecations warn once. */
import { redact, redactValue } from "../core/redact";
import type { LogLevel } from "./types";

export interface LogSink {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const PREFIX = "[SvcAvatarSession]";

export class Logger {
  constructor(
    private readonly level: LogLevel,
    private readonly sink: LogSink,
  ) {}

  debug(message: string, details?: unknown): void {
    this.write("debug", message, details);
  }
  info(message: string, details?: unknown): void {
    this.write("info", message, details);
  }
  warn(message: string, details?: unknown): void {
    this.write("warn", message, details);
  }
  error(message: string, details?: unknown): void {
    this.write("error", message, details);
  }

  /** A warning that logLevel does not silence (deprecations: the spec says they are logged). */
  warnAlways(message: string): void {
    this.write("warn", message, undefined, true);
  }

  private write(level: LogLevel, message: string, details: unknown, always = false): void {
    if (!always && RANK[level] < RANK[this.level]) return;
    const line = `${PREFIX} ${redact(message)}`;
    if (details === undefined) this.sink[level](line);
    else this.sink[level](line, redactValue(details));
  }
}

/** Which deprecation warnings were already given, by kind of use (positional apiKey, avatarId). Process-wide by default; tests pass their own. */
export type DeprecationRegistry = Set<string>;
export const processDeprecations: DeprecationRegistry = new Set();

export function warnDeprecatedOnce(registry: DeprecationRegistry, logger: Logger, key: string, message: string): void {
  if (registry.has(key)) return;
  registry.add(key);
  logger.warnAlways(`Deprecated: ${message}`);
}

export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];
