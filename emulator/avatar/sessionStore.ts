/**
 * Avatar sessions of the emulator: lifecycle (exists -> ended with a reason), keep-alive idle timeout,
 * speech scheduling and the WHEP viewer slot. Time is read from the injected clock and evaluated lazily
 * (on every access), so tests move the clock instead of waiting and no timers keep the process alive.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { IDLE_TIMEOUT_MS, type EndReason, type SessionEvent, type VoiceConfig } from "../../contract/avatar";

/** Shortest utterance, so a one-letter text still yields a visible speakingStart/speakingEnd pair. */
export const MIN_SPEECH_MS = 300;

export interface AvatarSessionRecord {
  id: string;
  partnerId: number;
  userId: string;
  visualId: string;
  voice: VoiceConfig | undefined;
  clientId: string | undefined;
  /** jti of the one JWT that is valid for this session. */
  tokenId: string;
  createdAt: number;
  lastKeepAliveAt: number;
  endedAt: number | undefined;
  endReason: EndReason | undefined;
  /** Unguessable key naming the session's WHEP endpoint. */
  streamKey: string;
  /** The attached WHEP viewer's resource id (one viewer per session). */
  viewer: string | undefined;
  events: SessionEvent[];
  nextSeq: number;
  /** Until when the queued speech runs (ms); <= now means silent. */
  speechUntil: number;
  keepAlives: number;
}

export class SessionStore {
  private readonly byId = new Map<string, AvatarSessionRecord>();
  private readonly byStreamKey = new Map<string, AvatarSessionRecord>();

  constructor(
    private readonly now: () => number,
    private readonly msPerChar: number,
    /** Told once when a session ends, for whatever reason (its media and TURN relay are released there). */
    private readonly onEnded: (record: AvatarSessionRecord) => void = () => {},
  ) {}

  create(input: { partnerId: number; userId: string; visualId: string; voice?: VoiceConfig; clientId?: string }): AvatarSessionRecord {
    const now = this.now();
    const record: AvatarSessionRecord = {
      id: `as_${randomUUID()}`,
      partnerId: input.partnerId,
      userId: input.userId,
      visualId: input.visualId,
      voice: input.voice,
      clientId: input.clientId,
      tokenId: randomUUID(),
      createdAt: now,
      lastKeepAliveAt: now,
      endedAt: undefined,
      endReason: undefined,
      streamKey: randomBytes(18).toString("base64url"),
      viewer: undefined,
      events: [],
      nextSeq: 1,
      speechUntil: now,
      keepAlives: 0,
    };
    this.byId.set(record.id, record);
    this.byStreamKey.set(record.streamKey, record);
    return record;
  }

  /** The session with its idle timeout applied; undefined when unknown. */
  get(id: string): AvatarSessionRecord | undefined {
    const record = this.byId.get(id);
    if (record) this.applyIdleTimeout(record);
    return record;
  }

  getByStreamKey(streamKey: string): AvatarSessionRecord | undefined {
    const record = this.byStreamKey.get(streamKey);
    if (record) this.applyIdleTimeout(record);
    return record;
  }

  keepAlive(record: AvatarSessionRecord): void {
    record.lastKeepAliveAt = this.now();
    record.keepAlives++;
  }

  end(record: AvatarSessionRecord, reason: EndReason, at = this.now()): void {
    if (record.endedAt !== undefined) return;
    this.stopSpeech(record, at);
    record.endedAt = at;
    record.endReason = reason;
    // Streaming ends and the token is invalidated (the token check also looks at endedAt).
    record.viewer = undefined;
    record.tokenId = "";
    this.onEnded(record);
  }

  /** Is the session speaking at this moment (the media's audio follows this). */
  isSpeaking(record: AvatarSessionRecord): boolean {
    return record.endedAt === undefined && record.speechUntil > this.now();
  }

  /** Queue an utterance; returns its duration in ms. Speech started while speaking extends the current run. */
  speak(record: AvatarSessionRecord, turnId: string, durationMs: number): number {
    const now = this.now();
    const duration = Math.max(MIN_SPEECH_MS, Math.round(durationMs));
    if (record.speechUntil > now) {
      record.speechUntil += duration;
      const pendingEnd = record.events.findLast((event) => event.type === "speakingEnd");
      if (pendingEnd) pendingEnd.at = record.speechUntil;
    } else {
      record.speechUntil = now + duration;
      this.push(record, "speakingStart", now, turnId);
      this.push(record, "speakingEnd", record.speechUntil, turnId);
    }
    return duration;
  }

  textDurationMs(text: string): number {
    return text.length * this.msPerChar;
  }

  /** Cut the current speech short (interrupt): its speakingEnd moves to now. */
  stopSpeech(record: AvatarSessionRecord, at = this.now()): boolean {
    if (record.speechUntil <= at) return false;
    record.speechUntil = at;
    const pendingEnd = record.events.findLast((event) => event.type === "speakingEnd");
    if (pendingEnd) pendingEnd.at = at;
    return true;
  }

  /** Events after `cursor` that have happened by now. */
  eventsAfter(record: AvatarSessionRecord, cursor: number): { events: SessionEvent[]; cursor: number } {
    const now = this.now();
    const due = record.events.filter((event) => event.seq > cursor && event.at <= now);
    const last = due.at(-1);
    return { events: due, cursor: last ? last.seq : cursor };
  }

  newResourceId(): string {
    return randomBytes(9).toString("base64url");
  }

  private push(record: AvatarSessionRecord, type: SessionEvent["type"], at: number, turnId: string): void {
    record.events.push({ seq: record.nextSeq++, type, at, turnId });
  }

  /** A session that heard no keep-alive for IDLE_TIMEOUT_MS ended at that moment. */
  private applyIdleTimeout(record: AvatarSessionRecord): void {
    if (record.endedAt !== undefined) return;
    const deadline = record.lastKeepAliveAt + IDLE_TIMEOUT_MS;
    if (this.now() >= deadline) this.end(record, "idle-timeout", deadline);
  }
}
