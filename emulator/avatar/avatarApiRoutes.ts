/**
 * The avatar session API under {avatar_api_url}: create (KS auth, both path forms), then Bearer-JWT calls on
 * one session (init-client, keep-alive, say-text, say-audio, interrupt, end, events) and the WHEP endpoint.
 * Mounted by the emulator with app.route("/avatar-api", createAvatarApiRoutes(ctx)).
 */
import { randomUUID } from "node:crypto";
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import {
  CreateSessionRequest,
  EmptyRequest,
  SayAudioFields,
  SayTextRequest,
  type CreateSessionResponse,
  type InitClientResponse,
  type SayResponse,
  type SessionEventsResponse,
} from "../../contract/avatar";
import type { AvatarEmulatorContext, AvatarRouteOptions } from "./context";
import { avatarErrorHandler, badRequest, forbidden, gone, notFound, unauthorized, AvatarHttpError } from "./errors";
import { MAX_AUDIO_BYTES, MAX_BODY_BYTES } from "../middleware/bodyLimits";
import { AVATAR_CORS, avatarBodyLimit, describeIssues, jsonBody, pathnameOf } from "./http";
import { signSessionJwt, verifySessionJwt } from "./jwt";
import { credentialOf, enforceUriRestrict, verifyKs } from "./ksAuth";
import { isMp3At44100 } from "./mp3";
import type { AvatarSessionRecord } from "./sessionStore";
import { avatarStateOf, type AvatarEmulatorState } from "./state";
import { createWhepRoutes } from "./whepRoutes";

const SESSION_PREFIX = "/v1/avatar-session";

export function createAvatarApiRoutes(ctx: AvatarEmulatorContext, options: AvatarRouteOptions = {}): Hono {
  const state = avatarStateOf(ctx, options);
  const app = new Hono();
  app.use("*", cors({ ...AVATAR_CORS, origin: ctx.access?.corsOrigin ?? AVATAR_CORS.origin }));
  app.onError(avatarErrorHandler);
  // Every body is capped while it streams in (413): JSON calls at one size, say-audio's MP3 upload at another.
  const jsonLimit = avatarBodyLimit(MAX_BODY_BYTES.avatarJson, "the avatar API's JSON calls");
  const audioLimit = avatarBodyLimit(MAX_BODY_BYTES.sayAudio, "say-audio");

  const create = async (c: Context) => {
    const info = await verifyKs(ctx, credentialOf(c, "KS"));
    enforceUriRestrict(info, pathnameOf(c), apiPathOf(c));
    if (!state.featureEnabled(info.partnerId)) {
      throw forbidden(`the avatar feature is not enabled for partner ${info.partnerId}`);
    }
    const body = await jsonBody(c, CreateSessionRequest);
    const record = state.sessions.create({
      partnerId: info.partnerId,
      userId: info.userId,
      visualId: body.visualConfig.id,
      voice: body.voiceConfig,
      clientId: body.clientId,
    });
    const token = await signSessionJwt(
      state.jwtKey,
      { sessionId: record.id, tokenId: record.tokenId, partnerId: record.partnerId, userId: record.userId },
      state.now(),
    );
    return c.json({ success: true, sessionId: record.id, token } satisfies CreateSessionResponse);
  };
  app.post(SESSION_PREFIX, jsonLimit, create);
  app.post(`${SESSION_PREFIX}/create`, jsonLimit, create);

  app.post(`${SESSION_PREFIX}/:id/init-client`, jsonLimit, async (c) => {
    const record = await authorize(state, c, "init-client");
    await jsonBody(c, EmptyRequest);
    const base = apiRootOf(c);
    // A TURN user of its own, revoked (allocations closed) when the session ends; at most a day, like the JWT.
    const turn = await state.media.issueTurn(record, state.now() + 86_400_000);
    const body: InitClientResponse = { whepUrl: `${base}/whep/${record.streamKey}`, turn };
    return c.json(body);
  });

  app.post(`${SESSION_PREFIX}/:id/keep-alive`, jsonLimit, async (c) => {
    const record = await authorize(state, c, "keep-alive");
    state.sessions.keepAlive(record);
    return c.json({ success: true });
  });

  app.post(`${SESSION_PREFIX}/:id/say-text`, jsonLimit, async (c) => {
    const record = await authorize(state, c, "say-text");
    const body = await jsonBody(c, SayTextRequest);
    const turnId = body.turnId ?? randomUUID();
    const durationMs = state.sessions.speak(record, turnId, state.sessions.textDurationMs(body.text));
    return c.json({ success: true, turnId, durationMs } satisfies SayResponse);
  });

  app.post(`${SESSION_PREFIX}/:id/say-audio`, audioLimit, async (c) => {
    const record = await authorize(state, c, "say-audio");
    if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
      throw new AvatarHttpError(415, "say-audio takes multipart/form-data with turnId, duration and audio");
    }
    const form = await c.req.parseBody().catch(() => {
      throw badRequest("body: malformed multipart/form-data");
    });
    const fields = SayAudioFields.safeParse({ turnId: form.turnId, duration: form.duration });
    if (!fields.success) throw badRequest(describeIssues(fields.error));
    const audio = form.audio;
    if (!(audio instanceof Blob) || audio.size === 0) throw badRequest("audio: expected an MP3 file part");
    if (audio.size > MAX_AUDIO_BYTES) throw new AvatarHttpError(413, `audio: larger than ${MAX_AUDIO_BYTES} bytes`);
    if (!isMp3At44100(new Uint8Array(await audio.arrayBuffer()))) throw badRequest("audio: expected MP3 at 44.1 kHz");
    const durationMs = state.sessions.speak(record, fields.data.turnId, fields.data.duration * 1000);
    return c.json({ success: true, turnId: fields.data.turnId, durationMs } satisfies SayResponse);
  });

  app.post(`${SESSION_PREFIX}/:id/interrupt`, jsonLimit, async (c) => {
    const record = await authorize(state, c, "interrupt");
    await jsonBody(c, EmptyRequest);
    const interrupted = state.sessions.stopSpeech(record);
    return c.json({ success: true, interrupted });
  });

  app.post(`${SESSION_PREFIX}/:id/end`, jsonLimit, async (c) => {
    const record = await authorize(state, c, "end");
    await jsonBody(c, EmptyRequest);
    state.sessions.end(record, "client");
    return c.json({ success: true });
  });

  app.get(`${SESSION_PREFIX}/:id/events`, async (c) => {
    const record = await authorize(state, c, "events");
    const after = Number(c.req.query("after") ?? "0");
    if (!Number.isInteger(after) || after < 0) throw badRequest("after: expected a non-negative integer cursor");
    const { events, cursor } = state.sessions.eventsAfter(record, after);
    return c.json({ success: true, events, cursor } satisfies SessionEventsResponse);
  });

  app.route("/whep", createWhepRoutes(state));
  return app;
}

/**
 * The checks of every call on one session, in order: unknown id 404; `end` of an ended session 410 whatever
 * the token (spec: "any"); a token that is missing, badly signed, expired or for another session 401; any
 * other call on an ended session 410 with the end reason; a token issued before end was invalidated 401.
 */
async function authorize(state: AvatarEmulatorState, c: Context, op: string): Promise<AvatarSessionRecord> {
  const record = state.sessions.get(c.req.param("id") ?? "");
  if (!record) throw notFound("no such avatar session");
  if (op === "end" && record.endedAt !== undefined) throw gone(record.endReason);
  const claims = await verifySessionJwt(state.jwtKey, credentialOf(c, "Bearer"), state.now());
  if (!claims || claims.sessionId !== record.id) throw unauthorized("session token invalid");
  if (record.endedAt !== undefined) throw gone(record.endReason);
  if (claims.tokenId !== record.tokenId) throw unauthorized("session token invalid");
  return record;
}

/** The URL of this API's root as the caller sees it (works behind any mount prefix). */
function apiRootOf(c: Context): string {
  const url = new URL(c.req.url);
  const at = url.pathname.indexOf(SESSION_PREFIX);
  return `${url.origin}${at >= 0 ? url.pathname.slice(0, at) : ""}`;
}

function apiPathOf(c: Context): string {
  const path = pathnameOf(c);
  const at = path.indexOf(SESSION_PREFIX);
  return at >= 0 ? path.slice(at) : path;
}
