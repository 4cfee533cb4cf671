/**
 * Listing an account with more objects than one page (the platform caps pages at 500): every object once, in the
 * platform's order, with the filters applied before paging and the count of all that match. The store filters and
 * pages in SQL (emulator/store/store.ts pageDocs); these are the answers it must keep.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcess, type InProcess, PARTNER_ID } from "../emulator/helpers";

const TOKENS = 1_234;
const TEMPLATES = 620;

describe("listing more than a page", () => {
  let emu: InProcess;
  let ks: string;
  beforeAll(async () => {
    emu = inProcess();
    ks = await emu.adminKs();
    const now = Math.floor(Date.now() / 1000);
    emu.ctx.store.transaction(() => {
      for (let i = 0; i < TOKENS; i++) {
        const id = `0_${i.toString(36).padStart(8, "0")}`;
        // Every 7th deleted, every 10th SHA512, every 3rd ADMIN.
        emu.ctx.store.putDoc("appToken", id, PARTNER_ID, {
          ...{ id, token: "0".repeat(64), partnerId: PARTNER_ID, sessionDuration: 0, sessionUserId: "", expiry: 0, createdAt: now, updatedAt: now },
          ...{ status: i % 7 === 0 ? 3 : 2, hashType: i % 10 === 0 ? "SHA512" : "SHA256", sessionType: i % 3 === 0 ? 2 : 0, objectType: "SvcAppToken" },
        });
      }
    });
    for (let i = 0; i < TEMPLATES; i++) {
      await emu.call("eventnotification_eventnotificationtemplate", "clone", {
        ks,
        id: 105,
        "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
        "eventNotificationTemplate[name]": `hook ${i}`,
        "eventNotificationTemplate[systemName]": `HOOK_${i}`,
        "eventNotificationTemplate[url]": "https://hooks.example.com/x",
      });
    }
  }, 120_000);
  afterAll(() => emu.close());

  const listAll = async (service: string, filter: Record<string, string | number>, pageSize = 500) => {
    const ids: string[] = [];
    const totals = new Set<number>();
    for (let pageIndex = 1; ; pageIndex++) {
      const filterParams = Object.fromEntries(Object.entries(filter).map(([k, v]) => [`filter[${k}]`, v]));
      const page = await emu.call(service, "list", { ks, ...filterParams, "pager[pageSize]": pageSize, "pager[pageIndex]": pageIndex });
      totals.add(page.totalCount);
      if (!page.objects?.length) break;
      ids.push(...page.objects.map((o: { id: string }) => o.id));
    }
    return { ids, totals: [...totals] };
  };
  const expectedTokens = (keep: (i: number) => boolean) =>
    Array.from({ length: TOKENS }, (_, i) => i)
      .filter(keep)
      .map((i) => `0_${i.toString(36).padStart(8, "0")}`);

  it("pages through every token once, in creation order, the deleted ones left out", async () => {
    const { ids, totals } = await listAll("appToken", {});
    expect(ids).toEqual(expectedTokens((i) => i % 7 !== 0));
    expect(totals).toEqual([ids.length]);
  });

  it("a page size above 500 is clamped to 500", async () => {
    const page = await emu.call("appToken", "list", { ks, "pager[pageSize]": 2000, "pager[pageIndex]": 2 });
    expect(page.objects).toHaveLength(500);
    expect(page.objects[0].id).toBe(expectedTokens((i) => i % 7 !== 0)[500]);
  });

  it("filters before paging, and counts what matches", async () => {
    const sha512Admin = await listAll("appToken", { hashTypeEqual: "SHA512", sessionTypeEqual: 2 }, 7);
    expect(sha512Admin.ids).toEqual(expectedTokens((i) => i % 7 !== 0 && i % 10 === 0 && i % 3 === 0));
    expect(sha512Admin.totals).toEqual([sha512Admin.ids.length]);
    const deleted = await listAll("appToken", { statusEqual: 3 });
    expect(deleted.ids).toEqual(expectedTokens((i) => i % 7 === 0));
    const one = await listAll("appToken", { idEqual: "0_00000001" });
    expect(one.ids).toEqual(["0_00000001"]);
  });

  it("pages through the account's templates newest first, and finds one by system name", async () => {
    const { ids, totals } = await listAll("eventnotification_eventnotificationtemplate", {});
    expect(ids).toHaveLength(TEMPLATES);
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => b - a));
    expect(totals).toEqual([TEMPLATES]);
    const named = await listAll("eventnotification_eventnotificationtemplate", { systemNameEqual: "HOOK_300" });
    expect(named.ids).toHaveLength(1);
  });

  it("refuses a system name already in use among hundreds of templates", async () => {
    const clash = await emu.call("eventnotification_eventnotificationtemplate", "clone", {
      ks,
      id: 105,
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[name]": "again",
      "eventNotificationTemplate[systemName]": "HOOK_599",
      "eventNotificationTemplate[url]": "https://hooks.example.com/x",
    });
    expect(clash.code).toBe("EVENT_NOTIFICATION_TEMPLATE_DUPLICATE_SYSTEM_NAME");
  });
});
