/**
 * A throwaway PostgreSQL 15 server for a test or a bench part: Debian's binaries (scripts/ensure-postgres.sh installs them when
 * missing; never skipped), a cluster made by initdb in a temp dir, listening on 127.0.0.1 on a free port (chosen again
 * when another process takes it before the server binds it: emulator/shared/portRetry.ts) with
 * password (SCRAM) authentication, and stopped after. initdb and postgres refuse to run as root, so as root they
 * run as the unprivileged `postgres` user the Debian package creates.
 */
import { execFile } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { startOnChosenPort } from "../emulator/shared/portRetry";

const exec = promisify(execFile);

export interface PostgresServer {
  port: number;
  user: string;
  password: string;
  database: string;
  /** postgres:// URL without the password (it goes in PGPASSWORD, as the docs recommend). */
  url(params?: Record<string, string>): string;
  /** Runs SQL with psql and returns its unaligned, tuples-only output. */
  query(sql: string): Promise<string>;
  /** The server's main process (its backends are its children), for CPU accounting. */
  pid(): number;
  stop(): Promise<void>;
}

/** A port free when asked: the system's pick, released at once (PostgreSQL cannot bind port 0 itself). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The script beside this file's source: found from scripts/ (tests) and from dist/scripts/ (the built bench). */
function ensureScript(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const script = join(dir, "scripts", "ensure-postgres.sh");
    if (existsSync(script)) return script;
  }
  throw new Error(`scripts/ensure-postgres.sh not found above ${__dirname}`);
}

export interface StartPostgresOptions {
  /** Room for a few receivers' pools, the tests' own clients and psql (default 100). */
  maxConnections?: number;
  /** How a free port is picked (default freePort; a test injects one that returns a taken port first). */
  choosePort?: () => Promise<number>;
}

/** A port another process took between choosing and binding: pg_ctl says only "could not start", the log says why. */
class PortTakenError extends Error {}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const { stdout } = await exec("bash", [ensureScript()], { timeout: 900_000 });
  const bin = stdout.trim().split("\n").at(-1)!;
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-pg-"));
  const data = join(dir, "data");
  const user = "pulumi_state";
  const password = `pg-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  const database = "pulumi";
  writeFileSync(join(dir, "pwfile"), `${password}\n`);
  mkdirSync(data);
  if (asRoot) {
    const { stdout: ids } = await exec("id", ["-u", "postgres"]).catch(() => ({ stdout: "" }));
    const uid = Number(ids.trim());
    if (!uid)
      throw new Error("running as root and there is no `postgres` user to run initdb as (scripts/ensure-postgres.sh installs postgresql-15, which creates it)");
    const { stdout: gids } = await exec("id", ["-g", "postgres"]);
    for (const path of [dir, data, join(dir, "pwfile")]) chownSync(path, uid, Number(gids.trim()));
  }
  chmodSync(data, 0o700);
  const asServerUser = (tool: string, args: string[]) =>
    asRoot
      ? exec("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { cwd: dir, timeout: 120_000 })
      : exec(join(bin, tool), args, { cwd: dir, timeout: 120_000 });

  await asServerUser("initdb", [
    "-D",
    data,
    "-U",
    user,
    `--pwfile=${join(dir, "pwfile")}`,
    "--auth-local=scram-sha-256",
    "--auth-host=scram-sha-256",
    "-E",
    "UTF8",
    "--no-instructions",
  ]);
  rmSync(join(dir, "pwfile"));
  // fsync off: a test cluster thrown away after; unix socket in the temp dir, TCP on loopback only.
  const startOn = async (port: number): Promise<number> => {
    const log = join(dir, `server-${port}.log`);
    const serverFlags = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off -c max_connections=${options.maxConnections ?? 100}`;
    try {
      await asServerUser("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", serverFlags, "start"]);
    } catch (error) {
      const said = existsSync(log) ? readFileSync(log, "utf8") : "";
      const bindFailure = said.split("\n").find((line) => line.includes("Address already in use"));
      if (bindFailure) throw new PortTakenError(bindFailure.trim());
      throw new Error(`pg_ctl could not start PostgreSQL on port ${port}: ${(error as Error).message}\n${said}`);
    }
    return port;
  };
  const port = await startOnChosenPort({
    what: "PostgreSQL",
    choosePort: options.choosePort ?? freePort,
    start: startOn,
    isPortTaken: (error) => error instanceof PortTakenError,
  });

  const env = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: "10" };
  const psql = async (db: string, sql: string) =>
    (
      await exec(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", db, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql], {
        env,
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
      })
    ).stdout;
  await psql("postgres", `CREATE DATABASE ${database}`);

  let stopped = false;
  return {
    port,
    user,
    password,
    database,
    url: (params = { sslmode: "disable" }) => `postgres://${user}@127.0.0.1:${port}/${database}?${new URLSearchParams(params).toString()}`,
    query: (sql) => psql(database, sql),
    pid: () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]),
    async stop() {
      if (stopped) return;
      stopped = true;
      await asServerUser("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
