/**
 * What the avatar routers need from the emulator: a clock and ks verification. Declared structurally so the
 * routers run standalone in tests (a fake verify) and mounted in the emulator (its EmulatorContext fits).
 */

/** The parts of a verified session string the avatar APIs use. */
export interface AvatarKsInfo {
  partnerId: number;
  type: 0 | 2;
  userId: string;
  /** Unix seconds. */
  expiry: number;
  privileges: Record<string, string>;
  isWidget?: boolean;
}

export interface AvatarEmulatorContext {
  /** Milliseconds since the epoch. */
  now(): number;
  sessions: { verify(ks: string): AvatarKsInfo | Promise<AvatarKsInfo> };
  /** The CORS origin the routers admit: `*` (the default, loopback) or a list (the emulator bound elsewhere). */
  access?: { corsOrigin: string | string[] };
}

export interface AvatarRouteOptions {
  /** Override the context's clock (tests move time without waiting). Milliseconds. */
  now?: () => number;
  /** Milliseconds of speech per character of text (default 60, at least MIN_SPEECH_MS per utterance). */
  msPerChar?: number;
}
