/** The platform's pager: 1-based pageIndex, pageSize default 30 and clamped to 500 (as the real service does). */
import { PAGER } from "../../contract/platform";
import type { ApiCall } from "./call";

/** The call's page as an offset and a limit (for listings the store pages itself). */
export function pageOf(call: ApiCall): { offset: number; limit: number } {
  const pager = call.object("pager") ?? {};
  const size = toPositive(pager.pageSize, PAGER.defaultPageSize);
  const limit = Math.min(size, PAGER.maxPageSize);
  const pageIndex = toPositive(pager.pageIndex, PAGER.firstPageIndex);
  return { offset: (pageIndex - 1) * limit, limit };
}

/** One page of a list held in memory (the system template catalog). */
export function paginate<T>(call: ApiCall, items: T[]): { objects: T[]; totalCount: number } {
  const { offset, limit } = pageOf(call);
  return { objects: items.slice(offset, offset + limit), totalCount: items.length };
}

function toPositive(value: unknown, fallback: number): number {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 1 ? n : fallback;
}
