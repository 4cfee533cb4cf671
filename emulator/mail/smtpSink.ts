/**
 * The emulator's own mail sink: a real SMTP server (smtp-server) on a local port, which accepts every message for
 * any recipient and keeps it in a mailbox (memory) that the control API shows. No relay: mail never leaves the
 * machine. The emulator's fault injection applies to it per message (the path `/smtp/data`, so
 * `pathIncludes: "/smtp/"` aims faults at mail alone):
 *   error → 451 (temporary failure), throttle → 421 (try later), drop → connection closed before the answer,
 *   commitThenError → kept, then answered 451; commitThenDrop → kept, then the connection closed;
 *   slow → kept, answered `slowMs` late; late → held `slowMs`, then kept and answered. A sender that retries after a kept-then-failed message delivers it twice,
 *   as it would to a real mail server.
 * It has no authentication, so it listens on 127.0.0.1 unless told otherwise (its own host option, not the HTTP
 * server's). A message is size-checked as it streams in (smtp-server's `size` and the stream's `sizeExceeded`):
 * past the cap nothing more is kept and the answer is 552; a message nested deeper than MAX_MIME_DEPTH is 554.
 * The mailbox itself is bounded twice, since any local process can send to it: at most MAX_MESSAGES messages and
 * MAX_MAILBOX_BYTES bytes of messages (each counted by its raw size); past either, the oldest are dropped first.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { FaultController } from "../middleware/faults";
import { MimeDepthError, type ParsedMessage, parseMessage } from "./mimeMessage";

export const SMTP_FAULT_PATH = "/smtp/data";
/** Largest message the sink takes (bytes), unless configured otherwise. */
export const MAX_MESSAGE_BYTES = 5 * 1024 * 1024;
/** Where the sink listens unless told otherwise: it has no authentication. */
export const DEFAULT_SMTP_HOST = "127.0.0.1";
/** Messages kept in the mailbox; older ones are dropped first. */
const MAX_MESSAGES = 1_000;
/** Bytes of messages (raw sizes) kept in the mailbox, unless configured otherwise; older ones are dropped first. */
export const MAX_MAILBOX_BYTES = 64 * 1024 * 1024;

export interface ReceivedMessage extends ParsedMessage {
  id: number;
  receivedAtMs: number;
  /** The SMTP envelope: MAIL FROM and every RCPT TO (bcc recipients appear only here). */
  envelope: { from: string; to: string[] };
  size: number;
}

export interface SmtpSinkConfig {
  /** Default DEFAULT_SMTP_HOST (loopback). */
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Default MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** Default MAX_MAILBOX_BYTES; at least maxMessageBytes. */
  maxMailboxBytes?: number;
}

type DataCallback = (err?: Error | null, message?: string) => void;

export class SmtpSink {
  private server: SMTPServer | undefined;
  private listening: Promise<AddressInfo> | undefined;
  private readonly messages: ReceivedMessage[] = [];
  /** The raw sizes of the messages kept, summed. */
  private keptBytes = 0;
  private nextId = 1;
  private config: Required<SmtpSinkConfig> = { host: DEFAULT_SMTP_HOST, port: 0, maxMessageBytes: MAX_MESSAGE_BYTES, maxMailboxBytes: MAX_MAILBOX_BYTES };

  constructor(
    private readonly faults: FaultController,
    private readonly now: () => number,
  ) {}

  /** Where start() listens and what it takes; call before the first start (the emulator's `--smtp-host`, `--smtp-port`). */
  configure(config: SmtpSinkConfig): void {
    const maxMessageBytes = config.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(maxMessageBytes) || maxMessageBytes < 1) {
      throw new Error(`smtp.maxMessageBytes: expected a positive whole number of bytes, got ${maxMessageBytes}`);
    }
    const maxMailboxBytes = config.maxMailboxBytes ?? Math.max(MAX_MAILBOX_BYTES, maxMessageBytes);
    if (!Number.isSafeInteger(maxMailboxBytes) || maxMailboxBytes < maxMessageBytes) {
      throw new Error(`smtp.maxMailboxBytes: expected a whole number of bytes of at least maxMessageBytes (${maxMessageBytes}), got ${maxMailboxBytes}`);
    }
    this.config = { host: config.host ?? DEFAULT_SMTP_HOST, port: config.port ?? 0, maxMessageBytes, maxMailboxBytes };
  }

  /** Starts the server once (later calls return the same address). */
  start(): Promise<AddressInfo> {
    this.listening ??= new Promise<AddressInfo>((resolve, reject) => {
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["AUTH", "STARTTLS"],
        banner: "svc-emulator mail sink",
        size: this.config.maxMessageBytes,
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

  /** The raw sizes of the messages kept, summed (at most the mailbox's byte cap). */
  bytesKept(): number {
    return this.keptBytes;
  }

  clear(): void {
    this.messages.length = 0;
    this.keptBytes = 0;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server || !this.listening) return;
    await this.listening.catch(() => undefined);
    for (const c of server.connections) c._socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Keeps the message's chunks only while it is within the cap. Once smtp-server marks the stream `sizeExceeded`
   * the chunks are let go and the answer is given at once (smtp-server drains the rest and replies 552).
   */
  receive(stream: SMTPServerDataStream, session: SMTPServerSession, callback: DataCallback): void {
    const tooLarge = () => smtpError(552, `5.3.4 message larger than ${this.config.maxMessageBytes} bytes`);
    let chunks: Buffer[] = [];
    let refused = false;
    stream.on("data", (c: Buffer) => {
      if (refused) return;
      if (stream.sizeExceeded === true) {
        refused = true;
        chunks = [];
        return callback(tooLarge());
      }
      chunks.push(c);
    });
    stream.on("end", () => {
      if (refused) return;
      if (stream.sizeExceeded === true) return callback(tooLarge());
      this.answer(Buffer.concat(chunks), session, callback).catch((err: Error) => callback(smtpError(451, `4.3.0 ${err.message}`)));
    });
  }

  private async answer(raw: Buffer, session: SMTPServerSession, callback: DataCallback): Promise<void> {
    let parsed: ParsedMessage;
    try {
      parsed = parseMessage(raw);
    } catch (err) {
      if (err instanceof MimeDepthError) return callback(smtpError(554, `5.6.0 message refused: ${err.message} (the mail sink's limit)`));
      throw err;
    }
    if (this.faults.latencyMs > 0) await sleep(this.faults.latencyMs);
    const kind = this.faults.decide(SMTP_FAULT_PATH);
    switch (kind) {
      case "error":
        return callback(smtpError(451, "4.3.0 injected server error"));
      case "throttle":
        return callback(smtpError(421, "4.7.0 injected throttle, try again later"));
      case "drop":
        return this.drop(session);
      case "late":
        await sleep(this.faults.slowMs);
        break;
      default:
    }
    const message = this.keep(raw, parsed, session);
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

  private keep(raw: Buffer, parsed: ParsedMessage, session: SMTPServerSession): ReceivedMessage {
    const envelope = {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
      to: session.envelope.rcptTo.map((r) => r.address),
    };
    const message: ReceivedMessage = { id: this.nextId++, receivedAtMs: this.now(), envelope, size: raw.length, ...parsed };
    this.messages.push(message);
    this.keptBytes += message.size;
    while (this.messages.length > MAX_MESSAGES || this.keptBytes > this.config.maxMailboxBytes) {
      this.keptBytes -= (this.messages.shift() as ReceivedMessage).size;
    }
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
