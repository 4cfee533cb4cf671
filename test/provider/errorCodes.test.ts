/**
 * Issue 39, finding 12: the platform's error `code` is its own text. A code that echoes a credential, or runs for
 * kilobytes, is redacted as a message is and cut to MAX_ERROR_CODE_LENGTH wherever it is shown: on the sdk's error
 * (its code, its inspection, its JSON), in the provider's failure messages and in the events it records.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { failureText } from "../../provider/core/errors";
import { recordEvent } from "../../provider/core/telemetry";
import { messageOf } from "../../provider/definitions/templateSelection";
import { SvcApiError } from "../../sdk";
import { MAX_ERROR_CODE_LENGTH } from "../../sdk/core/errors";
import { registerSecret } from "../../sdk/core/redact";
import { ADMIN_SECRET, KS, apiError, harness } from "../sdk/helpers";

const P = "/api_v3/service/appToken/action";
/** What a hostile or broken platform may send as a code: the session it was sent, a secret-named pair, and length. */
const CODES = [`INVALID_KS_${KS}`, `ERR ks=${KS}`, `ERR ${ADMIN_SECRET}`, `LONG_${"X".repeat(20_000)}`];

// The admin secret as a client that holds it registers it (the harness's client uses a ks).
registerSecret(ADMIN_SECRET);

function expectSafe(text: string, label: string): void {
  expect(text, label).not.toContain(KS);
  expect(text, label).not.toContain(ADMIN_SECRET);
  expect(text, label).not.toContain("X".repeat(MAX_ERROR_CODE_LENGTH));
}

describe("the platform's error code in errors, messages and events", () => {
  it("the sdk's error: code redacted and cut, in the error, its inspection and its JSON", async () => {
    const { pool, client } = harness();
    for (const code of CODES) {
      pool.intercept({ path: `${P}/get`, method: "POST" }).reply(200, apiError(code, "refused"));
      const error = (await client.appTokens.get("0_a").catch((e: unknown) => e)) as SvcApiError;
      expect(error).toBeInstanceOf(SvcApiError);
      expect(error.code.length, code.slice(0, 20)).toBeLessThanOrEqual(MAX_ERROR_CODE_LENGTH);
      expectSafe(error.code, `code ${code.slice(0, 20)}`);
      expectSafe(inspect(error), `inspect ${code.slice(0, 20)}`);
      expectSafe(JSON.stringify(error), `toJSON ${code.slice(0, 20)}`);
    }
    // A code of the platform's own words is kept as it is.
    pool.intercept({ path: `${P}/get`, method: "POST" }).reply(200, apiError("APP_TOKEN_ID_NOT_FOUND", "not found"));
    await expect(client.appTokens.get("0_a")).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
    await client.close();
  });

  it("the provider's failure messages and events: a code from any error (not only the sdk's) redacted and cut", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-error-codes-"));
    const eventsFile = join(dir, "events.jsonl");
    process.env.SVC_PROVIDER_EVENTS_FILE = eventsFile;
    const lines: string[] = [];
    try {
      for (const code of CODES) {
        const error = Object.assign(new Error("the platform refused"), { code });
        for (const text of [messageOf(error), failureText(error, "ERROR")]) {
          expect(text).toMatch(/: the platform refused$/);
          expect(text.length).toBeLessThanOrEqual(MAX_ERROR_CODE_LENGTH + ": the platform refused".length);
          expectSafe(text, `message ${code.slice(0, 20)}`);
        }
        recordEvent((_severity, message) => lines.push(message), {
          type: "interrupted",
          resource: "app token",
          outcome: "unknown",
          cause: failureText(error, "ERROR"),
        });
      }
      for (const line of [...lines, ...readFileSync(eventsFile, "utf8").trim().split("\n")]) {
        expectSafe(line, line.slice(0, 40));
        expect(line.length).toBeLessThan(600);
      }
    } finally {
      delete process.env.SVC_PROVIDER_EVENTS_FILE;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
