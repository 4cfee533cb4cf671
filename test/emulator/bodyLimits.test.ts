/**
 * Issue 23 item 7: every route of the emulator caps the body it reads (413 with a message naming the cap), and the
 * cap holds while the body streams in: a chunked body past the cap is answered before its sender has finished.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { avatarStateOf } from "../../emulator/avatar";
import { MAX_BODY_BYTES } from "../../emulator/middleware/bodyLimits";
import { ADMIN_SECRET, form, inProcess, PARTNER_ID, type InProcess } from "./helpers";

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

function emulator(opts: Parameters<typeof inProcess>[0] = {}): InProcess {
  const emu = inProcess(opts);
  open.push(async () => {
    await avatarStateOf(emu.ctx).media.close();
    await emu.close();
  });
  return emu;
}

/** A body of exactly `bytes` bytes that still reads as a form (a padding field after the real ones). */
function paddedForm(fields: Record<string, string | number>, bytes: number): string {
  const head = `${form(fields)}&pad=`;
  return head + "x".repeat(Math.max(0, bytes - head.length));
}

async function post(emu: InProcess, path: string, body: string, contentType = "application/x-www-form-urlencoded") {
  const res = await emu.app.request(path, { method: "POST", headers: { "content-type": contentType }, body });
  return { status: res.status, text: await res.text() };
}

describe("body caps", () => {
  it("api_v3 refuses a body over MAX_BODY_BYTES.apiV3 with 413 naming the cap, single calls and multirequest alike", async () => {
    const emu = emulator();
    const over = paddedForm({ format: 1, secret: ADMIN_SECRET, partnerId: PARTNER_ID }, MAX_BODY_BYTES.apiV3 + 1);
    for (const path of ["/api_v3/service/session/action/start", "/api_v3/service/multirequest", "/api_v3/?service=session&action=start", "/api_v3/index.php"]) {
      const res = await post(emu, path, over);
      expect(res.status, path).toBe(413);
      expect(JSON.parse(res.text), path).toEqual({
        error: `request body larger than ${MAX_BODY_BYTES.apiV3} bytes, the emulator's limit for api_v3 calls (maxApiBodyBytes, --max-body-bytes)`,
      });
    }
    expect(emu.ctx.stats.snapshot()).toEqual({});
  });

  it("api_v3 takes a body of exactly the cap (maxApiBodyBytes sets it) and refuses one byte more", async () => {
    const emu = emulator({ maxApiBodyBytes: 4096 });
    const fields = { format: 1, secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2 };
    const atCap = await post(emu, "/api_v3/service/session/action/start", paddedForm(fields, 4096));
    expect(atCap.status).toBe(200);
    expect(JSON.parse(atCap.text)).toMatch(/^djJ8/);
    expect((await post(emu, "/api_v3/service/session/action/start", paddedForm(fields, 4097))).status).toBe(413);
  });

  it("refuses a maxApiBodyBytes that is not a positive whole number", () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => inProcess({ maxApiBodyBytes: bad }), String(bad)).toThrow(/maxApiBodyBytes: expected a positive whole number/);
  });

  it("the control API refuses a body over MAX_BODY_BYTES.control, and nothing it carried is applied", async () => {
    const emu = emulator();
    const faults = JSON.stringify({ errorRate: 1, pathIncludes: "x".repeat(MAX_BODY_BYTES.control) });
    const res = await post(emu, "/_emulator/faults", faults, "application/json");
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).error).toBe(`request body larger than ${MAX_BODY_BYTES.control} bytes, the emulator's limit for the control API`);
    expect(emu.ctx.faults.get()).not.toHaveProperty("pathIncludes");
    const trigger = await post(
      emu,
      "/_emulator/trigger",
      JSON.stringify({ event: "entry.added", object: { name: "x".repeat(MAX_BODY_BYTES.control) } }),
      "application/json",
    );
    expect(trigger.status).toBe(413);
    expect(emu.ctx.store.listDeliveries({})).toEqual([]);
  });

  it("the avatar APIs refuse bodies over their caps with 413 in their own error shape", async () => {
    const emu = emulator();
    const cases: Array<[string, number, string]> = [
      ["/avatar-api/v1/avatar-session/create", MAX_BODY_BYTES.avatarJson, "application/json"],
      ["/avatar-api/v1/avatar-session/s1/say-text", MAX_BODY_BYTES.avatarJson, "application/json"],
      ["/avatar-api/v1/avatar-session/s1/say-audio", MAX_BODY_BYTES.sayAudio, "multipart/form-data; boundary=b"],
      ["/avatar-api/whep/stream-key", MAX_BODY_BYTES.whepOffer, "application/sdp"],
      ["/avatar-video/api/v1/video/list", MAX_BODY_BYTES.avatarJson, "application/json"],
      ["/avatar-video/_emulator/configuration", MAX_BODY_BYTES.avatarJson, "application/json"],
    ];
    for (const [path, cap, type] of cases) {
      const res = await post(emu, path, "x".repeat(cap + 1), type);
      expect(res.status, path).toBe(413);
      expect(JSON.parse(res.text), path).toEqual({ success: false, error: expect.stringMatching(new RegExp(`^request body larger than ${cap} bytes`)) });
    }
  });

  it("over a socket, a chunked body past the cap is refused while it is still being sent", async () => {
    const emu: RunningEmulator = await startEmulator({ quiet: true, maxApiBodyBytes: 64 * 1024, partnerId: PARTNER_ID, adminSecret: ADMIN_SECRET });
    open.push(() => emu.close());
    const url = new URL(`${emu.baseUrl}/service/session/action/start`);
    const req = httpRequest(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" } });
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      req.once("response", resolve);
      req.once("error", reject);
    });
    req.write(`format=1&secret=${ADMIN_SECRET}&pad=`);
    // Twice the cap, and the body never ends: only a cap checked as the bytes arrive can answer this request.
    for (let i = 0; i < 8; i++) req.write("x".repeat(16 * 1024));
    const res = await answered;
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    req.destroy();
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(Buffer.concat(chunks).toString("utf8")).error).toMatch(/^request body larger than 65536 bytes/);
    expect(req.writableEnded).toBe(false);
  }, 20_000);
});
