/**
 * Pagination for api_v3 lists (1-based pageIndex, pageSize up to 500): an AsyncIterable over every
 * item of every page, plus toArray({ limit }). Pages are fetched lazily, one at a time.
 */
import { PAGER } from "../../contract/platform";

export interface Page<T> {
  objects: T[];
  totalCount: number;
}

export interface Paginated<T> extends AsyncIterable<T> {
  /** Collect items (all of them, or the first `limit`). */
  toArray(options?: { limit?: number }): Promise<T[]>;
}

/** Hard stop against a server that never reports the end. */
const MAX_PAGES = 10_000;

export function paginate<T>(fetchPage: (pageIndex: number, pageSize: number) => Promise<Page<T>>, pageSize: number = PAGER.maxPageSize): Paginated<T> {
  async function* iterate(): AsyncGenerator<T> {
    let seen = 0;
    for (let pageIndex = PAGER.firstPageIndex; pageIndex < PAGER.firstPageIndex + MAX_PAGES; pageIndex++) {
      const page = await fetchPage(pageIndex, pageSize);
      for (const item of page.objects) yield item;
      seen += page.objects.length;
      // A short or empty page, or having seen totalCount items, ends the list.
      if (page.objects.length < pageSize || seen >= page.totalCount) return;
    }
  }
  return {
    [Symbol.asyncIterator]: iterate,
    async toArray(options = {}) {
      const limit = options.limit ?? Number.POSITIVE_INFINITY;
      const items: T[] = [];
      if (limit <= 0) return items;
      for await (const item of iterate()) {
        items.push(item);
        if (items.length >= limit) break;
      }
      return items;
    },
  };
}
