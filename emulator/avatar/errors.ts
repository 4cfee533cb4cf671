/**
 * The avatar APIs' one error: thrown by handlers, turned into `{success: false, error[, reason]}` with its
 * status by `avatarErrorHandler` (each avatar router's onError). Messages never carry tokens or ks strings.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AvatarErrorBody, EndReason } from "../../contract/avatar";
import { OptionalPackageMissingError } from "../shared/optionalPackages";

export class AvatarHttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly reason?: EndReason,
  ) {
    super(message);
    this.name = "AvatarHttpError";
  }
}

export function avatarErrorHandler(error: Error, c: Context): Response {
  if (error instanceof AvatarHttpError) {
    const body: AvatarErrorBody = { success: false, error: error.message };
    if (error.reason) body.reason = error.reason;
    return c.json(body, error.status);
  }
  // The media stack is an optional package: say what to install rather than "internal server error".
  if (error instanceof OptionalPackageMissingError) return c.json({ success: false, error: error.message } satisfies AvatarErrorBody, 501);
  return c.json({ success: false, error: "internal server error" } satisfies AvatarErrorBody, 500);
}

export const badRequest = (message: string) => new AvatarHttpError(400, message);
export const unauthorized = (message: string) => new AvatarHttpError(401, message);
export const forbidden = (message: string) => new AvatarHttpError(403, message);
export const notFound = (message: string) => new AvatarHttpError(404, message);
export const gone = (reason: EndReason | undefined) => new AvatarHttpError(410, "session already ended", reason);
