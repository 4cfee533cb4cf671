/**
 * What `pulumi-svc recover` reads in a `pulumi stack export` (version 3 deployment): the svc resources a state
 * records (with their inputs, outputs and provider), the pending creates an interrupted run left, and the explicit
 * and default providers (their inputs name the account the plugin's resources use). Secrets are revealed only when
 * the export was made with `--show-secrets`; they stay in memory and are never printed.
 */
import { DEFINITIONS } from "../definitions";
import { parseTypeToken } from "../resources/typeToken";

/** Pulumi's marker of a secret value in a deployment. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** An svc resource as a state holds it, or as a pending create or a preview's planned create describes it. */
export interface SvcResource {
  urn: string;
  /** The definition's type: AppToken, HttpNotificationTemplate, EmailNotificationTemplate. */
  type: string;
  /** Whether it is the plugin's (`svc:index:*`) rather than a dynamic provider's. */
  plugin: boolean;
  id?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** The provider reference (`<urn>::<id>`) of a plugin resource. */
  provider?: string;
}

export interface StackState {
  /** Resources the state records (read with .get() and pending deletes excluded). */
  resources: SvcResource[];
  /** Every id the state records for an svc type, read-only ones and pending deletes included: never touched. */
  recordedIds: { type: string; id: string }[];
  pendingCreates: SvcResource[];
  /** Provider resources by reference (`<urn>::<id>`): their inputs (revealed when exported with secrets). */
  providers: Map<string, Record<string, unknown>>;
  /** When the state was last written (ms since the epoch), from its manifest. */
  writtenAtMs?: number;
  /** The URN of the stack's root resource (pulumi:pulumi:Stack). */
  stackUrn?: string;
}

interface RawResource {
  urn?: string;
  type?: string;
  id?: string;
  external?: boolean;
  delete?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  provider?: string;
}

/** `AppToken` for either of its type tokens (`pulumi-nodejs:dynamic/svc:AppToken`, `svc:index:AppToken`). */
export function svcTypeOf(token: string): { type: string; plugin: boolean } | undefined {
  const parsed = parseTypeToken(token);
  if (!parsed || !DEFINITIONS.some((d) => d.type === parsed.type)) return undefined;
  return { type: parsed.type, plugin: !parsed.dynamic };
}

/** A value with Pulumi's secret envelopes opened where their plaintext is there (else undefined: not readable). */
export function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  if (object[SECRET_SIG] === SECRET_VALUE) {
    if (typeof object.plaintext !== "string") return undefined;
    return revealed(JSON.parse(object.plaintext));
  }
  return Object.fromEntries(Object.entries(object).map(([key, v]) => [key, revealed(v)]));
}

/** Reads an export; throws when it is not one. */
export function readStackState(exported: unknown): StackState {
  const versioned = exported as { version?: unknown; deployment?: Record<string, unknown> } | undefined;
  // A stack never deployed exports a version and no deployment.
  const deployment = versioned?.deployment ?? (typeof versioned?.version === "number" ? {} : undefined);
  if (!deployment || typeof deployment !== "object") throw new Error("the state is not the output of `pulumi stack export` (no deployment)");
  const state: StackState = { resources: [], recordedIds: [], pendingCreates: [], providers: new Map() };
  const written = Date.parse(String((deployment.manifest as { time?: string } | undefined)?.time ?? ""));
  if (Number.isFinite(written)) state.writtenAtMs = written;
  for (const raw of (deployment.resources as RawResource[] | undefined) ?? []) {
    if (raw.type === "pulumi:pulumi:Stack" && raw.urn) state.stackUrn = raw.urn;
    if (raw.type?.startsWith("pulumi:providers:") && raw.urn && raw.id) {
      state.providers.set(`${raw.urn}::${raw.id}`, revealed(raw.inputs ?? {}) as Record<string, unknown>);
      continue;
    }
    const resource = svcResource(raw);
    if (!resource) continue;
    if (resource.id) state.recordedIds.push({ type: resource.type, id: resource.id });
    if (!raw.external && !raw.delete && resource.id) state.resources.push(resource);
  }
  const operations = (deployment.pending_operations as { type?: string; resource?: RawResource }[] | undefined) ?? [];
  for (const operation of operations) {
    const resource = operation.resource ? svcResource(operation.resource) : undefined;
    if (operation.type === "creating" && resource) state.pendingCreates.push(resource);
  }
  return state;
}

function svcResource(raw: RawResource): SvcResource | undefined {
  const kind = svcTypeOf(raw.type ?? "");
  if (!kind || !raw.urn) return undefined;
  return {
    urn: raw.urn,
    ...kind,
    ...(raw.id ? { id: raw.id } : {}),
    inputs: revealed(raw.inputs ?? {}) as Record<string, unknown>,
    outputs: revealed(raw.outputs ?? {}) as Record<string, unknown>,
    ...(raw.provider ? { provider: raw.provider } : {}),
  };
}
