/**
 * api_v3 multirequest: several calls in one POST (`1:service`, `1:action`, `1:id`, `2:appToken[description]`...),
 * executed in order by the server; the answer is a JSON array and a failed slot holds its own error.
 * Retried as idempotent only when every entry is; renewed after INVALID_KS only when every slot failed
 * with it (then nothing took effect).
 */
import { z } from "zod";
import { type SvcApiError, SvcResponseError, type SvcError } from "../core/errors";
import type { CallOptions } from "../transport";
import { isIdempotentAction } from "./actionSafety";
import { asApiError, readBody } from "./apiResponse";
import type { FormParams } from "./formEncode";
import type { PlatformApi } from "./platformApi";
import { validateInput, validateResponse } from "./validate";

export interface MultiRequestEntry {
  service: string;
  action: string;
  params?: FormParams;
  /** Optional schema for this slot's result (e.g. AppToken from the contract). */
  schema?: z.ZodType;
}

export type MultiRequestResult = { ok: true; value: unknown } | { ok: false; error: SvcError };

const Entries = z.array(z.looseObject({ service: z.string().min(1), action: z.string().min(1) })).min(1, "at least one request is needed");

const ALL_KS_REJECTED = Symbol("all slots INVALID_KS");

export async function multirequest(api: PlatformApi, entries: MultiRequestEntry[], options: CallOptions = {}): Promise<MultiRequestResult[]> {
  validateInput(Entries, entries, "multirequest");
  const params: FormParams = {};
  entries.forEach((entry, index) => {
    const n = index + 1;
    params[`${n}:service`] = entry.service;
    params[`${n}:action`] = entry.action;
    for (const [key, value] of Object.entries(entry.params ?? {})) params[`${n}:${key}`] = value;
  });
  const send = {
    service: "multirequest",
    action: "multirequest",
    path: "/service/multirequest",
    params,
    idempotent: entries.every((entry) => isIdempotentAction(entry.action)),
  };
  const label = { service: "multirequest", action: "multirequest" };

  // Each slot's error carries the request's id, as the error of a call of its own does.
  let requestId: string | undefined;
  const slots = await api.withSession(
    options,
    async (ks) => {
      const response = await api.send(send, ks, options);
      requestId = response.requestId;
      const body = validateResponse(z.array(z.unknown()), readBody(response, label), label);
      if (body.length !== entries.length) {
        throw new SvcResponseError(`multirequest response: ${body.length} results for ${entries.length} requests`, label);
      }
      const errors = body.map((slot, i) => asApiError(slot, entries[i] ?? label));
      if (errors.every((e) => e?.code === "INVALID_KS")) throw Object.assign(errors[0] as SvcApiError, { [ALL_KS_REJECTED]: true });
      return body;
    },
    (error) => typeof error === "object" && error !== null && ALL_KS_REJECTED in error,
  );

  return slots.map((slot, i): MultiRequestResult => {
    const entry = entries[i] as MultiRequestEntry;
    const apiError = asApiError(slot, { service: entry.service, action: entry.action, requestId });
    if (apiError) return { ok: false, error: apiError };
    if (!entry.schema) return { ok: true, value: slot };
    try {
      return { ok: true, value: validateResponse(entry.schema, slot, { service: entry.service, action: entry.action }) };
    } catch (error) {
      return { ok: false, error: error as SvcError };
    }
  });
}
