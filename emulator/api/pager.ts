/** The platform's pager: 1-based pageIndex, pageSize default 30 and clamped to 500 (as the real service does). */
import { PAGER } from "../../contract/platform";
import type { ApiCall } from "./call";

export function paginate<T>(call: ApiCall, items: T[]): { objects: T[]; totalCount: number } {
  const pager = call.object("pager") ?? {};
  const size = toPositive(pager.pageSize, PAGER.defaultPageSize);
  const pageSize = Math.min(size, PAGER.maxPageSize);
  const pageIndex = toPositive(pager.pageIndex, PAGER.firstPageIndex);
  const start = (pageIndex - 1) * pageSize;
  return { objects: items.slice(start, start + pageSize), totalCount: items.length };
}

function toPositive(value: unknown, fallback: number): number {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 1 ? n : fallback;
}
