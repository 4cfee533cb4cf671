/**
 * Issue 23 item 7, the mail sink: it has no authentication, so it listens on loopback whatever the HTTP server's
 * host is (unless its own host says otherwise); a message is size-checked as it streams in (552, nothing more kept
 * once past the cap); a message nested deeper than MAX_MIME_DEPTH is refused (554) instead of recursing.
 */
import { PassThrough } from "node:stream";
import { createTransport } from "nodemailer";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { MAX_MIME_DEPTH, MimeDepthError, parseMessage } from "../../emulator/mail/mimeMessage";
import { SmtpSink } from "../../emulator/mail/smtpSink";
import { FaultController } from "../../emulator/middleware/faults";

const CRLF = "\r\n";
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((emu) => emu.close()));
});

async function emulator(opts: Parameters<typeof startEmulator>[0]): Promise<RunningEmulator> {
  const emu = await startEmulator({ quiet: true, ...opts });
  running.push(emu);
  return emu;
}

/** A message whose multipart containers are nested `levels` deep, a text part at the bottom. */
function nestedMessage(levels: number): string {
  const opening: string[] = [];
  const closing: string[] = [];
  for (let level = 1; level <= levels; level++) {
    opening.push(`Content-Type: multipart/mixed; boundary="L${level}-"`, "", `--L${level}-`);
    closing.unshift(`--L${level}---`, "");
  }
  const leaf = ["Content-Type: text/plain; charset=utf-8", "", "deep inside"];
  return ["From: a@example.com", "To: b@example.com", "Subject: nested", "MIME-Version: 1.0", ...opening, ...leaf, ...closing].join(CRLF);
}

async function send(smtpUrl: string, raw: string): Promise<{ ok: true; response: string } | { ok: false; responseCode: number | undefined; response: string }> {
  const transport = createTransport({ url: smtpUrl, ignoreTLS: true, connectionTimeout: 10_000 } as Parameters<typeof createTransport>[0]);
  try {
    const info = await transport.sendMail({ envelope: { from: "a@example.com", to: ["b@example.com"] }, raw });
    return { ok: true, response: info.response };
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message: string };
    return { ok: false, responseCode: e.responseCode, response: e.response ?? e.message };
  } finally {
    transport.close();
  }
}

describe("the mailbox's memory", () => {
  it("is bounded in bytes, not only in messages: the oldest are dropped first", async () => {
    const emu = await emulator({ smtp: { maxMessageBytes: 4_000, maxMailboxBytes: 10_000 } });
    const body = "x".repeat(2_500);
    for (let n = 1; n <= 8; n++) {
      const sent = await send(emu.smtpUrl, ["From: a@example.com", "To: b@example.com", `Subject: message ${n}`, "", body].join(CRLF));
      expect(sent.ok).toBe(true);
    }
    const kept = emu.ctx.mail.sink.list();
    expect(kept.reduce((sum, m) => sum + m.size, 0)).toBeLessThanOrEqual(10_000);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.at(-1)?.subject).toBe("message 8");
    expect(kept.map((m) => m.subject)).not.toContain("message 1");
  });

  it("refuses a byte cap below the message cap", () => {
    const sink = new SmtpSink(new FaultController(), Date.now);
    expect(() => sink.configure({ maxMessageBytes: 4_000, maxMailboxBytes: 1_000 })).toThrow(
      /smtp.maxMailboxBytes: expected .* at least maxMessageBytes \(4000\)/,
    );
  });
});

describe("the mail sink's bind address", () => {
  it("stays on loopback when the HTTP server listens on every interface", async () => {
    const emu = await emulator({ host: "0.0.0.0", controlToken: "control-token-0123456789" });
    expect(emu.baseUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/api_v3$/);
    expect(emu.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
  });

  it("listens elsewhere only when its own host says so", async () => {
    const emu = await emulator({ smtp: { host: "0.0.0.0" } });
    expect(emu.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(emu.smtpUrl).toMatch(/^smtp:\/\/0\.0\.0\.0:\d+$/);
  });
});

describe("the mail sink's size cap", () => {
  it("refuses a message over the cap with 552 and keeps nothing of it; the next message is taken", async () => {
    const emu = await emulator({ smtp: { maxMessageBytes: 16 * 1024 } });
    const big = ["From: a@example.com", "To: b@example.com", "Subject: big", "", "x".repeat(64 * 1024), ""].join(CRLF);
    const refused = await send(emu.smtpUrl, big);
    expect(refused).toMatchObject({ ok: false, responseCode: 552 });
    expect(emu.ctx.mail.sink.list()).toEqual([]);
    const small = await send(emu.smtpUrl, ["From: a@example.com", "To: b@example.com", "Subject: small", "", "fits", ""].join(CRLF));
    expect(small.ok).toBe(true);
    expect(emu.ctx.mail.sink.list().map((m) => m.subject)).toEqual(["small"]);
  });

  it("answers as soon as the stream passes the cap, without waiting for (or holding) the rest", () => {
    const sink = new SmtpSink(new FaultController({}), Date.now);
    // smtp-server's data stream: a readable that sets sizeExceeded once the bytes it counted pass the cap.
    const stream = Object.assign(new PassThrough(), { sizeExceeded: false, byteLength: 0 }) as unknown as SMTPServerDataStream & PassThrough;
    const session = { id: "s1", envelope: { mailFrom: { address: "a@example.com" }, rcptTo: [{ address: "b@example.com" }] } } as unknown as SMTPServerSession;
    const answers: Array<{ err: (Error & { responseCode?: number }) | null | undefined; message: string | undefined }> = [];
    sink.receive(stream, session, (err, message) => answers.push({ err, message }));
    stream.write(Buffer.alloc(1024, "a"));
    expect(answers).toEqual([]);
    stream.sizeExceeded = true;
    stream.write(Buffer.alloc(1024, "b"));
    // The stream has not ended: a check made only at the end would not have answered yet.
    expect(stream.readableEnded).toBe(false);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.err?.responseCode).toBe(552);
    stream.end(Buffer.alloc(1024, "c"));
    expect(answers).toHaveLength(1);
    expect(sink.list()).toEqual([]);
  });

  it("refuses a maxMessageBytes that is not a positive whole number", () => {
    const sink = new SmtpSink(new FaultController({}), Date.now);
    expect(() => sink.configure({ maxMessageBytes: 0 })).toThrow(/smtp\.maxMessageBytes: expected a positive whole number/);
  });
});

describe("the mail sink's MIME depth limit", () => {
  it("parseMessage decodes MAX_MIME_DEPTH levels and refuses one more with a clear error", () => {
    expect(parseMessage(nestedMessage(MAX_MIME_DEPTH)).text?.trim()).toBe("deep inside");
    expect(() => parseMessage(nestedMessage(MAX_MIME_DEPTH + 1))).toThrow(MimeDepthError);
    expect(() => parseMessage(nestedMessage(MAX_MIME_DEPTH + 1))).toThrow(`MIME parts nested deeper than ${MAX_MIME_DEPTH} levels of multipart`);
  });

  it("a message nested thousands deep is refused with 554 (no stack overflow, no crash), and the sink keeps working", async () => {
    const emu = await emulator({});
    const refused = await send(emu.smtpUrl, nestedMessage(20_000));
    expect(refused).toMatchObject({ ok: false, responseCode: 554 });
    expect(refused.response).toContain(`MIME parts nested deeper than ${MAX_MIME_DEPTH} levels`);
    expect(emu.ctx.mail.sink.list()).toEqual([]);
    const fine = await send(emu.smtpUrl, nestedMessage(3));
    expect(fine.ok).toBe(true);
    expect(emu.ctx.mail.sink.list().map((m) => m.text?.trim())).toEqual(["deep inside"]);
  }, 30_000);
});
