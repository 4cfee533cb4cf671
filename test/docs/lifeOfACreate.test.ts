/**
 * docs/life-of-a-create.md against the code: every hop's files exist and implement the functions it names, and its
 * "Reached" column is true both ways (hopTable.ts): `from N` resolves from hop N's files by go to definition,
 * `implements N` by go to implementation from the interface member hop N calls, `blind` from no earlier hop's; the count of blind hops the page gives is the table's.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { hopProblems, hopsOf } from "./hopTable";

const repo = resolve(__dirname, "..", "..");
const page = readFileSync(join(repo, "docs", "life-of-a-create.md"), "utf8");
const hops = hopsOf(page, repo);

describe("life of a create", () => {
  it("reads every hop of the page", () => {
    expect(hops.map((h) => h.number)).toEqual(expect.arrayContaining(["1", "7", "2n", "5n", "21", "25"]));
  });

  it("gives the blind hops of each path as the table marks them", () => {
    const blind = (path: string[]) => path.filter((n) => hops.find((h) => h.number === n)?.reached === "blind");
    const onTheWay = hops.filter((h) => /^\d+$/.test(h.number) && h.reached !== "return").map((h) => h.number);
    const dynamic = blind(onTheWay);
    const native = blind(["1", ...hops.filter((h) => h.number.endsWith("n")).map((h) => h.number), ...onTheWay.filter((n) => Number(n) >= 7)]);
    const listed = (numbers: string[]) => (numbers.length > 0 ? `${numbers.length} (${numbers.join(", ")})` : "none");
    expect(page).toContain(`Blind hops: dynamic provider ${listed(dynamic)}; native plugin ${listed(native)}.`);
  });

  it("every hop's files and functions exist, and each is reached the way the page says", () => {
    expect(hopProblems(hops, repo)).toEqual([]);
  }, 60_000);
});
