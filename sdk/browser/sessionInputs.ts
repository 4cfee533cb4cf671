/**
 * Checks of the public methods' arguments: bad input throws INVALID_CONFIGURATION naming the argument,
 * before any state change or call.
 */
import { TTS_LANGUAGES, TTSLanguage, type CreateSessionRequest, type VoiceConfig } from "../../contract/avatar";
import { invalidConfiguration } from "./errors";
import type { CreateSessionOptions } from "./types";

/** The create body from createSession's options (avatarId is the deprecated alias of visualId). */
export function createRequestOf(options: CreateSessionOptions): CreateSessionRequest {
  if (!options || typeof options !== "object") throw invalidConfiguration("createSession: expected an options object with visualId");
  const visualId = options.visualId ?? options.avatarId;
  if (typeof visualId !== "string" || visualId === "") throw invalidConfiguration("createSession: visualId is required (a non-empty string)");
  for (const field of ["voiceId", "modelId", "clientId", "videoContainerId"] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== "string" || value === "")) throw invalidConfiguration(`createSession: ${field} must be a non-empty string`);
  }
  // The spec lists 32 codes (and states 33 are supported, without naming the 33rd): only listed codes pass.
  const language = options.language === undefined ? undefined : TTSLanguage.safeParse(options.language);
  if (language && !language.success) {
    throw invalidConfiguration(
      `createSession: language ${JSON.stringify(options.language)} is not a supported TTS language code (one of ${TTS_LANGUAGES.join(", ")})`,
      { field: "language", value: String(options.language) },
    );
  }
  const voice: VoiceConfig = {
    ...(options.voiceId ? { id: options.voiceId } : {}),
    ...(options.modelId ? { modelId: options.modelId } : {}),
    ...(language?.success ? { language: language.data } : {}),
  };
  return {
    visualConfig: { id: visualId },
    ...(Object.keys(voice).length ? { voiceConfig: voice } : {}),
    ...(options.clientId ? { clientId: options.clientId } : {}),
  };
}

export function checkBackendSession(session: { sessionId: string; token: string }): void {
  if (!session || typeof session.sessionId !== "string" || session.sessionId === "") throw invalidConfiguration("initSession: session.sessionId is required");
  if (typeof session.token !== "string" || session.token === "") throw invalidConfiguration("initSession: session.token is required");
}

export function checkSayText(text: unknown, turnId: unknown, isFinal: unknown): void {
  if (typeof text !== "string" || text.trim() === "") throw invalidConfiguration("sayText: text must be a non-empty string");
  if (turnId !== undefined && (typeof turnId !== "string" || turnId === "")) throw invalidConfiguration("sayText: turnId must be a non-empty string");
  if (typeof isFinal !== "boolean") throw invalidConfiguration("sayText: isFinal must be a boolean");
}

export function checkSayAudio(audioFile: unknown, turnId: unknown, duration: unknown): void {
  if (typeof Blob === "undefined" || !(audioFile instanceof Blob)) throw invalidConfiguration("sayAudio: audioFile must be a File or Blob (MP3, 44.1 kHz)");
  if (typeof turnId !== "string" || turnId === "") throw invalidConfiguration("sayAudio: turnId is required");
  if (typeof duration !== "number" || !Number.isFinite(duration) || duration <= 0)
    throw invalidConfiguration("sayAudio: duration must be a positive number of seconds");
}
