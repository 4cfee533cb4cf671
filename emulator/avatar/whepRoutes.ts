/**
 * WHEP (RFC 9725) playback endpoint of an avatar session, named by the session's unguessable stream key:
 * POST an SDP offer (Content-Type application/sdp) -> a real WebRTC peer (emulator/avatar/whepPeer.ts) answers:
 * 201 with the answer SDP (all candidates included) and a Location to DELETE at the end (closes the peer).
 * 415 wrong content type, 404 no such (or ended) session, 409 a viewer is already attached, 400 not an offer
 * (or one the peer cannot answer), 405 PATCH: no trickle ICE, the offer and the answer carry every candidate.
 */
import { Hono } from "hono";
import { avatarErrorHandler, AvatarHttpError, badRequest, notFound } from "./errors";
import { MAX_BODY_BYTES } from "../middleware/bodyLimits";
import { avatarBodyLimit, pathnameOf } from "./http";
import type { AvatarEmulatorState } from "./state";

export function isSdpOffer(text: string): boolean {
  return text.startsWith("v=0") && /\r?\nm=/.test(text);
}

export function createWhepRoutes(state: AvatarEmulatorState): Hono {
  const app = new Hono();
  app.onError(avatarErrorHandler);
  app.use("*", avatarBodyLimit(MAX_BODY_BYTES.whepOffer, "WHEP offers"));

  app.post("/:streamKey", async (c) => {
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/sdp") throw new AvatarHttpError(415, "WHEP offers must be sent as application/sdp");
    const record = state.sessions.getByStreamKey(c.req.param("streamKey"));
    if (!record || record.endedAt !== undefined) throw notFound("no such avatar session stream");
    if (record.viewer !== undefined) throw new AvatarHttpError(409, "a viewer is already attached to this session");
    const offer = await c.req.text();
    if (!isSdpOffer(offer)) throw badRequest("body must be an SDP offer");
    const resourceId = state.sessions.newResourceId();
    record.viewer = resourceId; // held while the offer is answered, so a concurrent second viewer gets 409
    let answer: string;
    try {
      answer = await state.media.attachViewer(record, resourceId, offer);
    } catch (error) {
      if (record.viewer === resourceId) record.viewer = undefined;
      if (record.endedAt !== undefined) throw notFound("no such avatar session stream");
      throw badRequest(`the offer could not be answered: ${(error as Error).message}`);
    }
    return c.body(answer, 201, {
      "Content-Type": "application/sdp",
      Location: `${pathnameOf(c)}/${resourceId}`,
    });
  });

  app.delete("/:streamKey/:resourceId", async (c) => {
    const record = state.sessions.getByStreamKey(c.req.param("streamKey"));
    if (!record || record.viewer !== c.req.param("resourceId")) throw notFound("no such WHEP resource");
    record.viewer = undefined;
    await state.media.detachViewer(record.id);
    return c.body(null, 200);
  });

  app.patch("/:streamKey/:resourceId", () => {
    throw new AvatarHttpError(405, "trickle ICE is not supported; the offer must carry its candidates");
  });
  return app;
}
