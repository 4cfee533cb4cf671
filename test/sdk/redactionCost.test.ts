/**
 * Redaction costs time linear in the text, and a platform's megabyte of error text is cut before it: no answer can
 * freeze the process that reads it (every sdk error runs the platform's text through redact()). Costs are compared,
 * never timed: the same amount of text is redacted once as one big text and as sixteen texts a sixteenth its size,
 * and the big one may cost at most a few times more (a quadratic pattern costs sixteen times more, and far more on
 * the texts below that make a backtracking pattern retry each start).
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripUserinfo } from "../../contract/urlUserinfo";
import { MAX_REDACTED_TEXT, redact, redactWhole, registerSecret } from "../../sdk/core/redact";
import { apiError, harness } from "./helpers";
import { fastestRunNs } from "../support/fastestRun";

const SMALL = 16_000;
const FACTOR = 16;
/** Linear: about 1. The margin is wide (machine noise, a GC pause); quadratic is about FACTOR and more. */
const MAX_COST_RATIO = 4;

/** The fastest of 5 runs of `work`. */
const cost = (work: () => void, runs = 5): number => fastestRunNs(work, runs);

/**
 * The cost of one text of `unit` repeated to FACTOR × SMALL characters, against FACTOR texts of SMALL characters:
 * the lowest of up to six measurements, since noise (another process, a GC pause) only ever raises a ratio, and a
 * quadratic pattern's ratio never comes down to a linear one's.
 */
function costRatio(redactor: (text: string) => string, unit: string): number {
  const small = unit.repeat(Math.ceil(SMALL / unit.length));
  const big = unit.repeat(Math.ceil((SMALL * FACTOR) / unit.length));
  redactor(small); // compiled before measuring
  let lowest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 6 && lowest >= MAX_COST_RATIO / 2; attempt++) {
    const bigCost = cost(() => redactor(big));
    const smallCost = cost(() => {
      for (let i = 0; i < FACTOR; i++) redactor(small);
    });
    lowest = Math.min(lowest, bigCost / smallCost);
  }
  return lowest;
}

/** Texts that make a backtracking pattern retry from each start: one family per pattern, and each pattern's pieces. */
const ADVERSARIAL = [
  "eyJ",
  "eyJa.",
  "a.",
  "djJ8",
  "authorization: ",
  " ",
  "x://",
  "https://a",
  "@",
  '"ks"  ',
  " 1:a[",
  "&token[",
  "0123456789abcdef",
  "Bearer ",
  "https://u:p ",
];

describe("the cost of redaction against the length of the text", () => {
  it("each pattern's adversarial text costs linear time (whole text, no cut)", () => {
    for (const unit of ADVERSARIAL) {
      expect(costRatio(redactWhole, unit), `text of ${JSON.stringify(unit)} repeated`).toBeLessThan(MAX_COST_RATIO);
      expect(costRatio(stripUserinfo, unit), `stripUserinfo of ${JSON.stringify(unit)} repeated`).toBeLessThan(MAX_COST_RATIO);
    }
  });

  it("property: any text built of the patterns' pieces costs linear time", () => {
    const piece = fc.constantFrom(
      "eyJ",
      "djJ8",
      ".",
      ":",
      "=",
      " ",
      "\t",
      "&",
      "?",
      "[",
      "%5B",
      '"',
      "ks",
      "secret",
      "authorization",
      "Bearer",
      "://",
      "@",
      "/",
      "a",
      "0",
      "f",
      "-",
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (pieces) => {
        const unit = pieces.join("");
        expect(costRatio(redactWhole, unit), JSON.stringify(unit)).toBeLessThan(MAX_COST_RATIO);
      }),
      { numRuns: 20 },
    );
  });

  it("a text past MAX_REDACTED_TEXT costs the same whatever its length: it is cut first", () => {
    const megabyte = "eyJ".repeat(350_000);
    const justOver = "eyJ".repeat(Math.ceil((MAX_REDACTED_TEXT * 2) / 3));
    redact(justOver);
    const ratio = Math.min(...[0, 1, 2].map(() => cost(() => redact(megabyte)) / cost(() => redact(justOver))));
    expect(ratio).toBeLessThan(MAX_COST_RATIO);
    expect(redact(megabyte).length).toBeLessThanOrEqual(MAX_REDACTED_TEXT);
  });
});

describe("the cut", () => {
  const MEGABYTE_OF_FILLER = "the platform said no; ".repeat(Math.ceil(1_000_000 / 22) + 1);
  const filler = (length: number) => MEGABYTE_OF_FILLER.slice(0, length);
  const KNOWN = "known-secret-value-0123-xyz";
  registerSecret(KNOWN);
  const shapes: Record<string, string> = {
    known: KNOWN,
    ks: "djJ8NDI0MnxDVVRLU0ZPUlRFU1RTYWJjZGVmZ2hpams",
    jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjdXQifQ.c2lnbmF0dXJlLWN1dA",
    hex: "0123456789abcdef0123456789abcdef0123456789abcdef",
    form: "ks=cutformsecretvalue77",
    userinfo: "https://deploy:cut-pa55 word@api.example.com/api_v3",
  };
  const leaked = (out: string, secret: string): string | undefined => {
    // Any 8 characters of the secret's value (the form's and the URL's: their secret part) count as a leak.
    const value = secret.startsWith("ks=") ? secret.slice(3) : secret.startsWith("https://") ? "cut-pa55 word" : secret;
    for (let i = 0; i + 8 <= value.length; i++) if (out.includes(value.slice(i, i + 8))) return value.slice(i, i + 8);
    return undefined;
  };

  // A secret stands apart from the text around it (a hex run glued to letters is a word, not a token value).
  it("no secret survives, whole or in part, wherever it sits: before, across or after the cut", () => {
    for (const [shape, secret] of Object.entries(shapes)) {
      for (let at = MAX_REDACTED_TEXT - 120; at <= MAX_REDACTED_TEXT + 40; at += 3) {
        const text = `${filler(at)} ${secret} ${filler(1_000_000)}`;
        const out = redact(text);
        expect(out.length).toBeLessThanOrEqual(MAX_REDACTED_TEXT);
        expect(leaked(out, secret), `${shape} at ${at}`).toBeUndefined();
      }
    }
  });

  it("property: secrets anywhere in a megabyte of text never survive, and the note says the text was cut", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(shapes)), fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(" ", "\n", "&"), (shape, at, glue) => {
        const secret = shapes[shape] as string;
        const out = redact(`${filler(at)}${glue}${secret}${glue}${filler(1_000_000 - at)}`);
        expect(leaked(out, secret)).toBeUndefined();
        expect(out).toMatch(/\[cut: \d+ characters in all\]$/);
      }),
      { numRuns: 200 },
    );
  });

  it("a 1 MB error message from a stand-in platform is cut, redacted and answered", async () => {
    const { pool, client } = harness({ maxRetries: 0 });
    const secret = shapes.hex as string;
    const message = `${filler(MAX_REDACTED_TEXT - 30)}${secret}${"eyJ".repeat(350_000)} ${secret}`;
    pool
      .intercept({ path: /.*/, method: "POST" })
      .reply(200, apiError("SERVICE_FORBIDDEN", message, { SECRET: secret }))
      .persist();
    const error = (await client.appTokens.list().catch((e: unknown) => e)) as Error;
    expect(error.message.length).toBeLessThanOrEqual(MAX_REDACTED_TEXT);
    expect(error.message).toContain("characters in all]");
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(secret.slice(0, 12));
    await client.close();
  });
});
