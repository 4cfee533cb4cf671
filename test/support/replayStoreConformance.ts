/**
 * The one conformance suite of the replay stores (issue 34): memory, SQLite and PostgreSQL run the same cases on
 * their public API. Time is real (short leases and windows, then a wait past them), since the PostgreSQL store
 * takes its time from the database's clock; no case asserts how long anything took.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { ReplayStore, ReplayStoreOwnership } from "../../sdk";

export interface StoreUnderTest {
  /** A fresh store on a fresh table or file; `twin()` a second instance on the same data (another process's view). */
  make(): Promise<{ store: ReplayStore; twin(): Promise<ReplayStore> }>;
}

const HOUR = 3_600_000;
/** Short holds that lapse during the test, and the wait that outlasts them. */
const SHORT = 100;
const PAST_SHORT = 300;

let counter = 0;
const fresh = (label: string) => `${label}-${process.pid}-${++counter}`;

export function replayStoreConformance(name: string, subject: StoreUnderTest): void {
  describe(`ReplayStore conformance: ${name}`, () => {
    it("claimed, then in-progress for anyone else; done after the holder's complete; duplicate for the window", async () => {
      const { store } = await subject.make();
      const key = fresh("life");
      expect(await store.claim(key, HOUR, "a")).toBe("claimed");
      expect(await store.claim(key, HOUR, "b")).toBe("in-progress");
      await store.complete(key, HOUR, "a");
      expect(await store.claim(key, HOUR, "b")).toBe("duplicate");
      await store.release(key, "a");
      expect(await store.claim(key, HOUR, "c")).toBe("duplicate");
    });

    it("the holder's release forgets the key: the next attempt is claimed", async () => {
      const { store } = await subject.make();
      const key = fresh("release");
      expect(await store.claim(key, HOUR, "a")).toBe("claimed");
      await store.release(key, "a");
      expect(await store.claim(key, HOUR, "b")).toBe("claimed");
    });

    it("owned claims: another owner's release and complete do not count", async () => {
      const { store } = await subject.make();
      const key = fresh("owned");
      expect(await store.claim(key, HOUR, "holder")).toBe("claimed");
      await store.release(key, "stranger");
      expect(await store.claim(key, HOUR, "next")).toBe("in-progress");
      await store.complete(key, HOUR, "stranger");
      expect(await store.claim(key, HOUR, "next")).toBe("in-progress");
      await store.release(key, "holder");
      expect(await store.claim(key, HOUR, "next")).toBe("claimed");
    });

    it("a lease lapses; the late holder can then neither release nor complete the new holder's claim", async () => {
      const { store } = await subject.make();
      const key = fresh("lapse");
      expect(await store.claim(key, SHORT, "slow")).toBe("claimed");
      await sleep(PAST_SHORT);
      expect(await store.claim(key, HOUR, "retry")).toBe("claimed");
      await store.release(key, "slow");
      expect(await store.claim(key, HOUR, "third")).toBe("in-progress");
      await store.complete(key, HOUR, "slow");
      await store.release(key, "retry");
      expect(await store.claim(key, HOUR, "third")).toBe("claimed");
    });

    it("a holder whose lease lapsed with nobody taking over still completes; complete of an absent key records it", async () => {
      const { store } = await subject.make();
      const late = fresh("late");
      expect(await store.claim(late, SHORT, "slow")).toBe("claimed");
      await sleep(PAST_SHORT);
      await store.complete(late, HOUR, "slow");
      expect(await store.claim(late, HOUR, "retry")).toBe("duplicate");
      const absent = fresh("absent");
      await store.complete(absent, HOUR, "someone");
      expect(await store.claim(absent, HOUR, "retry")).toBe("duplicate");
    });

    it("a done key is forgotten after its window (a short window here; the first case checks it holds within)", async () => {
      const { store } = await subject.make();
      const key = fresh("window");
      expect(await store.claim(key, HOUR, "a")).toBe("claimed");
      await store.complete(key, SHORT, "a");
      await sleep(PAST_SHORT);
      expect(await store.claim(key, HOUR, "b")).toBe("claimed");
    });

    it("calls without an owner on one instance match each other", async () => {
      const { store } = await subject.make();
      const key = fresh("unowned");
      expect(await store.claim(key, HOUR)).toBe("claimed");
      await store.release(key);
      expect(await store.claim(key, HOUR)).toBe("claimed");
      await store.complete(key, HOUR);
      expect(await store.claim(key, HOUR)).toBe("duplicate");
    });

    it("keys are independent and any string is a key", async () => {
      const { store } = await subject.make();
      const keys = [fresh("k"), `${fresh("quote")}'; DROP TABLE x; --`, `${fresh("wide")}-é-😀-${"x".repeat(200)}`];
      for (const key of keys) expect(await store.claim(key, HOUR, "a")).toBe("claimed");
      await store.complete(keys[0]!, HOUR, "a");
      expect(await store.claim(keys[0]!, HOUR, "b")).toBe("duplicate");
      expect(await store.claim(keys[1]!, HOUR, "b")).toBe("in-progress");
      expect(await store.claim(keys[2]!, HOUR, "b")).toBe("in-progress");
    });

    it("concurrent claims of one key, half of them on a second instance: exactly one is claimed", async () => {
      const { store, twin } = await subject.make();
      const other = await twin();
      for (let round = 0; round < 5; round++) {
        const key = fresh(`race${round}`);
        const results = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? store : other).claim(key, HOUR, `owner-${i}`)));
        expect(results.filter((r) => r === "claimed")).toHaveLength(1);
        expect(results.filter((r) => r === "in-progress")).toHaveLength(15);
      }
    });
  });
}

export interface SharedStoreUnderTest {
  /** A fresh file or table, and a maker of instances on it (each another process's view) with the given options. */
  make(): Promise<(options?: ReplayStoreOwnership) => Promise<ReplayStore>>;
}

/**
 * Issue 39, finding 16: the stores several processes share (SQLite, PostgreSQL). A call without an owner acts for
 * the instance that receives it: another instance's `release` or `complete` without an owner never frees or
 * completes its claim, unless both are told to share unowned claims.
 */
export function sharedStoreOwnership(name: string, subject: SharedStoreUnderTest): void {
  describe(`ReplayStore ownership across instances: ${name}`, () => {
    it("by default, another instance's release or complete without an owner changes nothing of this one's claim", async () => {
      const open = await subject.make();
      const [store, other] = [await open(), await open()];
      const key = fresh("instance-owned");
      expect(await store.claim(key, HOUR)).toBe("claimed");
      await other.release(key);
      expect(await other.claim(key, HOUR)).toBe("in-progress");
      await other.complete(key, HOUR);
      expect(await other.claim(key, HOUR, "next")).toBe("in-progress");
      // Its own instance still releases it (and completes it) without an owner.
      await store.release(key);
      expect(await other.claim(key, HOUR)).toBe("claimed");
      await other.complete(key, HOUR);
      expect(await store.claim(key, HOUR)).toBe("duplicate");
    });

    it("shareUnownedClaims: true on both: a release without an owner from either frees the claim", async () => {
      const open = await subject.make();
      const [store, other] = [await open({ shareUnownedClaims: true }), await open({ shareUnownedClaims: true })];
      const key = fresh("shared");
      expect(await store.claim(key, HOUR)).toBe("claimed");
      await other.release(key);
      expect(await other.claim(key, HOUR)).toBe("claimed");
      await store.complete(key, HOUR);
      expect(await other.claim(key, HOUR)).toBe("duplicate");
    });

    it("an option that is not true or false is refused", async () => {
      const open = await subject.make();
      await expect(async () => open({ shareUnownedClaims: "yes" as unknown as boolean })).rejects.toThrow(/"shareUnownedClaims" must be true or false/);
    });
  });
}
