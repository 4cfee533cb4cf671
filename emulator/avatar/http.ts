/** Small request helpers shared by the avatar routers. */
import { describeIssues as describeContractIssues } from "../../contract/issues";
import type { Context } from "hono";
import type { z } from "zod";
import { badRequest } from "./errors";

/** CORS for the browser library: any origin, the Authorization header, and Location readable (WHEP). */
export const AVATAR_CORS = {
  origin: "*",
  allowHeaders: ["Authorization", "Content-Type"],
  allowMethods: ["GET", "POST", "DELETE", "PATCH", "OPTIONS"],
  exposeHeaders: ["Location"],
  maxAge: 600,
};

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
