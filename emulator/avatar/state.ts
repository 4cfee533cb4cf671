/**
 * The avatar emulator's in-memory state, one per emulator context, shared by the session and video routers:
 * sessions, per-account configuration checks, the seeded video/avatar catalog and the JWT signing key.
 * Avatar sessions are short-lived and their JWTs are signed with a per-process key, so they are not persisted.
 */
import { randomBytes } from "node:crypto";
import { SOURCE_ONLY_CHECK, type AvatarRecord, type AvatarVideo } from "../../contract/avatar";
import type { AvatarEmulatorContext, AvatarRouteOptions } from "./context";
import { AvatarMediaPlane } from "./mediaPlane";
import { SessionStore } from "./sessionStore";

/** The checks checkConfiguration reports, all valid by default. */
export const CONFIGURATION_CHECKS = [SOURCE_ONLY_CHECK, "avatar-feature-enabled", "default-conversion-profile"] as const;

export class AvatarEmulatorState {
  readonly jwtKey = new Uint8Array(randomBytes(32));
  readonly sessions: SessionStore;
  /** WHEP viewers (werift peers), the TURN relay and the idle-timeout watchdog. */
  readonly media: AvatarMediaPlane;
  /** partnerId -> check name -> valid. Missing entries are valid. */
  private readonly configuration = new Map<number, Map<string, boolean>>();
  private readonly videos: AvatarVideo[] = [];
  private readonly avatars: AvatarRecord[] = [];
  private readonly seededUsers = new Set<string>();

  constructor(
    readonly now: () => number,
    options: AvatarRouteOptions,
  ) {
    this.media = new AvatarMediaPlane(() => this.sessions);
    this.sessions = new SessionStore(now, options.msPerChar ?? 60, (record) => this.media.release(record));
  }

  checks(partnerId: number): Array<{ name: string; valid: boolean; message?: string }> {
    const overrides = this.configuration.get(partnerId);
    return CONFIGURATION_CHECKS.map((name) => {
      const valid = overrides?.get(name) ?? true;
      return valid ? { name, valid } : { name, valid, message: `${name} is not configured for partner ${partnerId}` };
    });
  }

  featureEnabled(partnerId: number): boolean {
    return this.checks(partnerId).every((check) => check.valid);
  }

  setChecks(partnerId: number, checks: Record<string, boolean>): void {
    const current = this.configuration.get(partnerId) ?? new Map<string, boolean>();
    for (const [name, valid] of Object.entries(checks)) {
      if (name === "*") for (const known of CONFIGURATION_CHECKS) current.set(known, valid);
      else current.set(name, valid);
    }
    this.configuration.set(partnerId, current);
  }

  /** Videos and avatars owned by one user of one account (seeded on the user's first listing). */
  catalogOf(partnerId: number, userId: string): { videos: AvatarVideo[]; avatars: AvatarRecord[] } {
    this.seed(partnerId, userId);
    const mine = <T extends { partnerId: number; userId: string }>(rows: T[]) => rows.filter((row) => row.partnerId === partnerId && row.userId === userId);
    return { videos: mine(this.videos), avatars: mine(this.avatars) };
  }

  /** Two avatars and two videos per user, ids naming their owner, so per-user scoping is observable. */
  private seed(partnerId: number, userId: string): void {
    const key = `${partnerId}/${userId}`;
    if (this.seededUsers.has(key)) return;
    this.seededUsers.add(key);
    const createdAt = Math.floor(this.now() / 1000);
    for (let i = 1; i <= 2; i++) {
      const avatarId = `av_${partnerId}_${userId}_${i}`;
      this.avatars.push({ id: avatarId, name: `${userId} avatar ${i}`, userId, partnerId, visualId: `visual-${i}`, createdAt });
      this.videos.push({
        id: `vid_${partnerId}_${userId}_${i}`,
        name: `${userId} video ${i}`,
        userId,
        partnerId,
        avatarId,
        status: "ready",
        durationSeconds: 30 * i,
        createdAt,
      });
    }
  }
}

const states = new WeakMap<object, AvatarEmulatorState>();

/** The one state of a context: both routers created from the same context share it. */
export function avatarStateOf(ctx: AvatarEmulatorContext, options: AvatarRouteOptions = {}): AvatarEmulatorState {
  let state = states.get(ctx);
  if (!state) {
    const now = options.now ?? (() => ctx.now());
    state = new AvatarEmulatorState(now, options);
    states.set(ctx, state);
  }
  return state;
}
