/**
 * The avatar video API under {avatar_video_url}/api/v1: POST + `Authorization: Bearer <ks>` + JSON body.
 * checkConfiguration reports the account's prerequisite checks; video and avatar lists are scoped to the
 * session's partner and user and need the feature enabled. A `urirestrict` privilege must match the path.
 * `POST /_emulator/configuration` (emulator only) switches checks per account for tests.
 */
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import {
  ConfigurationSwitchRequest,
  EmptyRequest,
  ListRequest,
  type AvatarListResponse,
  type AvatarVideoListResponse,
  type CheckConfigurationResponse,
} from "../../contract/avatar";
import type { AvatarEmulatorContext, AvatarKsInfo, AvatarRouteOptions } from "./context";
import { avatarErrorHandler, forbidden } from "./errors";
import { MAX_BODY_BYTES } from "../middleware/bodyLimits";
import { AVATAR_CORS, avatarBodyLimit, jsonBody, pathnameOf } from "./http";
import { credentialOf, enforceUriRestrict, verifyKs } from "./ksAuth";
import { avatarStateOf } from "./state";

const API_PREFIX = "/api/v1";

export function createAvatarVideoRoutes(ctx: AvatarEmulatorContext, options: AvatarRouteOptions = {}): Hono {
  const state = avatarStateOf(ctx, options);
  const app = new Hono();
  app.use("*", cors({ ...AVATAR_CORS, origin: ctx.access?.corsOrigin ?? AVATAR_CORS.origin }));
  app.onError(avatarErrorHandler);
  // Every route here takes a small JSON body: capped while it streams in (413).
  app.use("*", avatarBodyLimit(MAX_BODY_BYTES.avatarJson, "the avatar video API"));

  const authenticate = async (c: Context): Promise<AvatarKsInfo> => {
    const info = await verifyKs(ctx, credentialOf(c, "Bearer"));
    const full = pathnameOf(c);
    const at = full.indexOf(API_PREFIX);
    enforceUriRestrict(info, full, at >= 0 ? full.slice(at) : full);
    return info;
  };

  app.post(`${API_PREFIX}/partner/checkConfiguration`, async (c) => {
    const info = await authenticate(c);
    await jsonBody(c, EmptyRequest);
    const checks = state.checks(info.partnerId);
    return c.json({ checks, valid: checks.every((check) => check.valid) } satisfies CheckConfigurationResponse);
  });

  const list =
    <T>(pick: (catalog: ReturnType<typeof state.catalogOf>) => T[]) =>
    async (c: Context) => {
      const info = await authenticate(c);
      if (!state.featureEnabled(info.partnerId)) {
        throw forbidden(`the avatar video feature is not enabled for partner ${info.partnerId} (see checkConfiguration)`);
      }
      const pager = await jsonBody(c, ListRequest);
      const all = pick(state.catalogOf(info.partnerId, info.userId));
      const size = pager.pageSize ?? 30;
      const start = ((pager.pageIndex ?? 1) - 1) * size;
      return c.json({ objects: all.slice(start, start + size), totalCount: all.length });
    };
  app.post(
    `${API_PREFIX}/video/list`,
    list<AvatarVideoListResponse["objects"][number]>((catalog) => catalog.videos),
  );
  app.post(
    `${API_PREFIX}/avatar/list`,
    list<AvatarListResponse["objects"][number]>((catalog) => catalog.avatars),
  );

  app.post("/_emulator/configuration", async (c) => {
    const body = await jsonBody(c, ConfigurationSwitchRequest);
    state.setChecks(body.partnerId, body.checks);
    return c.json({ partnerId: body.partnerId, checks: state.checks(body.partnerId) });
  });
  return app;
}
