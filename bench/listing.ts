/**
 * The emulator's listing at size: an account holding N app tokens (and N/10 HTTP templates), listed whole in pages
 * of 500 (the platform's cap), one filtered listing (a hash type a tenth of the tokens have) and one page from the
 * middle; at each size, so the growth from 1k to 10k objects shows. The emulator runs in this process and is called
 * through its Hono app (no socket): the figures are the emulator's own work per listing.
 * Run alone with `node dist/bench/listing.js [sizes]` (after `npm run build`).
 */
import { createEmulatorApp, createEmulatorContext } from "../emulator/index";
import { fmt, median, table } from "./report";
import type { BenchPart } from "./benchPart";

export const DEFAULT_LISTING_SIZES = [1_000, 10_000];
const PAGE = 500;

export interface ListingRow {
  objects: number;
  /** Every active token, page by page (ceil(N / 500) calls). */
  allTokensMs: number;
  pages: number;
  msPerPage: number;
  /** hashTypeEqual=SHA512 (a tenth of the tokens), every page. */
  filteredMs: number;
  /** The one page in the middle of the listing. */
  middlePageMs: number;
  /** N/10 HTTP templates, every page (listed by id, descending). */
  templates: number;
  allTemplatesMs: number;
}

const form = (p: Record<string, string | number>): string => new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)])).toString();

/** Lists `objects` tokens and `objects / 10` templates in a new in-memory emulator; medians of `rounds`. */
export async function benchListingAt(objects: number, rounds = 3): Promise<ListingRow> {
  const ctx = createEmulatorContext({ partnerId: 4242, adminSecret: "bench-listing-secret", quiet: true });
  const app = createEmulatorApp(ctx);
  try {
    const call = async (service: string, action: string, params: Record<string, string | number>): Promise<Record<string, unknown>> => {
      const res = await app.request(`/api_v3/service/${service}/action/${action}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form({ format: 1, ...params }),
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status !== 200 || body.objectType === "SvcAPIException") throw new Error(`${service}.${action}: ${JSON.stringify(body).slice(0, 120)}`);
      return body;
    };
    const ks = (await call("session", "start", {
      secret: "bench-listing-secret",
      partnerId: 4242,
      type: 2,
      privileges: "disableentitlement",
    })) as unknown as string;
    seed(ctx, objects);
    const listAll = async (service: string, filter: Record<string, string>): Promise<number> => {
      let seen = 0;
      for (let pageIndex = 1; ; pageIndex++) {
        const filterParams = Object.fromEntries(Object.entries(filter).map(([k, v]) => [`filter[${k}]`, v]));
        const page = (await call(service, "list", { ks, ...filterParams, "pager[pageSize]": PAGE, "pager[pageIndex]": pageIndex })) as {
          objects?: unknown[];
          totalCount: number;
        };
        seen += page.objects?.length ?? 0;
        if (!page.objects?.length || seen >= page.totalCount) return seen;
      }
    };
    const timed = async (fn: () => Promise<unknown>): Promise<number> => {
      const ms: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const start = performance.now();
        await fn();
        ms.push(performance.now() - start);
      }
      return Math.round(median(ms) * 10) / 10;
    };
    const count = await listAll("appToken", { statusEqual: "2" });
    if (count !== objects) throw new Error(`listed ${count} tokens, expected ${objects}`);
    const templates = Math.floor(objects / 10);
    const allTokensMs = await timed(() => listAll("appToken", { statusEqual: "2" }));
    const pages = Math.ceil(objects / PAGE);
    return {
      objects,
      allTokensMs,
      pages,
      msPerPage: Math.round((allTokensMs / pages) * 100) / 100,
      filteredMs: await timed(() => listAll("appToken", { hashTypeEqual: "SHA512" })),
      middlePageMs: await timed(() => call("appToken", "list", { ks, "pager[pageSize]": PAGE, "pager[pageIndex]": Math.max(1, Math.floor(pages / 2)) })),
      templates,
      allTemplatesMs: await timed(() => listAll("eventnotification_eventnotificationtemplate", {})),
    };
  } finally {
    await ctx.close();
  }
}

/** Writes the tokens and templates straight into the store (one transaction): the listing is measured, not the adds. */
function seed(ctx: ReturnType<typeof createEmulatorContext>, objects: number): void {
  const now = Math.floor(Date.now() / 1000);
  ctx.store.transaction(() => {
    for (let i = 0; i < objects; i++) {
      const id = `0_${i.toString(36).padStart(8, "0")}`;
      const hashType = i % 10 === 0 ? "SHA512" : "SHA256";
      ctx.store.putDoc("appToken", id, 4242, {
        id,
        token: "0".repeat(64),
        partnerId: 4242,
        status: 2,
        sessionType: 0,
        sessionDuration: 0,
        sessionUserId: "",
        hashType,
        description: `listed token ${i}`,
        expiry: 0,
        createdAt: now,
        updatedAt: now,
        objectType: "SvcAppToken",
      });
    }
    for (let i = 0; i < Math.floor(objects / 10); i++) {
      const id = String(ctx.store.nextSeq("template", 1001));
      ctx.store.putDoc("template", id, 4242, {
        id,
        partnerId: 4242,
        name: `listed hook ${i}`,
        systemName: `LISTED_${i}`,
        type: "httpNotification.Http",
        status: 1,
        eventType: 12,
        eventObjectType: 1,
        event: "entry.ready",
        url: "https://hooks.example.com/listed",
        method: 2,
        createdAt: now,
        updatedAt: now,
        objectType: "SvcHttpNotificationTemplate",
      });
    }
  });
}

export async function benchListing(sizes: number[] = DEFAULT_LISTING_SIZES, rounds = 3): Promise<ListingRow[]> {
  const rows: ListingRow[] = [];
  for (const size of sizes) rows.push(await benchListingAt(size, rounds));
  return rows;
}

export const listingPart: BenchPart<ListingRow[]> = {
  title: "Emulator listing at size: one account, pages of 500 (the platform's cap), in process",
  run: () => benchListing(DEFAULT_LISTING_SIZES),
  render: (rows) =>
    table(
      ["objects", "all tokens ms", "pages", "ms/page", "filtered ms", "middle page ms", "templates", "all templates ms"],
      rows.map((r) => [
        fmt(r.objects),
        fmt(r.allTokensMs, 1),
        fmt(r.pages),
        fmt(r.msPerPage, 2),
        fmt(r.filteredMs, 1),
        fmt(r.middlePageMs, 1),
        fmt(r.templates),
        fmt(r.allTemplatesMs, 1),
      ]),
    ),
};

if (require.main === module) {
  const sizes = process.argv[2] ? process.argv[2].split(",").map(Number) : DEFAULT_LISTING_SIZES;
  benchListing(sizes).then(
    (rows) => console.log(JSON.stringify(rows, null, 2)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
