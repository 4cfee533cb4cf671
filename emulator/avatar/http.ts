/** Small request helpers shared by the avatar routers. */
import { describeIssues as describeContractIssues } from "../../contract/issues";
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { limitBody } from "../middleware/bodyLimits";
import { AvatarHttpError, badRequest } from "./errors";

/** CORS for the browser library: any origin, the Authorization header, and Location readable (WHEP). */
export const AVATAR_CORS = {
  origin: "*",
  allowHeaders: ["Authorization", "Content-Type"],
  allowMethods: ["GET", "POST", "DELETE", "PATCH", "OPTIONS"],
  exposeHeaders: ["Location"],
  maxAge: 600,
};

/** Refuses bodies over `maxBytes` while they stream in: 413 in the avatar APIs' error shape. */
export function avatarBodyLimit(maxBytes: number, what: string): MiddlewareHandler {
  return limitBody(maxBytes, what, (message) => new AvatarHttpError(413, message));
}

/** Parse the JSON body (empty body = `{}`) with a contract schema; 400 naming the field on failure. */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest("body must be a JSON object");
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error));
  return parsed.data;
}

export function describeIssues(error: z.ZodError): string {
  return describeContractIssues(error.issues, { path: [] });
}

export function pathnameOf(c: Context): string {
  return new URL(c.req.url).pathname;
}
