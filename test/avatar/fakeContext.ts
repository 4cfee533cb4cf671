/** A standalone context for the avatar routers: a movable clock and a ks table instead of real sessions. */
import type { AvatarEmulatorContext, AvatarKsInfo } from "../../emulator/avatar";

export interface FakeAvatarContext extends AvatarEmulatorContext {
  clock: { ms: number; advance(ms: number): void };
  addKs(ks: string, info: Partial<AvatarKsInfo>): string;
}

export function fakeAvatarContext(startMs = 1_700_000_000_000): FakeAvatarContext {
  const table = new Map<string, AvatarKsInfo>();
  const clock = {
    ms: startMs,
    advance(ms: number) {
      clock.ms += ms;
    },
  };
  return {
    clock,
    now: () => clock.ms,
    sessions: {
      verify(ks: string) {
        const info = table.get(ks);
        if (!info) throw Object.assign(new Error("Invalid KS"), { code: "INVALID_KS" });
        return info;
      },
    },
    addKs(ks, info) {
      table.set(ks, { partnerId: 101, type: 2, userId: "admin", expiry: 0, privileges: {}, ...info });
      return ks;
    },
  };
}

/** The smallest valid MP3 frame header at 44.1 kHz (MPEG-1 Layer III, 128 kbps), padded. */
export function mp3Bytes(sampleRateIndex = 0): Uint8Array {
  const bytes = new Uint8Array(417);
  bytes.set([0xff, 0xfb, 0x90 | (sampleRateIndex << 2), 0x00]);
  return bytes;
}
