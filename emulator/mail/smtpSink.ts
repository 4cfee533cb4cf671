/**
 * The emulator's own mail sink: a real SMTP server (smtp-server) on a local port, which accepts every message for
 * any recipient and keeps it in a mailbox (memory) that the control API shows. No relay: mail never leaves the
 * machine. The emulator's fault injection applies to it per message (the path `/smtp/data`, so
 * `pathIncludes: "/smtp/"` aims faults at mail alone):
 *   error → 451 (temporary failure), throttle → 421 (try later), drop → connection closed before the answer,
 *   commitThenError → kept, then answered 451; commitThenDrop → kept, then the connection closed;
 *   slow → kept, answered `slowMs` late. A sender that retries after a kept-then-failed message delivers it twice,
 *   as it would to a real mail server.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { FaultController } from "../middleware/faults";
import { type ParsedMessage, parseMessage } from "./mimeMessage";

export const SMTP_FAULT_PATH = "/smtp/data";
/** Largest message the sink takes (bytes). */
const MAX_SIZE = 5 * 1024 * 1024;
/** Messages kept in the mailbox; older ones are dropped first. */
const MAX_MESSAGES = 1_000;

export interface ReceivedMessage extends ParsedMessage {
  id: number;
  receivedAtMs: number;
  /** The SMTP envelope: MAIL FROM and every RCPT TO (bcc recipients appear only here). */
  envelope: { from: string; to: string[] };
  size: number;
}

export class SmtpSink {
  private server: SMTPServer | undefined;
  private listening: Promise<AddressInfo> | undefined;
  private readonly messages: ReceivedMessage[] = [];
  private nextId = 1;
  private config: { host: string; port: number } = { host: "127.0.0.1", port: 0 };

  constructor(
    private readonly faults: FaultController,
    private readonly now: () => number,
  ) {}

  /** Where start() listens; call before the first start (the emulator's `--smtp-port`). */
  configure(host: string, port: number): void {
    this.config = { host, port };
  }

  /** Starts the server once (later calls return the same address). */
  start(): Promise<AddressInfo> {
    this.listening ??= new Promise<AddressInfo>((resolve, reject) => {
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["AUTH", "STARTTLS"],
        banner: "svc-emulator mail sink",
        size: MAX_SIZE,
        logger: false,
        onData: (stream, session, callback) => this.receive(stream, session, callback),
      });
      this.server = server;
      server.once("error", reject);
      server.listen(this.config.port, this.config.host, () => resolve(server.server.address() as AddressInfo));
    });
    return this.listening;
  }

  /** smtp://HOST:PORT once started. */
  async url(): Promise<string> {
    const a = await this.start();
    return `smtp://${a.family === "IPv6" ? `[${a.address}]` : a.address}:${a.port}`;
  }

  list(): ReceivedMessage[] {
    return [...this.messages];
  }

  clear(): void {
    this.messages.length = 0;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server || !this.listening) return;
    await this.listening.catch(() => undefined);
    for (const c of server.connections) c._socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private receive(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null, message?: string) => void): void {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      void this.answer(Buffer.concat(chunks), stream.sizeExceeded === true, session, callback);
    });
  }

  private async answer(raw: Buffer, tooBig: boolean, session: SMTPServerSession, callback: (err?: Error | null, message?: string) => void): Promise<void> {
    if (tooBig) return callback(smtpError(552, "5.3.4 message too big"));
    if (this.faults.latencyMs > 0) await sleep(this.faults.latencyMs);
    const kind = this.faults.decide(SMTP_FAULT_PATH);
    switch (kind) {
      case "error":
        return callback(smtpError(451, "4.3.0 injected server error"));
      case "throttle":
        return callback(smtpError(421, "4.7.0 injected throttle, try again later"));
      case "drop":
        return this.drop(session);
      default:
    }
    const message = this.keep(raw, session);
    switch (kind) {
      case "commitThenError":
        return callback(smtpError(451, "4.3.0 injected error after the message was kept"));
      case "commitThenDrop":
        return this.drop(session);
      case "slow":
        await sleep(this.faults.slowMs);
        return callback(null, `2.0.0 kept as message ${message.id}`);
      default:
        return callback(null, `2.0.0 kept as message ${message.id}`);
    }
  }

  private keep(raw: Buffer, session: SMTPServerSession): ReceivedMessage {
    const envelope = {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
      to: session.envelope.rcptTo.map((r) => r.address),
    };
    const message: ReceivedMessage = { id: this.nextId++, receivedAtMs: this.now(), envelope, size: raw.length, ...parseMessage(raw) };
    this.messages.push(message);
    if (this.messages.length > MAX_MESSAGES) this.messages.shift();
    return message;
  }

  /** Closes the session's connection without an answer. */
  private drop(session: SMTPServerSession): void {
    for (const c of this.server?.connections ?? []) if (c.id === session.id) c._socket.destroy();
  }
}

function smtpError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
