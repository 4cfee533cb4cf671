#!/usr/bin/env node
/**
 * svc-emulator: the platform on localhost.
 *   svc-emulator [start] --port 4010 --state ./emulator.db ...   start and stay up until SIGINT/SIGTERM
 *   svc-emulator trigger entry.added [--object '{...}']            fire an event on a running emulator
 *   svc-emulator deliveries [--template-id 1001]                   print the delivery log
 * Every option falls back to an SVC_EMULATOR_* environment variable.
 * `start` loads the emulator (./index) only when it runs: the emulator's packages are optional peer dependencies,
 * and the other commands (which only talk to a running emulator) work without them.
 */
import { Command, Option } from "commander";
import { request } from "undici";
import { EVENT_KEYS } from "./events/catalog";
import { stripUserinfo } from "../contract/urlUserinfo";
import { isLoopbackAddress } from "./middleware/loopbackAddress";

const DEFAULT_PORT = 4010;
const env = process.env;

function num(name: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got "${v}"`);
    return n;
  };
}

const controlUrlOf = (opts: { url?: string }): string =>
  `${(opts.url ?? env.SVC_EMULATOR_URL ?? `http://127.0.0.1:${env.SVC_EMULATOR_PORT ?? DEFAULT_PORT}`).replace(/\/(api_v3|_emulator)\/?$/, "").replace(/\/$/, "")}/_emulator`;

async function controlCall(url: string, method: "GET" | "POST", body?: unknown, token = env.SVC_EMULATOR_CONTROL_TOKEN): Promise<unknown> {
  const headers: Record<string, string> = {
    ...(body !== undefined ? { "content-type": "application/json" } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const res = await request(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${stripUserinfo(url)} answered ${res.statusCode}: ${text}`);
  return JSON.parse(text);
}

function controlNote(control: "open" | "token" | "off"): string {
  if (control === "token") return "   (needs Authorization: Bearer <control token>)";
  if (control === "off") return "   (off: not a loopback address and no --control-token)";
  return "";
}

const program = new Command("svc-emulator").description("Local emulator of the video platform API (api_v3, webhooks, avatar APIs)");

program
  .command("start", { isDefault: true })
  .description("start the emulator and keep it running until SIGINT/SIGTERM")
  .addOption(new Option("--port <n>", "port (0 = any free port)").env("SVC_EMULATOR_PORT").argParser(num("--port")).default(DEFAULT_PORT))
  .addOption(new Option("--host <host>", "interface to listen on").env("SVC_EMULATOR_HOST").default("127.0.0.1"))
  .addOption(
    new Option("--control-token <token>", "off loopback: the bearer token the control API requires (without one it is off there)").env(
      "SVC_EMULATOR_CONTROL_TOKEN",
    ),
  )
  .addOption(
    new Option("--cors-origin <origins>", "off loopback: comma-separated origins the avatar APIs admit (CORS; loopback admits any)").env(
      "SVC_EMULATOR_CORS_ORIGINS",
    ),
  )
  .addOption(new Option("--state <file>", "SQLite state file (in memory when absent)").env("SVC_EMULATOR_STATE"))
  .addOption(new Option("--partner-id <n>", "seeded account id").env("SVC_EMULATOR_PARTNER_ID").argParser(num("--partner-id")))
  .addOption(new Option("--admin-secret <secret>", "seeded account admin secret").env("SVC_EMULATOR_ADMIN_SECRET"))
  .addOption(new Option("--latency-ms <n>", "added latency per request").env("SVC_EMULATOR_LATENCY_MS").argParser(num("--latency-ms")))
  .addOption(new Option("--error-rate <r>", "share of requests answered 503 (0..1)").env("SVC_EMULATOR_ERROR_RATE").argParser(num("--error-rate")))
  .addOption(new Option("--drop-rate <r>", "share of connections dropped (0..1)").env("SVC_EMULATOR_DROP_RATE").argParser(num("--drop-rate")))
  .addOption(new Option("--throttle-rate <r>", "share of requests answered 429 (0..1)").env("SVC_EMULATOR_THROTTLE_RATE").argParser(num("--throttle-rate")))
  .addOption(
    new Option("--commit-then-drop-rate <r>", "share of requests processed and committed, then dropped without an answer (0..1)")
      .env("SVC_EMULATOR_COMMIT_THEN_DROP_RATE")
      .argParser(num("--commit-then-drop-rate")),
  )
  .addOption(
    new Option("--commit-then-error-rate <r>", "share of requests processed and committed, then answered 502 (0..1)")
      .env("SVC_EMULATOR_COMMIT_THEN_ERROR_RATE")
      .argParser(num("--commit-then-error-rate")),
  )
  .addOption(
    new Option("--slow-rate <r>", "share of requests processed, then answered only after --slow-ms (0..1)")
      .env("SVC_EMULATOR_SLOW_RATE")
      .argParser(num("--slow-rate")),
  )
  .addOption(new Option("--slow-ms <n>", "delay of a slow answer (default 2000)").env("SVC_EMULATOR_SLOW_MS").argParser(num("--slow-ms")))
  .addOption(new Option("--retry-after <s>", "Retry-After seconds of injected 429s").env("SVC_EMULATOR_RETRY_AFTER").argParser(num("--retry-after")))
  .addOption(new Option("--fault-seed <n>", "seed of the fault schedule").env("SVC_EMULATOR_FAULT_SEED").argParser(num("--fault-seed")))
  .addOption(
    new Option("--delivery-attempts <n>", "webhook and email attempts before giving up")
      .env("SVC_EMULATOR_DELIVERY_ATTEMPTS")
      .argParser(num("--delivery-attempts")),
  )
  .addOption(
    new Option("--delivery-delay-ms <n>", "first webhook and email retry delay").env("SVC_EMULATOR_DELIVERY_DELAY_MS").argParser(num("--delivery-delay-ms")),
  )
  .addOption(
    new Option("--turn-port <n>", "UDP port of the avatar TURN server (0 = any free port)")
      .env("SVC_EMULATOR_TURN_PORT")
      .argParser(num("--turn-port"))
      .default(0),
  )
  .addOption(
    new Option("--smtp-port <n>", "port of the mail sink email templates deliver to (0 = any free port)")
      .env("SVC_EMULATOR_SMTP_PORT")
      .argParser(num("--smtp-port"))
      .default(0),
  )
  .addOption(
    new Option("--smtp-host <host>", "interface of the mail sink, which has no authentication (default 127.0.0.1, whatever --host says)").env(
      "SVC_EMULATOR_SMTP_HOST",
    ),
  )
  .addOption(
    new Option("--max-body-bytes <n>", "largest api_v3 request body read; larger ones are answered 413 (default 4 MiB)")
      .env("SVC_EMULATOR_MAX_BODY_BYTES")
      .argParser(num("--max-body-bytes")),
  )
  .option("--json", "print one JSON line with the URLs and credentials instead of the banner")
  .option("--quiet", "no log lines")
  .action(async (o) => {
    // Loaded here, not at the top: without the emulator's packages this fails with the command that installs them.
    const { startEmulator } = require("./index") as typeof import("./index");
    const emu = await startEmulator({
      port: o.port,
      host: o.host,
      turnPort: o.turnPort,
      smtp: { port: o.smtpPort, ...(o.smtpHost ? { host: o.smtpHost } : {}) },
      ...(o.maxBodyBytes !== undefined ? { maxApiBodyBytes: o.maxBodyBytes } : {}),
      ...(o.controlToken ? { controlToken: o.controlToken } : {}),
      ...(o.corsOrigin
        ? {
            corsOrigins: String(o.corsOrigin)
              .split(",")
              .map((x: string) => x.trim())
              .filter(Boolean),
          }
        : {}),
      ...(o.state ? { stateFile: o.state } : {}),
      ...(o.partnerId !== undefined ? { partnerId: o.partnerId } : {}),
      ...(o.adminSecret ? { adminSecret: o.adminSecret } : {}),
      faults: {
        ...(o.latencyMs !== undefined ? { latencyMs: o.latencyMs } : {}),
        ...(o.errorRate !== undefined ? { errorRate: o.errorRate } : {}),
        ...(o.dropRate !== undefined ? { dropRate: o.dropRate } : {}),
        ...(o.throttleRate !== undefined ? { throttleRate: o.throttleRate } : {}),
        ...(o.commitThenDropRate !== undefined ? { commitThenDropRate: o.commitThenDropRate } : {}),
        ...(o.commitThenErrorRate !== undefined ? { commitThenErrorRate: o.commitThenErrorRate } : {}),
        ...(o.slowRate !== undefined ? { slowRate: o.slowRate } : {}),
        ...(o.slowMs !== undefined ? { slowMs: o.slowMs } : {}),
        ...(o.retryAfter !== undefined ? { retryAfterSeconds: o.retryAfter } : {}),
        ...(o.faultSeed !== undefined ? { seed: o.faultSeed } : {}),
      },
      delivery: {
        ...(o.deliveryAttempts !== undefined ? { maxAttempts: o.deliveryAttempts } : {}),
        ...(o.deliveryDelayMs !== undefined ? { initialDelayMs: o.deliveryDelayMs } : {}),
      },
      quiet: Boolean(o.quiet || o.json),
    });
    const info = {
      baseUrl: emu.baseUrl,
      partnerId: emu.partnerId,
      adminSecret: emu.adminSecret,
      controlUrl: emu.controlUrl,
      avatarApiUrl: emu.avatarApiUrl,
      avatarVideoUrl: emu.avatarVideoUrl,
      turnUrl: emu.turnUrl ?? null,
      smtpUrl: emu.smtpUrl,
      stateFile: o.state ?? null,
    };
    if (o.json) {
      console.log(JSON.stringify(info));
    } else {
      // The admin secret is printed on purpose: it is the emulator's own seeded local credential, not a real one.
      console.log(
        [
          "svc-emulator is running",
          `  base URL      ${info.baseUrl}`,
          `  partner id    ${info.partnerId}`,
          `  admin secret  ${info.adminSecret}   (local emulator credential)`,
          `  control API   ${info.controlUrl}${controlNote(emu.ctx.access.control)}`,
          `  avatar API    ${info.avatarApiUrl}`,
          `  avatar video  ${info.avatarVideoUrl}`,
          info.turnUrl
            ? `  avatar TURN   ${info.turnUrl}   (per-session credentials from init-client)`
            : "  avatar media  off: npm install werift node-turn (optional packages) for WHEP and TURN",
          `  mail sink     ${info.smtpUrl}   (email templates deliver here; see GET /_emulator/mailbox)${o.smtpHost && !isLoopbackAddress(o.smtpHost) ? "   (no authentication: open to other machines)" : ""}`,
          `  state         ${o.state ?? "in memory (lost on exit)"}`,
          "To point Pulumi stacks and the sdk at it (the provider reads these when svc:* config is not set):",
          `  export SVC_BASE_URL=${info.baseUrl} SVC_PARTNER_ID=${info.partnerId} SVC_ADMIN_SECRET=${info.adminSecret}`,
          "Press Ctrl+C to stop.",
        ].join("\n"),
      );
    }
    const stop = (): void => {
      void emu.close().then(() => process.exit(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });

program
  .command("trigger <event>")
  .description(`fire an event on a running emulator (${EVENT_KEYS.join(", ")})`)
  .option("--object <json>", "the object the notification carries (JSON); a sample object when absent")
  .option("--partner-id <n>", "account (default: the seeded one)", num("--partner-id"))
  .option("--url <url>", "emulator URL (env SVC_EMULATOR_URL, default http://127.0.0.1:4010)")
  .option("--control-token <token>", "the control API's bearer token (env SVC_EMULATOR_CONTROL_TOKEN); needed when the emulator is not on loopback")
  .action(async (event: string, o) => {
    const body = { event, ...(o.object ? { object: JSON.parse(o.object) } : {}), ...(o.partnerId !== undefined ? { partnerId: o.partnerId } : {}) };
    const result = (await controlCall(`${controlUrlOf(o)}/trigger`, "POST", body, o.controlToken)) as { deliveryIds: number[]; emailIds?: number[] };
    console.log(`${event}: ${result.deliveryIds.length} delivery job(s) queued, ${result.emailIds?.length ?? 0} email(s) queued ${JSON.stringify(result)}`);
  });

program
  .command("deliveries")
  .description("print the webhook delivery log of a running emulator")
  .option("--template-id <id>", "only this template's deliveries")
  .option("--wait", "wait until no delivery is pending first")
  .option("--json", "print JSON")
  .option("--url <url>", "emulator URL (env SVC_EMULATOR_URL, default http://127.0.0.1:4010)")
  .option("--control-token <token>", "the control API's bearer token (env SVC_EMULATOR_CONTROL_TOKEN); needed when the emulator is not on loopback")
  .action(async (o) => {
    const base = controlUrlOf(o);
    if (o.wait) await controlCall(`${base}/deliveries/wait`, "POST", undefined, o.controlToken);
    const q = o.templateId ? `?templateId=${encodeURIComponent(o.templateId)}` : "";
    const { deliveries } = (await controlCall(`${base}/deliveries${q}`, "GET", undefined, o.controlToken)) as { deliveries: Record<string, unknown>[] };
    if (o.json) return console.log(JSON.stringify(deliveries, null, 2));
    if (deliveries.length === 0) return console.log("no deliveries");
    for (const d of deliveries) {
      console.log(
        `#${d.id} template ${d.templateId} job ${d.jobId} ${d.event} -> ${stripUserinfo(String(d.url))}: ${d.state} [${(d.statusCodes as unknown[]).map((s) => s ?? "error").join(", ")}]`,
      );
    }
  });

program
  .command("emails")
  .description("print the email delivery log of a running emulator (recipients, subject, state, SMTP answers)")
  .option("--template-id <id>", "only this template's emails")
  .option("--wait", "wait until no email is pending first")
  .option("--body", "print each rendered body too")
  .option("--json", "print JSON")
  .option("--url <url>", "emulator URL (env SVC_EMULATOR_URL, default http://127.0.0.1:4010)")
  .action(async (o) => {
    const base = controlUrlOf(o);
    if (o.wait) await controlCall(`${base}/emails/wait`, "POST");
    const q = o.templateId ? `?templateId=${encodeURIComponent(o.templateId)}` : "";
    const { emails } = (await controlCall(`${base}/emails${q}`, "GET")) as { emails: EmailView[] };
    if (o.json) return console.log(JSON.stringify(emails, null, 2));
    if (emails.length === 0) return console.log("no emails");
    for (const e of emails) {
      const to = e.to.map((r) => r.email).join(", ");
      const answers = e.attempts.map((a) => a.responseCode ?? a.error ?? "error").join(", ");
      console.log(`#${e.id} template ${e.templateId} job ${e.jobId} ${e.event} -> ${to} "${e.subject}": ${e.state} [${answers}]`);
      if (o.body) console.log(`${e.body.replace(/^/gm, "    ")}`);
    }
  });

interface EmailView {
  id: number;
  templateId: string;
  jobId: number;
  event: string;
  to: { email: string }[];
  subject: string;
  body: string;
  state: string;
  attempts: { responseCode?: number; error?: string }[];
}

if (require.main === module) {
  program.parseAsync(process.argv).catch((err: Error) => {
    console.error(`svc-emulator: ${stripUserinfo(err.message)}`);
    process.exit(1);
  });
}

export { program };
