/**
 * Session-string checks shared by the avatar routers: read the ks from the Authorization header (scheme KS
 * for session create, Bearer for the video API), verify it, and enforce a `urirestrict` privilege.
 */
import type { Context } from "hono";
import type { AvatarEmulatorContext, AvatarKsInfo } from "./context";
import { forbidden, unauthorized } from "./errors";

export function credentialOf(c: Context, scheme: "KS" | "Bearer"): string {
  const header = c.req.header("authorization") ?? "";
  const match = /^(\S+)\s+(\S+)$/.exec(header.trim());
  if (!match || match[1]?.toLowerCase() !== scheme.toLowerCase() || !match[2]) {
    throw unauthorized(`missing Authorization: ${scheme} <session string>`);
  }
  return match[2];
}

export async function verifyKs(ctx: AvatarEmulatorContext, ks: string): Promise<AvatarKsInfo> {
  let info: AvatarKsInfo;
  try {
    info = await ctx.sessions.verify(ks);
  } catch {
    throw unauthorized("session string invalid");
  }
  if (info.isWidget) throw forbidden("a widget session cannot use the avatar APIs");
  return info;
}

/**
 * `urirestrict:<pattern>`: the pattern (`*` matches anything, `|` separates alternatives) must match the
 * request path, either as seen under the API root (`/api/v1/video/list`) or in full (`/avatar-video/api/v1/...`).
 */
export function enforceUriRestrict(info: AvatarKsInfo, fullPath: string, apiPath: string): void {
  const restriction = info.privileges.urirestrict;
  if (restriction === undefined) return;
  const patterns = restriction
    .split("|")
    .map((p) => p.trim())
    .filter(Boolean);
  const matches = patterns.some((pattern) => {
    const regex = new RegExp(`^${pattern.split("*").map(escapeRegex).join(".*")}$`);
    return regex.test(apiPath) || regex.test(fullPath);
  });
  if (!matches) throw forbidden(`session is restricted to ${restriction}; ${apiPath} is outside it`);
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}
