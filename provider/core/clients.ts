/**
 * One sdk client per connection for the life of the provider process: the engine runs one dynamic provider process
 * per deployment, so every resource of an `up` shares one session (a handful of session.start calls, not one per
 * resource), one keep-alive connection pool, one limit of requests in flight (`svc:maxConcurrency`) and one backoff
 * when the platform answers 429. Connections resolve against the stack config that `configure` gave. Named accounts
 * (`svc:accounts`, namedAccounts.ts) are connections too: each account its own client and session, the sockets to one
 * platform origin shared by all of them.
 */
import type { Dispatcher } from "undici";
import type { SvcClient, TransportEvent } from "../../sdk";
import type { ConnectionInput } from "./connectionInput";
import { ConnectionError, connectionKey, connectionTexts, resolveConnection, type ConfigLookup, type ExplicitLabel } from "./connection";
import { ACCOUNTS_SETTING, type AccountChoice, type NamedAccounts, NamedAccountsError, parseNamedAccounts, unknownAccountMessage } from "./namedAccounts";

/** Retries per call: more than the sdk's 3, so that one `up` converges through a run of faults (0.4^11 ≈ 4e-5 per call at a 40% fault rate) (see docs/design.md). */
export const PROVIDER_MAX_RETRIES = 10;
/**
 * Backoff of those retries: full jitter from 200 ms, capped at 2 s (the sdk caps at 8 s), so ten retries wait about
 * 7 s on average and 14 s at most: a platform blip is short, and a 429's Retry-After is honoured whatever the cap.
 */
export const PROVIDER_BACKOFF = { baseDelayMs: 200, maxDelayMs: 2_000 } as const;

/**
 * The engine sends a `refresh`'s Reads all at once (its parallelism): the reads of one account go as multirequests of
 * up to 50, the first waiting 5 ms for the others (sdk/platform/readBatcher.ts), instead of one round trip each; each
 * Read still gets its own object or error (docs/bench.md, "Where refresh goes").
 */
export const PROVIDER_READ_BATCH = { maxBatch: 50, waitMs: 5 } as const;

/** The account a connection reaches. */
export interface Account {
  baseUrl: string;
  partnerId: number;
}

/**
 * The sdk, as the clients are made from it: called at the first client, not before (the plugin process answers
 * Configure without loading the sdk). Every caller hands the one sdk module its code imports (one set of error classes).
 */
export type SdkLoader = () => { SvcClient: typeof SvcClient; createAgent(options: { connections: number }): Dispatcher };

/**
 * Sockets to one platform origin, shared by every account's client of the process: an Agent per account was the
 * largest cost of each account (its pool, its sockets and their TLS sessions); each client keeps its own session,
 * limit of requests in flight and per-attempt timeouts (undici takes those per request).
 */
export const SHARED_AGENT_CONNECTIONS = 64;

export interface ClientCacheOptions {
  sdk: SdkLoader;
  /** The bound of each call as a whole (retries, waits for a slot): the operation's deadline. */
  callTimeoutMs: number;
  /** Every transport event of every client (telemetry and diagnostics). */
  onEvent(event: TransportEvent): void;
}

/** A resource's or a function's choice of account, or undefined (the provider's own). */
export type AccountChoiceOrOwn = AccountChoice | undefined;

export class ClientCache {
  private stackConfig: ConfigLookup = () => undefined;
  /** The provider's named accounts (`svc:accounts`), parsed at configure. */
  private namedAccounts: NamedAccounts = new Map();
  /** Why `svc:accounts` could not be read (kept: every resource naming an account reports it at check). */
  private accountsProblem: string | undefined;
  /** One undici Agent per platform origin, for every client (SHARED_AGENT_CONNECTIONS). */
  private readonly agents = new Map<string, Dispatcher>();
  /** The environment source of the connection (process.env; the takeover command puts its flags in it). */
  private environment: NodeJS.ProcessEnv = process.env;
  private readonly clients = new Map<string, SvcClient>();
  /**
   * The client of each set of texts a connection resolved from (connectionTexts): a Read finds its client without
   * resolving and hashing its connection again (a refresh asks once per resource). Keyed by the texts that are not
   * secret; the secret ones are compared in the entries, so no key holds a secret. Every text the resolution reads is
   * part of it, the environment's included: a changed SVC_* variable resolves again. accountOf (a Diff's account check) uses it too.
   */
  private readonly byTexts = new Map<string, ResolvedTexts[]>();
  /** Server clock minus local clock (ms), from the Date header of the client's latest answer. */
  private readonly serverOffsets = new WeakMap<SvcClient, number>();
  /** Each client's timeout of one request (its connection's svc:requestTimeoutMs). */
  private readonly requestTimeouts = new WeakMap<SvcClient, number>();

  constructor(private readonly options: ClientCacheOptions) {}

  /** The stack config (the dynamic provider's configure(req), the plugin's Configure) and the environment. */
  configure(config: { get(key: string): string | undefined }, env: NodeJS.ProcessEnv = process.env): void {
    this.stackConfig = (key) => config.get(key);
    this.environment = env;
    this.byTexts.clear();
    try {
      this.namedAccounts = parseNamedAccounts(config.get(ACCOUNTS_SETTING.config));
      this.accountsProblem = undefined;
    } catch (error) {
      if (!(error instanceof NamedAccountsError)) throw error;
      this.namedAccounts = new Map();
      this.accountsProblem = error.message;
    }
  }

  /** The names of the provider's named accounts, sorted. */
  accountNames(): string[] {
    return [...this.namedAccounts.keys()].sort();
  }

  /**
   * The explicit source a choice resolves with: the named account's entry (labelled `accounts.<name>`), or the
   * connection; a ConnectionError when the name is unknown or `svc:accounts` is unreadable. A choice of both is
   * refused at check; here the account wins.
   */
  private explicitOf(choice: AccountChoiceOrOwn): { input: ConnectionInput | undefined; label?: ExplicitLabel } {
    if (choice?.account === undefined) return { input: choice?.connection };
    if (this.accountsProblem) throw new ConnectionError(this.accountsProblem);
    const entry = this.namedAccounts.get(choice.account);
    if (!entry) throw new ConnectionError(unknownAccountMessage(choice.account, this.namedAccounts));
    return { input: entry, label: `accounts.${choice.account}` };
  }

  /** Each named account's reach (base URL and partner id), for those that resolve. */
  namedAccountsReach(): { name: string; account: Account }[] {
    return this.accountNames().flatMap((name) => {
      const account = this.accountOf({ account: name });
      return account ? [{ name, account }] : [];
    });
  }

  /**
   * What is wrong with the connection this resource would use, before any call (for check, so that `pulumi preview`
   * reports missing stack config); undefined when it resolves. Never includes a secret.
   */
  connectionProblem(choice: AccountChoiceOrOwn): string | undefined {
    try {
      const { input, label } = this.explicitOf(choice);
      resolveConnection(input, this.stackConfig, this.environment, label);
      return undefined;
    } catch (error) {
      if (error instanceof ConnectionError) return error.message;
      throw error;
    }
  }

  /** The account a connection reaches (base URL and partner id), or undefined when it does not resolve. */
  accountOf(choice: AccountChoiceOrOwn): Account | undefined {
    try {
      const { baseUrl, partnerId } = this.resolved(choice).account;
      return { baseUrl, partnerId };
    } catch (error) {
      if (error instanceof ConnectionError) return undefined;
      throw error;
    }
  }

  clientFor(choice: AccountChoiceOrOwn): SvcClient {
    const resolved = this.resolved(choice);
    resolved.client ??= this.resolvedClient(choice);
    return resolved.client;
  }

  /** What `explicit` resolves to, found by its texts or resolved now (a ConnectionError is thrown each time, never kept). */
  private resolved(choice: AccountChoiceOrOwn): ResolvedTexts {
    const { input: explicit, label } = this.explicitOf(choice);
    const texts = connectionTexts(explicit, this.stackConfig, this.environment, label);
    const textsKey = JSON.stringify(texts.plain);
    const known = this.byTexts.get(textsKey)?.find((entry) => sameTexts(entry.secret, texts.secret));
    if (known) return known;
    const { baseUrl, partnerId } = resolveConnection(explicit, this.stackConfig, this.environment, label);
    const entry: ResolvedTexts = { secret: texts.secret, account: { baseUrl, partnerId } };
    const entries = this.byTexts.get(textsKey) ?? [];
    entries.push(entry);
    this.byTexts.set(textsKey, entries);
    return entry;
  }

  /** The client of the connection `explicit` resolves to: one per distinct connection, made at its first use. */
  private resolvedClient(choice: AccountChoiceOrOwn): SvcClient {
    const { input: explicit, label } = this.explicitOf(choice);
    const connection = resolveConnection(explicit, this.stackConfig, this.environment, label);
    const key = connectionKey(connection);
    let client = this.clients.get(key);
    if (!client) {
      const { auth } = connection;
      let created: SvcClient | undefined;
      const onEvent = (event: TransportEvent): void => {
        this.options.onEvent(event);
        // Date is truncated to the second: the estimate runs at most about a second early, never late.
        if (event.type === "response" && event.serverTimeMs !== undefined && created) this.serverOffsets.set(created, event.serverTimeMs - Date.now());
      };
      const sdk = this.options.sdk();
      const origin = new URL(connection.baseUrl).origin;
      let dispatcher = this.agents.get(origin);
      if (!dispatcher) {
        dispatcher = sdk.createAgent({ connections: SHARED_AGENT_CONNECTIONS });
        this.agents.set(origin, dispatcher);
      }
      client = created = new sdk.SvcClient({
        dispatcher,
        baseUrl: connection.baseUrl,
        // resolveConnection has applied the plain-http rule with the opt-in of the baseUrl's own source.
        allowInsecureHttp: connection.allowInsecureHttp,
        partnerId: connection.partnerId,
        // Each attempt waits requestTimeoutMs for its answer; the call as a whole (retries, waits for a slot) is bounded
        // by the operation's deadline.
        attemptTimeoutMs: connection.requestTimeoutMs,
        timeoutMs: this.options.callTimeoutMs,
        maxRetries: PROVIDER_MAX_RETRIES,
        retry: PROVIDER_BACKOFF,
        maxConcurrency: connection.maxConcurrency,
        batchReads: PROVIDER_READ_BATCH,
        onEvent,
        auth:
          "adminSecret" in auth
            ? { adminSecret: auth.adminSecret }
            : "appTokenId" in auth
              ? { appTokenId: auth.appTokenId, appToken: auth.appToken, hashType: auth.hashType }
              : { ks: auth.ks },
      });
      this.clients.set(key, client);
      this.requestTimeouts.set(client, connection.requestTimeoutMs);
    }
    return client;
  }

  /**
   * The platform's clock now, as well as this process knows it (the Date of the latest answer, one-second
   * resolution); undefined before any answer.
   */
  serverNowMs(client: SvcClient): number | undefined {
    const offset = this.serverOffsets.get(client);
    return offset === undefined ? undefined : Date.now() + offset;
  }

  /** How long one request of `client` waits for its answer (ms). */
  requestTimeoutMs(client: SvcClient): number | undefined {
    return this.requestTimeouts.get(client);
  }

  /** Closes every client (their connection pools); a process that exits need not. */
  async close(): Promise<void> {
    const open = [...this.clients.values()];
    const agents = [...this.agents.values()];
    this.clients.clear();
    this.agents.clear();
    this.byTexts.clear();
    await Promise.all(open.map((client) => client.close()));
    await Promise.all(agents.map((agent) => agent.close()));
  }
}

/** One set of connection texts: the secret ones (compared, never a key), the account they reach, its client once made. */
interface ResolvedTexts {
  secret: (string | undefined)[];
  account: Account;
  client?: SvcClient;
}

const sameTexts = (a: readonly (string | undefined)[], b: readonly (string | undefined)[]): boolean =>
  a.length === b.length && a.every((text, i) => text === b[i]);
