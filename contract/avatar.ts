/**
 * The avatar wire contract, defined once: zod schemas for the avatar session API ({avatar_api_url}/v1/...)
 * and the avatar video API ({avatar_video_url}/api/v1/...). The backend client (sdk/avatar), the browser
 * library (sdk/browser) and the emulator (emulator/avatar) all parse with these; the logic stays per side.
 *
 * Response schemas are loose (unknown fields pass through); request schemas strip unknown fields.
 * Choices where the spec says "not shown" are recorded in docs/avatar.md.
 */
import { z } from "zod";

// ---- constants ---------------------------------------------------------------------------------

export const AVATAR_PATHS = {
  /** The real service answers on /create; the emulator accepts both forms. The clients use this one. */
  create: "/v1/avatar-session/create",
  createShort: "/v1/avatar-session",
  session: (id: string, op: AvatarSessionOp) => `/v1/avatar-session/${encodeURIComponent(id)}/${op}`,
  checkConfiguration: "/api/v1/partner/checkConfiguration",
  listVideos: "/api/v1/video/list",
  listAvatars: "/api/v1/avatar/list",
} as const;

export type AvatarSessionOp = "init-client" | "keep-alive" | "say-text" | "say-audio" | "interrupt" | "end" | "events";

export const KEEP_ALIVE_INTERVAL_MS = 10_000;
/** A session that hears no keep-alive for this long ends on its own (reason idle-timeout). */
export const IDLE_TIMEOUT_MS = 30_000;

/** The check that must be valid for the avatar video feature (spec part d). */
export const SOURCE_ONLY_CHECK = "source-only-conversion-profile";

/**
 * The 32 TTS codes the spec lists. It states 33 are supported without naming the 33rd, so only these are accepted:
 * the browser library, the backend client and the emulator refuse any other code, naming the field.
 */
export const TTS_LANGUAGES = [
  "en",
  "ja",
  "zh",
  "de",
  "hi",
  "fr",
  "ko",
  "pt",
  "it",
  "es",
  "id",
  "nl",
  "tr",
  "fil",
  "pl",
  "sv",
  "bg",
  "ro",
  "ar",
  "cs",
  "el",
  "fi",
  "hr",
  "ms",
  "sk",
  "da",
  "ta",
  "uk",
  "ru",
  "hu",
  "no",
  "vi",
] as const;
export const TTSLanguage = z.enum(TTS_LANGUAGES);
export type TTSLanguage = z.infer<typeof TTSLanguage>;

// ---- retry safety and statuses, per endpoint (both clients follow this one table) -----------------

/**
 * Whether repeating a call whose answer was lost is safe. Not safe: create (a second session), init-client (may
 * open another WHEP resource), say-text and say-audio (the avatar would speak twice). Safe: keep-alive,
 * interrupt, end (a second end finds the session ended: 410, which both clients report as "already ended"; a 404
 * is "session not found", an error, as the spec's table says), and the reads.
 */
export const AVATAR_OPERATIONS = {
  create: { repeatSafe: false },
  "init-client": { repeatSafe: false },
  "keep-alive": { repeatSafe: true },
  "say-text": { repeatSafe: false },
  "say-audio": { repeatSafe: false },
  interrupt: { repeatSafe: true },
  end: { repeatSafe: true },
  events: { repeatSafe: true },
  checkConfiguration: { repeatSafe: true },
  listVideos: { repeatSafe: true },
  listAvatars: { repeatSafe: true },
} as const satisfies Record<string, { repeatSafe: boolean }>;
export type AvatarOperation = keyof typeof AVATAR_OPERATIONS;

/**
 * The retry rule of both avatar clients: a repeat-safe call is retried after a transport failure or one of these
 * statuses; a call that is not repeat-safe is retried only when the request never left the client (connection
 * refused, DNS failure), never after any answer: even a 429 or 503 may come from a proxy after the service acted.
 */
export const AVATAR_RETRY_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

export function isAvatarRetryStatus(op: AvatarOperation, status: number): boolean {
  return AVATAR_OPERATIONS[op].repeatSafe && AVATAR_RETRY_STATUSES.includes(status);
}

/** What each status of the avatar APIs means (the spec's error tables, plus 409/415 of WHEP and 429). */
export const AVATAR_STATUS_MEANINGS = {
  400: "bad-request",
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  409: "conflict",
  410: "gone",
  415: "unsupported-media-type",
  429: "rate-limited",
} as const;
export type AvatarStatusMeaning = (typeof AVATAR_STATUS_MEANINGS)[keyof typeof AVATAR_STATUS_MEANINGS] | "server-error" | "http-error";

export function avatarStatusMeaning(status: number): AvatarStatusMeaning {
  return (AVATAR_STATUS_MEANINGS as Record<number, AvatarStatusMeaning>)[status] ?? (status >= 500 ? "server-error" : "http-error");
}

// ---- errors ------------------------------------------------------------------------------------

/** Every non-2xx JSON answer of the avatar APIs: `{success: false, error}`; `reason` only on 410. */
export const AvatarErrorBody = z.looseObject({
  success: z.literal(false),
  error: z.string(),
  reason: z.string().optional(),
});
export type AvatarErrorBody = z.infer<typeof AvatarErrorBody>;

/** Why a session ended; reported with the ENDED state and in 410 bodies. */
export const EndReason = z.enum(["client", "server", "idle-timeout", "error"]);
export type EndReason = z.infer<typeof EndReason>;

// ---- session create ----------------------------------------------------------------------------

export const VisualConfig = z.object({ id: z.string().min(1) });
export type VisualConfig = z.infer<typeof VisualConfig>;

export const VoiceConfig = z.object({
  id: z.string().min(1).optional(),
  modelId: z.string().min(1).optional(),
  language: TTSLanguage.optional(),
});
export type VoiceConfig = z.infer<typeof VoiceConfig>;

export const CreateSessionRequest = z.object({
  visualConfig: VisualConfig,
  voiceConfig: VoiceConfig.optional(),
  /** Example bodies carry it; optional here (the spec does not say it is required). */
  clientId: z.string().optional(),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const CreateSessionResponse = z.looseObject({
  success: z.literal(true),
  sessionId: z.string().min(1),
  token: z.string().min(1),
});
export type CreateSessionResponse = z.infer<typeof CreateSessionResponse>;

// ---- later calls (Bearer JWT) ------------------------------------------------------------------

export const TurnServer = z.looseObject({
  url: z.string().min(1),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type TurnServer = z.infer<typeof TurnServer>;

/** init-client: the real service's shape. Not safe to repeat (each call may open another WHEP resource). */
export const InitClientResponse = z.looseObject({
  whepUrl: z.string().min(1),
  turn: TurnServer.optional(),
});
export type InitClientResponse = z.infer<typeof InitClientResponse>;

export const SuccessResponse = z.looseObject({ success: z.literal(true) });
export type SuccessResponse = z.infer<typeof SuccessResponse>;

export const SayTextRequest = z.object({
  text: z.string().min(1),
  turnId: z.string().min(1).optional(),
  isFinal: z.boolean().optional(),
});
export type SayTextRequest = z.infer<typeof SayTextRequest>;

/** say-text and say-audio answer with the turn they joined and the speech time the server scheduled. */
export const SayResponse = z.looseObject({
  success: z.literal(true),
  turnId: z.string().optional(),
  durationMs: z.number().optional(),
});
export type SayResponse = z.infer<typeof SayResponse>;

/** say-audio is multipart/form-data with these text fields plus the file part `audio` (MP3, 44.1 kHz). */
export const SayAudioFields = z.object({
  turnId: z.string().min(1),
  duration: z.coerce.number().positive(),
});
export type SayAudioFields = z.infer<typeof SayAudioFields>;

/** Bodies of keep-alive, interrupt and end: an empty JSON object. */
export const EmptyRequest = z.object({});

// ---- session events (emulator's polling endpoint; the spec does not show server-sent events) ----

export const SessionEventType = z.enum(["speakingStart", "speakingEnd"]);
export type SessionEventType = z.infer<typeof SessionEventType>;

export const SessionEvent = z.looseObject({
  seq: z.number().int(),
  type: SessionEventType,
  at: z.number(),
  turnId: z.string().optional(),
});
export type SessionEvent = z.infer<typeof SessionEvent>;

export const SessionEventsResponse = z.looseObject({
  success: z.literal(true),
  events: z.array(SessionEvent),
  /** Pass back as `?after=` on the next poll. */
  cursor: z.number().int(),
});
export type SessionEventsResponse = z.infer<typeof SessionEventsResponse>;

// ---- avatar video API --------------------------------------------------------------------------

export const ConfigurationCheck = z.looseObject({
  name: z.string(),
  valid: z.boolean(),
  message: z.string().optional(),
});
export type ConfigurationCheck = z.infer<typeof ConfigurationCheck>;

export const CheckConfigurationResponse = z.looseObject({
  checks: z.array(ConfigurationCheck),
  valid: z.boolean().optional(),
});
export type CheckConfigurationResponse = z.infer<typeof CheckConfigurationResponse>;

export const ListRequest = z.object({
  pageSize: z.number().int().min(1).max(500).optional(),
  pageIndex: z.number().int().min(1).optional(),
});
export type ListRequest = z.infer<typeof ListRequest>;

export const AvatarVideo = z.looseObject({
  id: z.string(),
  name: z.string(),
  userId: z.string(),
  partnerId: z.number().int(),
  avatarId: z.string().optional(),
  status: z.string(),
  durationSeconds: z.number().optional(),
  createdAt: z.number().int(),
});
export type AvatarVideo = z.infer<typeof AvatarVideo>;

export const AvatarRecord = z.looseObject({
  id: z.string(),
  name: z.string(),
  userId: z.string(),
  partnerId: z.number().int(),
  visualId: z.string(),
  createdAt: z.number().int(),
});
export type AvatarRecord = z.infer<typeof AvatarRecord>;

export const ListResponse = <T extends z.ZodType>(item: T) => z.looseObject({ objects: z.array(item), totalCount: z.number().int() });
export const AvatarVideoListResponse = ListResponse(AvatarVideo);
export type AvatarVideoListResponse = z.infer<typeof AvatarVideoListResponse>;
export const AvatarListResponse = ListResponse(AvatarRecord);
export type AvatarListResponse = z.infer<typeof AvatarListResponse>;

/** Emulator control: switch one check (or all) for an account. */
export const ConfigurationSwitchRequest = z.object({
  partnerId: z.number().int(),
  checks: z.record(z.string(), z.boolean()),
});
export type ConfigurationSwitchRequest = z.infer<typeof ConfigurationSwitchRequest>;
