import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { ADMIN_SECRET, PARTNER_ID, httpCall } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";
const dir = mkdtempSync(join(tmpdir(), "svc-emulator-resume-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("delivery jobs are durable", () => {
  it("a job still pending at shutdown is sent after a restart", async () => {
    const statuses = [500];
    const bodies: string[] = [];
    const rx: Server = createServer((req, res) => {
      let b = "";
      req.on("data", (c: Buffer) => (b += c.toString()));
      req.on("end", () => {
        bodies.push(b);
        res.statusCode = statuses.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((r) => rx.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;
    const stateFile = join(dir, "state.db");
    const opts = { stateFile, partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET, quiet: true };

    // First run: the first attempt gets a 500, the retry is an hour away when the emulator stops.
    const first = await startEmulator({ ...opts, delivery: { initialDelayMs: 3_600_000 } });
    const ks = await httpCall(first.baseUrl, "session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2, privileges: "disableentitlement" });
    const t = await httpCall(first.baseUrl, SVC, "clone", {
      ks,
      id: "103",
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[name]": "resume",
      "eventNotificationTemplate[url]": url,
      "eventNotificationTemplate[signSecret]": "x",
    });
    await httpCall(first.baseUrl, SVC, "updateStatus", { ks, id: t.id, status: 2 });
    await (await request(`${first.controlUrl}/trigger`, { method: "POST", body: JSON.stringify({ event: "entry.updated" }) })).body.dump();
    while (bodies.length < 1) await new Promise((r) => setTimeout(r, 10));
    let log = first.ctx.store.listDeliveries({ templateId: t.id });
    while (log[0]?.attempts.length !== 1) {
      await new Promise((r) => setTimeout(r, 10));
      log = first.ctx.store.listDeliveries({ templateId: t.id });
    }
    expect(log[0]!.state).toBe("pending");
    await first.close();

    // Second run, two hours later by its clock: the pending job is due and is sent at start.
    const second = await startEmulator({ ...opts, now: () => Date.now() + 7_200_000 });
    await (await request(`${second.controlUrl}/deliveries/wait`, { method: "POST" })).body.dump();
    const after = second.ctx.store.listDeliveries({ templateId: t.id })[0]!;
    expect(after.state).toBe("delivered");
    expect(after.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(bodies[1]).toBe(bodies[0]);
    await second.close();
    rx.close();
  });
});
