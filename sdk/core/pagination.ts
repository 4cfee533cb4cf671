/**
 * Pagination for api_v3 lists (1-based pageIndex, pageSize up to 500): an AsyncIterable over every
 * item of every page, plus toArray({ limit }). Pages are fetched lazily, one at a time.
 *
 * A list is bounded in items and in the bytes of its answers: a platform that never reports the end (full pages,
 * a totalCount that keeps growing) would otherwise be walked for ever, and toArray() would hold all of it. Past a
 * bound the walk fails (code LIST_TOO_LONG) naming the list call and the bound, never returning a silently cut list.
 */
import { PAGER } from "../../contract/platform";
import { SvcError, SvcValidationError } from "./errors";

export interface Page<T> {
  objects: T[];
  totalCount: number;
  /** The size of the answer this page came in, in bytes, when the caller knows it (else the items' JSON is measured). */
  answerBytes?: number;
}

export interface Paginated<T> extends AsyncIterable<T> {
  /** Collect items (all of them, or the first `limit`). */
  toArray(options?: { limit?: number }): Promise<T[]>;
}

/** How much of a list a walk takes before it fails. */
export interface PaginationBounds {
  /** Items of the list, all pages together (default 100,000). */
  maxItems?: number;
  /** Bytes of the list's answers, all pages together (default 128 MiB). */
  maxBytes?: number;
}

export const PAGINATION_DEFAULTS = {
  maxItems: 100_000,
  maxBytes: 128 * 1024 * 1024,
} as const satisfies Required<PaginationBounds>;

export interface PaginationOptions extends PaginationBounds {
  pageSize?: number;
  /** The list call, as errors name it ("appToken.list"). */
  call?: { service: string; action: string };
}

export function paginate<T>(
  fetchPage: (pageIndex: number, pageSize: number) => Promise<Page<T>>,
  pageSizeOrOptions: number | PaginationOptions = {},
): Paginated<T> {
  const options: PaginationOptions = typeof pageSizeOrOptions === "number" ? { pageSize: pageSizeOrOptions } : pageSizeOrOptions;
  const pageSize = options.pageSize ?? PAGER.maxPageSize;
  const maxItems = bound("maxItems", options.maxItems ?? PAGINATION_DEFAULTS.maxItems, options);
  const maxBytes = bound("maxBytes", options.maxBytes ?? PAGINATION_DEFAULTS.maxBytes, options);
  async function* iterate(): AsyncGenerator<T> {
    let seen = 0;
    let bytes = 0;
    // Each page that does not end the list holds at least one item, so maxItems also bounds the pages.
    for (let pageIndex = PAGER.firstPageIndex; ; pageIndex++) {
      const page = await fetchPage(pageIndex, pageSize);
      for (const item of page.objects) yield item;
      seen += page.objects.length;
      bytes += page.answerBytes ?? Buffer.byteLength(JSON.stringify(page.objects));
      // A short or empty page, or having seen totalCount items, ends the list.
      if (page.objects.length < pageSize || seen >= page.totalCount) return;
      if (seen >= maxItems) throw tooLong(options, `${seen} items`, `maxItems (${maxItems})`);
      if (bytes >= maxBytes) throw tooLong(options, `${bytes} bytes of answers`, `maxBytes (${maxBytes})`);
    }
  }
  return {
    [Symbol.asyncIterator]: iterate,
    async toArray(limitOptions = {}) {
      const limit = limitOptions.limit ?? Number.POSITIVE_INFINITY;
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

function callName(options: PaginationOptions): string {
  return options.call ? `${options.call.service}.${options.call.action}` : "a list";
}

function bound(name: keyof PaginationBounds, value: number, options: PaginationOptions): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new SvcValidationError(`${callName(options)}: ${name} must be a whole number of at least 1`, options.call);
  return value;
}

function tooLong(options: PaginationOptions, taken: string, limit: string): SvcError {
  return new SvcError(
    "LIST_TOO_LONG",
    `${callName(options)}: the list did not end within ${limit}; ${taken} were read and the platform still reports more. ` +
      "Nothing was cut silently: narrow the filter, or, if the account really holds that many, raise the bound (iterate's " +
      "maxItems or maxBytes option)",
    options.call,
  );
}
