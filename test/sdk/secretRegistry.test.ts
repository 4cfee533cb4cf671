/**
 * Issue 39, finding 15: the registry of exact secrets is bounded (MAX_KNOWN_SECRETS, the one unseen longest dropped
 * first), a secret in use stays redacted however many others come, and a redaction costs about the same with a
 * handful of secrets as with thousands (one pass over the text, not one search per secret). Costs are compared,
 * never timed. The registry is the process's: this file runs in its own worker, its cases in order.
 */
import { describe, expect, it } from "vitest";
import { MAX_KNOWN_SECRETS, redact, registerSecret } from "../../sdk/core/redact";
import { fastestRunNs } from "../support/fastestRun";

/** A secret no pattern knows (not hex, not a ks, no `secret=`): only the registry can redact it. */
const secret = (i: number) => `plain-secret-${i}-of-the-registry`;
const MESSAGE = (inside: string) => `${"the platform said no; ".repeat(40)}quoting ${inside} back, ${"and more text; ".repeat(40)}`;

/** The fastest of 7 runs of `work`. */
const cost = (work: () => void, runs = 7): number => fastestRunNs(work, runs);
const REDACTIONS = 200;
const redactMany = (text: string) => () => {
  for (let i = 0; i < REDACTIONS; i++) redact(text);
};

describe("the registry of exact secrets", () => {
  const live = "live-secret-in-use-all-along";
  const text = MESSAGE(`${live} and ${secret(0)}`);
  let fewCost = 0;

  it("redacts a registered secret exactly, every occurrence", () => {
    registerSecret(live);
    for (let i = 0; i < 64; i++) registerSecret(secret(i));
    expect(redact(text)).not.toContain(live);
    expect(redact(text)).not.toContain(secret(0));
    expect(redact(`${live}${live} ${live}!`)).toMatch(/^(\[REDACTED\])+ \[REDACTED\]!$/);
    fewCost = cost(redactMany(text));
  });

  it("keeps at most MAX_KNOWN_SECRETS: of 20,000, the one unseen longest is dropped; one in use stays", () => {
    for (let i = 64; i < 20_000; i++) {
      registerSecret(secret(i));
      // The live secret is met in a text now and then, as one in use is (or registered again, as a renewal does).
      if (i % 1_000 === 0) expect(redact(MESSAGE(live))).not.toContain(live);
    }
    expect(redact(MESSAGE(live))).not.toContain(live);
    expect(redact(MESSAGE(secret(19_999)))).not.toContain(secret(19_999));
    // Secret 1 was never seen again: more than MAX_KNOWN_SECRETS came after it, so it is no longer known.
    expect(MAX_KNOWN_SECRETS).toBeLessThan(20_000 - 64);
    expect(redact(MESSAGE(secret(1)))).toContain(secret(1));
  });

  it("through the index too: a secret at the text's very start and end, and two that overlap, are all replaced", () => {
    const a = "overlap-alpha-beta";
    const b = "alpha-beta-gamma";
    registerSecret(a);
    registerSecret(b);
    expect(redact(`${live}`)).toBe("[REDACTED]");
    expect(redact(`${secret(19_999)} middle ${secret(19_998)}`)).toBe("[REDACTED] middle [REDACTED]");
    expect(redact("say overlap-alpha-beta-gamma now")).toBe("say [REDACTED] now");
  });

  it("costs about the same with thousands of secrets as with 64 (not one search per secret)", () => {
    expect(fewCost).toBeGreaterThan(0);
    let lowest = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 6 && lowest >= 2; attempt++) lowest = Math.min(lowest, cost(redactMany(text)) / fewCost);
    // With a search per secret, 20,000 against 64 costs hundreds of times more; the margin is for machine noise.
    expect(lowest).toBeLessThan(4);
  });
});
