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
    expect(hops.map((h) => h.number)).toEqual(expect.arrayContaining(["1", "6", "2n", "5n", "20", "24"]));
  });

  // The dynamic path is every numbered hop up to the answer; the native one leaves it after hop 1 and joins it again
  // at the first hop reached from a native one (`from 5n`).
  const onTheWay = hops.filter((h) => /^\d+$/.test(h.number) && h.reached !== "return").map((h) => h.number);
  const joinedAt = Number(hops.find((h) => /^\d+$/.test(h.number) && /from \d+n\b/.test(h.reached))?.number);
  const nativePath = ["1", ...hops.filter((h) => h.number.endsWith("n")).map((h) => h.number), ...onTheWay.filter((n) => Number(n) >= joinedAt)];

  it("gives the blind hops of each path as the table marks them", () => {
    const blind = (path: string[]) => path.filter((n) => hops.find((h) => h.number === n)?.reached === "blind");
    const listed = (numbers: string[]) => (numbers.length > 0 ? `${numbers.length} (${numbers.join(", ")})` : "none");
    expect(page).toContain(`Blind hops: dynamic provider ${listed(blind(onTheWay))}; native plugin ${listed(blind(nativePath))}.`);
  });

  it("gives the count of hops of each path as the tables have them", () => {
    expect(joinedAt).toBeGreaterThan(1);
    expect(page).toContain(`hops ${2} to ${joinedAt - 1} are these, and hop ${joinedAt} follows`);
    const counted = onTheWay.length === nativePath.length ? `${onTheWay.length} hops on either path` : `${onTheWay.length} hops on the dynamic provider`;
    expect(page).toContain(`From the program to the handler, ${counted}`);
  });

  it("every hop's files and functions exist, and each is reached the way the page says", () => {
    expect(hopProblems(hops, repo)).toEqual([]);
  }, 60_000);
});
