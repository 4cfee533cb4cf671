/**
 * Which account each resource of a stack uses, by the provider's own rules (connection.ts): a plugin resource's
 * provider (default or explicit) has the settings as its inputs in the state; a dynamic resource takes stack config,
 * or its `connection` input. The account (base URL and partner id) must come from what the state or the stack config
 * records: the run's environment (SVC_*) is not recover's, and a recover run with other variables would list and
 * delete in another account. The environment serves only as the provider's rules allow (credentials for an account
 * a nearer source names, when the environment names that same account), or, on the user's word
 * (--account-from-environment: this job has the run's variables), as the whole account of a stack that records none.
 * Each account gets one provider process, whose context lists and deletes its objects as the provider does (same
 * clients, retries and timeouts).
 */
import type { ConnectionInput } from "../core/connectionInput";
import { type ConfigLookup, ConnectionError, resolveConnection } from "../core/connection";
import { ACCOUNTS_SETTING, parseNamedAccounts } from "../core/namedAccounts";
import { connectionOfAccountIn } from "../core/providerAccounts";
import type { OperationContext } from "../core/operationContext";
import { ProviderProcess } from "../core/providerProcess";
import type { SvcResource } from "./recoverState";

export interface RecoverAccount {
  /** The account's key: base URL and partner id (never a credential). */
  key: string;
  /** Whether the account came from this process's environment alone (--account-from-environment). */
  fromEnvironment: boolean;
  baseUrl: string;
  partnerId: number;
  /** Timeout of one request on it: how long an answer of an interrupted run may still commit. */
  requestTimeoutMs: number;
  /** A context of an operation on it (its own session). */
  context(): OperationContext;
  close(): Promise<void>;
}

/** The type of the plugin's provider resources in a state (`pulumi:providers:<package>`). */
const SVC_PROVIDER_TYPE = "pulumi:providers:svc";

/** The provider's settings as its inputs hold them, as a stack config lookup ("svc:<name>"). */
const lookupOfInputs =
  (inputs: Record<string, unknown>): ConfigLookup =>
  (key) => {
    const value = inputs[key.replace(/^svc:/, "")];
    if (value === undefined || value === null) return undefined;
    // `accounts` (a map) reads as stack config does: its JSON text.
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  };

interface Source {
  config: ConfigLookup;
  connection?: ConnectionInput;
  /** A named account of the provider's `accounts` (the resource's `account` input). */
  account?: string;
}

/** Resolves the accounts of a stack's resources, one session per account. */
export class RecoverAccounts {
  private readonly byKey = new Map<string, RecoverAccount>();
  /** Why a resource's account could not be told (by URN): reported, its objects left alone. */
  readonly unresolved = new Map<string, string>();

  constructor(
    private readonly stackConfig: ConfigLookup,
    private readonly providers: Map<string, Record<string, unknown>>,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** The user's word that this process's SVC_* variables are the run's (--account-from-environment). */
    private readonly environmentIsTheRuns = false,
  ) {}

  /** The account `resource` uses, or undefined (noted in `unresolved`) when it cannot be resolved. */
  of(resource: Pick<SvcResource, "urn" | "plugin" | "provider" | "inputs">): RecoverAccount | undefined {
    return this.resolve(resource.urn, this.sourceOf(resource));
  }

  /**
   * The accounts a run of the stack may have written to before the state recorded any object of theirs (a run killed
   * before its first answer): each svc provider the state holds (the engine records a provider before its resources)
   * and the stack's own account (stack config, then the environment: what default providers and dynamic resources
   * without a `connection` use). A stack with no account of its own is fine: nothing is noted.
   */
  ofStack(): RecoverAccount[] {
    const found: RecoverAccount[] = [];
    for (const [reference, inputs] of this.providers) {
      const urn = reference.slice(0, reference.lastIndexOf("::"));
      const type = urn.split("::")[2] ?? "";
      if (type !== SVC_PROVIDER_TYPE && !type.endsWith(`$${SVC_PROVIDER_TYPE}`)) continue;
      const config = lookupOfInputs(inputs);
      for (const source of [{ config }, ...namedIn(config).map((account) => ({ config, account }))]) {
        const account = this.resolve(urn, source);
        if (account) found.push(account);
      }
    }
    // The stack's own account and its named accounts (stack config): what default providers and dynamic resources use.
    for (const source of [{ config: this.stackConfig }, ...namedIn(this.stackConfig).map((account) => ({ config: this.stackConfig, account }))]) {
      const account = this.resolve(undefined, source);
      if (account) found.push(account);
    }
    return found;
  }

  /** The account of `source`, made once per key; a source that names none is noted under `urn` (when given). */
  private resolve(urn: string | undefined, source: Source): RecoverAccount | undefined {
    try {
      const fromEnvironment = source.account === undefined && !namesAccount(source);
      if (fromEnvironment && !this.environmentIsTheRuns) {
        throw new ConnectionError(
          "neither the state nor the stack config records its account (the run took it from its SVC_* variables, which recover cannot see); " +
            "run recover in the run's environment with --account-from-environment",
        );
      }
      const connection = source.account
        ? connectionOfAccountIn(source.config, source.account, this.env)
        : resolveConnection(source.connection, source.config, this.env);
      const key = `${connection.baseUrl}#${connection.partnerId}`;
      let account = this.byKey.get(key);
      if (!account) {
        const session = new ProviderProcess();
        session.configure({ get: source.config }, this.env);
        account = {
          key,
          fromEnvironment,
          baseUrl: connection.baseUrl,
          partnerId: connection.partnerId,
          requestTimeoutMs: connection.requestTimeoutMs,
          context: () => session.contextOfChoice(source.account ? { account: source.account } : source.connection ? { connection: source.connection } : {}),
          close: () => session.close(),
        };
        this.byKey.set(key, account);
      }
      return account;
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
      if (urn !== undefined) this.unresolved.set(urn, error.message);
      return undefined;
    }
  }

  all(): RecoverAccount[] {
    return [...this.byKey.values()];
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.all().map((account) => account.close()));
  }

  private sourceOf(resource: Pick<SvcResource, "plugin" | "provider" | "inputs">): Source {
    const account = typeof resource.inputs.account === "string" && resource.inputs.account !== "" ? { account: resource.inputs.account } : {};
    if (resource.plugin) {
      const inputs = resource.provider ? this.providers.get(resource.provider) : undefined;
      return { config: inputs ? lookupOfInputs(inputs) : this.stackConfig, ...account };
    }
    const connection = resource.inputs.connection;
    return { config: this.stackConfig, ...account, ...(connection && typeof connection === "object" ? { connection: connection as ConnectionInput } : {}) };
  }
}

/** Whether a source names its account itself (a base URL or a partner id), rather than leaving it to the environment. */
function namesAccount(source: Source): boolean {
  const named = (value: unknown) => value !== undefined && value !== null && value !== "";
  return (
    named(source.connection?.baseUrl) || named(source.connection?.partnerId) || named(source.config("svc:baseUrl")) || named(source.config("svc:partnerId"))
  );
}

/** The names of the `accounts` a config holds (none when it holds none, or an unreadable one: its resources say why). */
function namedIn(config: ConfigLookup): string[] {
  try {
    return [...parseNamedAccounts(config(ACCOUNTS_SETTING.config)).keys()];
  } catch {
    return [];
  }
}
