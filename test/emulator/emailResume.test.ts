/** The email delivery log is durable: an email still pending at shutdown is sent after a restart, the same message. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { editors, emailFields } from "./emailHelpers";
import { ADMIN_SECRET, httpCall, PARTNER_ID } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";
const dir = mkdtempSync(join(tmpdir(), "svc-emulator-email-resume-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("email jobs are durable", () => {
  it("an email still pending at shutdown is sent after a restart", async () => {
    const opts = { stateFile: join(dir, "state.db"), partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET, quiet: true };
    // First run: the sink answers the first attempt 451; the retry is an hour away when the emulator stops.
    const first = await startEmulator({ ...opts, delivery: { initialDelayMs: 3_600_000 }, faults: { next: ["error"], pathIncludes: "/smtp/" } });
    const ks = await httpCall(first.baseUrl, "session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2, privileges: "disableentitlement" });
    const t = await httpCall(first.baseUrl, SVC, "clone", {
      ks,
      id: "202",
      "eventNotificationTemplate[objectType]": "SvcEmailNotificationTemplate",
      ...emailFields(editors),
    });
    await httpCall(first.baseUrl, SVC, "updateStatus", { ks, id: t.id, status: 2 });
    first.ctx.events.raise(PARTNER_ID, "entry.ready", { id: "0_keep", name: "kept" });
    let log = first.ctx.mail.log.list({ templateId: t.id });
    while (log[0]?.attempts.length !== 1) {
      await new Promise((r) => setTimeout(r, 10));
      log = first.ctx.mail.log.list({ templateId: t.id });
    }
    expect(log[0]).toMatchObject({ state: "pending", attempts: [{ responseCode: 451 }] });
    await first.close();

    // Second run, two hours later by its clock: the pending email is due and is sent at start, to the new sink.
    const second = await startEmulator({ ...opts, now: () => Date.now() + 7_200_000 });
    await second.ctx.mail.deliverer.idle();
    const after = second.ctx.mail.log.list({ templateId: t.id })[0]!;
    expect(after.state).toBe("delivered");
    expect(after.attempts.map((a) => a.responseCode)).toEqual([451, 250]);
    expect(second.ctx.mail.sink.list().map((m) => m.subject)).toEqual(["Ready: kept"]);
    await second.close();
  });
});
