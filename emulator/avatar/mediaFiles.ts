/**
 * The emulator's pre-encoded avatar media (emulator/avatar/media/, made once by scripts/make-avatar-media.sh):
 * VP8 frames read from an IVF file and Opus packets read from Ogg files. Loaded once per process and shared
 * by every peer; nothing is encoded at run time (no codec in pure JavaScript is worth the CPU on a small box).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export interface Vp8Frame {
  data: Buffer;
  keyframe: boolean;
}

export interface AvatarMedia {
  /** The looping face video; frame 0 is a key frame (so the loop restarts cleanly). */
  video: { frames: Vp8Frame[]; fps: number; width: number; height: number };
  /** 20 ms Opus packets: one looping second of "speech" (a tremolo tone) and digital silence. */
  speech: Buffer[];
  silence: Buffer;
}

export const OPUS_FRAME_MS = 20;

let loaded: AvatarMedia | undefined;

export function avatarMedia(): AvatarMedia {
  if (loaded) return loaded;
  const dir = mediaDir();
  const video = parseIvf(readFileSync(join(dir, "avatar-face.ivf")));
  const speech = parseOggOpus(readFileSync(join(dir, "speech-tone.ogg")));
  const silencePackets = parseOggOpus(readFileSync(join(dir, "silence.ogg")));
  // The encoder's first packets carry its warm-up; any later one is plain silence.
  const silence = silencePackets[Math.floor(silencePackets.length / 2)];
  if (video.frames.length === 0 || !video.frames[0]!.keyframe || speech.length === 0 || !silence) {
    throw new Error(`avatar media in ${dir} is incomplete; run scripts/make-avatar-media.sh`);
  }
  loaded = { video, speech, silence };
  return loaded;
}

/**
 * The media folder next to the sources; from dist/emulator/avatar the sources are three levels up; from a bundle
 * (anywhere) the installed package's own copy.
 */
function mediaDir(): string {
  const candidates = [join(__dirname, "media"), resolve(__dirname, "../../../emulator/avatar/media")];
  try {
    candidates.push(join(dirname(require.resolve("pulumi-svc/package.json")), "emulator/avatar/media"));
  } catch {
    // not installed as a package
  }
  const found = candidates.find((dir) => existsSync(join(dir, "avatar-face.ivf")));
  if (!found) throw new Error(`avatar media not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** IVF: 32-byte file header ("DKIF", fourcc, size, rate/scale), then 12-byte frame headers + payloads. */
export function parseIvf(file: Buffer): AvatarMedia["video"] {
  if (file.toString("ascii", 0, 4) !== "DKIF" || file.toString("ascii", 8, 12) !== "VP80") {
    throw new Error("not a VP8 IVF file");
  }
  const headerSize = file.readUInt16LE(6);
  const width = file.readUInt16LE(12);
  const height = file.readUInt16LE(14);
  const rate = file.readUInt32LE(16);
  const scale = file.readUInt32LE(20) || 1;
  const frames: Vp8Frame[] = [];
  for (let at = headerSize; at + 12 <= file.length; ) {
    const size = file.readUInt32LE(at);
    const data = file.subarray(at + 12, at + 12 + size);
    // VP8 frame tag, bit 0 of the first byte: 0 = key frame (RFC 6386 9.1).
    frames.push({ data, keyframe: (data[0]! & 0x01) === 0 });
    at += 12 + size;
  }
  return { frames, fps: rate / scale, width, height };
}

/** Ogg pages -> packets (lacing values of 255 continue a packet), minus the OpusHead and OpusTags headers. */
export function parseOggOpus(file: Buffer): Buffer[] {
  const packets: Buffer[] = [];
  let partial: Buffer[] = [];
  for (let at = 0; at + 27 <= file.length; ) {
    if (file.toString("ascii", at, at + 4) !== "OggS") throw new Error("not an Ogg stream");
    const segments = file[at + 26]!;
    const table = file.subarray(at + 27, at + 27 + segments);
    let body = at + 27 + segments;
    for (const lace of table) {
      partial.push(file.subarray(body, body + lace));
      body += lace;
      if (lace < 255) {
        packets.push(Buffer.concat(partial));
        partial = [];
      }
    }
    at = body;
  }
  return packets.filter((packet) => {
    const magic = packet.toString("ascii", 0, 8);
    return magic !== "OpusHead" && magic !== "OpusTags";
  });
}
