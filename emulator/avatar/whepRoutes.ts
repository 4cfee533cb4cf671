/**
 * WHEP (RFC 9725) playback endpoint of an avatar session, named by the session's unguessable stream key:
 * POST an SDP offer (Content-Type application/sdp) -> 201 with the answer and a Location to DELETE later.
 * 415 wrong content type, 404 no such (or ended) session, 409 a viewer is already attached, 400 not an offer,
 * 405 PATCH (no trickle ICE: the client sends its offer after gathering).
 */
import { Hono } from "hono";
import { avatarErrorHandler, AvatarHttpError, badRequest, notFound } from "./errors";
import { pathnameOf } from "./http";
import { buildSdpAnswer, isSdpOffer } from "./sdpAnswer";
import type { AvatarEmulatorState } from "./state";

export function createWhepRoutes(state: AvatarEmulatorState): Hono {
  const app = new Hono();
  app.onError(avatarErrorHandler);

  app.post("/:streamKey", async (c) => {
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/sdp") throw new AvatarHttpError(415, "WHEP offers must be sent as application/sdp");
    const record = state.sessions.getByStreamKey(c.req.param("streamKey"));
    if (!record || record.endedAt !== undefined) throw notFound("no such avatar session stream");
    if (record.viewer !== undefined) throw new AvatarHttpError(409, "a viewer is already attached to this session");
    const offer = await c.req.text();
    if (!isSdpOffer(offer)) throw badRequest("body must be an SDP offer");
    const resourceId = state.sessions.newResourceId();
    record.viewer = resourceId;
    return c.body(buildSdpAnswer(offer), 201, {
      "Content-Type": "application/sdp",
      Location: `${pathnameOf(c)}/${resourceId}`,
    });
  });

  app.delete("/:streamKey/:resourceId", (c) => {
    const record = state.sessions.getByStreamKey(c.req.param("streamKey"));
    if (!record || record.viewer !== c.req.param("resourceId")) throw notFound("no such WHEP resource");
    record.viewer = undefined;
    return c.body(null, 200);
  });

  app.patch("/:streamKey/:resourceId", () => {
    throw new AvatarHttpError(405, "trickle ICE is not supported; send a complete offer");
  });
  return app;
}
