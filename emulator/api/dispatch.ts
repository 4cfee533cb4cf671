/**
 * Runs api_v3 calls: finds the service and action (case-insensitive, as the real service), counts the call,
 * and turns every failure into an ApiError outcome. multirequest runs its sub-requests in the order of their
 * keys, copies the top-level ks into each, resolves `{N:result:path}` references and never stops at a failure.
 * As on the real server, N is the sub-request's place in that order, counted from 1, whatever keys the client
 * sent (the official clients send keys from 0, so their `{1:result}` is the first sub-request's result).
 */
import type { EmulatorContext } from "../context/emulatorContext";
import { ApiError } from "../shared/errors";
import { ApiCall, type ServiceDefinition } from "./call";
import { findAction } from "./findAction";
import type { ParamTree, ParamValue } from "./params";

export type Outcome = { ok: true; result: unknown } | { ok: false; error: ApiError };

const REFERENCE = /\{(\d+):result((?::[^:{}]+)*)\}/g;

export class ApiDispatcher {
  constructor(
    private readonly ctx: EmulatorContext,
    private readonly services: readonly ServiceDefinition[],
  ) {}

  async run(service: string, action: string, params: ParamTree): Promise<Outcome> {
    const found = findAction(this.services, service, action);
    this.ctx.stats.count(`${found.service ?? service}.${found.action ?? action}`);
    if (!found.service) {
      return fail(new ApiError("SERVICE_DOES_NOT_EXISTS", `Service "${service}" does not exist`, { SERVICE: service }));
    }
    if (!found.action || !found.handler) {
      return fail(
        new ApiError("ACTION_DOES_NOT_EXISTS", `Action "${action}" does not exist for service "${found.service}"`, { ACTION: action, SERVICE: found.service }),
      );
    }
    try {
      return { ok: true, result: await found.handler(new ApiCall(this.ctx, found.service, found.action, params)) };
    } catch (err) {
      if (err instanceof ApiError) return fail(err);
      this.ctx.log(`internal error in ${found.service}.${found.action}: ${(err as Error).message}`);
      return fail(new ApiError("INTERNAL_SERVER_ERROR", "Internal server error occurred"));
    }
  }

  /** Results in request order; a failed sub-request's slot holds its error object. */
  async multirequest(params: ParamTree): Promise<Outcome[]> {
    this.ctx.stats.count("multirequest");
    const indexes = Object.keys(params)
      .filter((k) => /^\d+$/.test(k) && typeof params[k] === "object" && params[k] !== null)
      .map(Number)
      .sort((a, b) => a - b);
    const results = new Map<number, Outcome>();
    const ordered: Outcome[] = [];
    for (const i of indexes) {
      const sub = structuredClone(params[String(i)] as ParamTree);
      if (sub.ks === undefined && typeof params.ks === "string") sub.ks = params.ks;
      const resolved = resolveReferences(sub, results) as ParamTree;
      const service = typeof resolved.service === "string" ? resolved.service : "";
      const action = typeof resolved.action === "string" ? resolved.action : "";
      const outcome = await this.run(service, action, resolved);
      ordered.push(outcome);
      // Referenced by execution order from 1 (`{1:result}` is the first to run), not by the key sent.
      results.set(ordered.length, outcome);
    }
    return ordered;
  }
}

function fail(error: ApiError): Outcome {
  return { ok: false, error };
}

/** Replaces `{N:result}` / `{N:result:a:b}` in string values with the earlier result's value. */
function resolveReferences(value: ParamValue, results: Map<number, Outcome>): ParamValue {
  if (value === null) return null;
  if (typeof value === "object") {
    const out: ParamTree = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveReferences(v, results);
    return out;
  }
  return value.replace(REFERENCE, (token, index: string, path: string) => {
    const outcome = results.get(Number(index));
    if (!outcome?.ok) return token;
    let node: unknown = outcome.result;
    for (const seg of path.split(":").filter(Boolean)) {
      node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[seg] : undefined;
    }
    return node === undefined || node === null || typeof node === "object" ? token : String(node);
  });
}
