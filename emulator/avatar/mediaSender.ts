/**
 * Plays the pre-encoded avatar media into one peer's tracks: the VP8 face loop at its frame rate and an Opus
 * packet every 20 ms, the "speech" tone while the session is speaking (asked on every packet, so audio follows
 * the same schedule as speakingStart/speakingEnd) and silence otherwise. Timers are drift-corrected (packets
 * due since start are sent, capped) and unref'd, so a slow tick does not stretch media time.
 */
import { type MediaStreamTrack, OpusPacketizer, Vp8Packetizer } from "werift";
import { avatarMedia, OPUS_FRAME_MS } from "./mediaFiles";

/** Leaves room for SRTP and TURN (ChannelData) overhead under a 1280-byte path MTU. */
const MAX_PAYLOAD = 1100;
/** At most this many packets per tick after a stall (the rest is dropped: this is live media). */
const MAX_CATCH_UP = 5;

export interface MediaCounters {
  videoFrames: number;
  speechPackets: number;
  silencePackets: number;
}

export class AvatarMediaSender {
  readonly counters: MediaCounters = { videoFrames: 0, speechPackets: 0, silencePackets: 0 };
  private readonly media = avatarMedia();
  private timers: NodeJS.Timeout[] = [];
  private frameIndex = 0;
  private speechIndex = 0;
  private restartAtKeyframe = false;

  constructor(
    private readonly video: MediaStreamTrack,
    private readonly audio: MediaStreamTrack,
    private readonly isSpeaking: () => boolean,
  ) {}

  start(): void {
    if (this.timers.length) return;
    const { fps, frames } = this.media.video;
    const vp8 = new Vp8Packetizer({ maxPayloadSize: MAX_PAYLOAD });
    const opus = new OpusPacketizer({ maxPayloadSize: MAX_PAYLOAD });
    let videoTimestamp = randomUint32();
    let audioTimestamp = randomUint32();
    this.every(1000 / fps, () => {
      if (this.restartAtKeyframe) {
        this.frameIndex = 0;
        this.restartAtKeyframe = false;
      }
      const frame = frames[this.frameIndex]!;
      this.frameIndex = (this.frameIndex + 1) % frames.length;
      for (const packet of vp8.packetize(frame.data, videoTimestamp)) this.video.writeRtp(packet);
      videoTimestamp = (videoTimestamp + 90_000 / fps) >>> 0;
      this.counters.videoFrames++;
    });
    this.every(OPUS_FRAME_MS, () => {
      let payload: Buffer;
      if (this.isSpeaking()) {
        payload = this.media.speech[this.speechIndex]!;
        this.speechIndex = (this.speechIndex + 1) % this.media.speech.length;
        this.counters.speechPackets++;
      } else {
        payload = this.media.silence;
        this.speechIndex = 0;
        this.counters.silencePackets++;
      }
      for (const packet of opus.packetize(payload, audioTimestamp)) this.audio.writeRtp(packet);
      audioTimestamp = (audioTimestamp + (48_000 * OPUS_FRAME_MS) / 1000) >>> 0;
    });
  }

  /** A picture loss indication: the next frame sent is the loop's key frame. */
  requestKeyframe(): void {
    this.restartAtKeyframe = true;
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Calls `send` once per period of media time elapsed since start (drift-corrected, catch-up capped). */
  private every(periodMs: number, send: () => void): void {
    const started = performance.now();
    let sent = 0;
    const timer = setInterval(
      () => {
        const due = Math.floor((performance.now() - started) / periodMs) + 1;
        if (due - sent > MAX_CATCH_UP) sent = due - MAX_CATCH_UP;
        while (sent < due) {
          send();
          sent++;
        }
      },
      Math.max(5, Math.floor(periodMs / 2)),
    );
    timer.unref();
    this.timers.push(timer);
  }
}

function randomUint32(): number {
  return Math.floor(Math.random() * 0x1_0000_0000) >>> 0;
}
