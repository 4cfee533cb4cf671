/** The emulator's stored app tokens: the record type and the lookup both the appToken actions and startSession use. */
import { AppTokenStatus, type AppToken } from "../../contract/platform";
import type { EmulatorContext } from "../context/emulatorContext";
import { ApiError } from "../shared/errors";

export type AppTokenRecord = AppToken & { token: string };

export function findAppToken(ctx: EmulatorContext, partnerId: number, id: string): AppTokenRecord {
  const t = ctx.store.getDoc<AppTokenRecord>("appToken", id);
  if (!t || t.partnerId !== partnerId || t.status === AppTokenStatus.DELETED) {
    throw new ApiError("APP_TOKEN_ID_NOT_FOUND", `Application token id "${id}" not found`, { ID: id });
  }
  return t;
}
