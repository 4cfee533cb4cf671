/**
 * startEmulator(opts): the platform on localhost (api_v3, control API, and the avatar APIs once mounted).
 * createEmulatorApp(ctx) gives the bare Hono app for `app.request` tests without a socket.
 */
// First, before anything that loads hono, smtp-server, ...: says what to install when they are missing.
import "./emulatorPackagesCheck";
import { serve, type ServerType } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Hono } from "hono";
import { createEmulatorApp } from "./app";
import { avatarStateOf } from "./avatar";
import { createEmulatorContext } from "./composition";
import type { EmulatorContext, EmulatorOptions } from "./context/emulatorContext";
import { DEFAULT_SMTP_HOST } from "./mail/smtpSink";
import { isInstalled } from "./shared/optionalPackages";

export { createEmulatorApp, platformServices } from "./app";
export { createEmulatorContext } from "./composition";
export type { EmulatorContext, EmulatorOptions, SessionInfo } from "./context/emulatorContext";
export { ApiError, HttpError } from "./shared/errors";
export type { FaultConfig } from "./middleware/faults";
export type { DeliveryOptions } from "./events/deliveryQueue";
export type { ReceivedMessage } from "./mail/smtpSink";
export type { EmailAttempt, EmailDeliveryRow, RenderedEmail } from "./store/emailDeliveryStore";
export { EVENT_KEYS, SYSTEM_TEMPLATES } from "./events/catalog";

export interface StartEmulatorOptions extends EmulatorOptions {
  /** 0 (default) picks any free port. */
  port?: number;
  /** UDP port of the avatar TURN server; 0 (default) picks a free one. */
  turnPort?: number;
}

export interface RunningEmulator {
  /** http://HOST:PORT/api_v3 */
  baseUrl: string;
  avatarApiUrl: string;
  avatarVideoUrl: string;
  /** The avatar sessions' TURN server (UDP, per-session credentials from init-client): turn:HOST:PORT?transport=udp */
  /** Undefined when the optional package node-turn is not installed. */
  turnUrl: string | undefined;
  /** http://HOST:PORT/_emulator */
  controlUrl: string;
  /** The mail sink email templates deliver to: smtp://HOST:PORT (what it got: GET /_emulator/mailbox). */
  smtpUrl: string;
  port: number;
  partnerId: number;
  adminSecret: string;
  app: Hono;
  ctx: EmulatorContext;
  close(): Promise<void>;
}

export async function startEmulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? "127.0.0.1";
  // The mail sink keeps its own host (loopback by default): `host` opens the HTTP server only.
  const ctx = createEmulatorContext(opts);
  const app = createEmulatorApp(ctx);
  let server: ServerType;
  const port = await new Promise<number>((resolve, reject) => {
    server = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: host }, (info: AddressInfo) => resolve(info.port));
    server.once("error", reject);
  });
  const http = server! as Server;
  http.keepAliveTimeout = 5_000;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  // The avatar media plane: the TURN server starts with the emulator (its port is printed by the CLI), when its
  // optional package is installed; without it init-client says what to install.
  const avatarMedia = avatarStateOf(ctx).media;
  avatarMedia.configureTurn(host, opts.turnPort ?? 0);
  const turn = isInstalled("node-turn") ? await avatarMedia.turn() : undefined;
  // The mail sink of email templates starts with the emulator (its port is printed by the CLI).
  const smtpUrl = await ctx.mail.sink.url().catch(async (err: Error) => {
    // e.g. --smtp-port already taken: release what started, then say which port.
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await avatarMedia.close();
    await ctx.close();
    const where = `${opts.smtp?.host ?? DEFAULT_SMTP_HOST}:${opts.smtp?.port ?? 0}`;
    throw new Error(`the mail sink could not listen on ${where}: ${(err as { code?: string }).code ?? err.message}`);
  });
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${origin}/api_v3`,
    avatarApiUrl: `${origin}/avatar-api`,
    avatarVideoUrl: `${origin}/avatar-video`,
    turnUrl: turn?.url,
    controlUrl: `${origin}/_emulator`,
    smtpUrl,
    port,
    partnerId: ctx.partner.partnerId,
    adminSecret: ctx.partner.adminSecret,
    app,
    ctx,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
        await avatarMedia.close();
        await ctx.close();
      })();
      return closing;
    },
  };
}
