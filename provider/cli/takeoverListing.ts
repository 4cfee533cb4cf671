/**
 * What `pulumi-svc takeover` offers to import: every object the definitions' `list()` finds in the account, minus
 * what a stack already manages (its `pulumi stack export`), each with a Pulumi resource name that is valid and unique
 * (among the candidates and the names the stack already uses for that type).
 */
import type { OperationContext } from "../core/operationContext";
import { DEFINITIONS } from "../definitions";
import type { Existing, ResourceDefinition } from "../definitions/define";
import { parseTypeToken } from "../resources/typeToken";
import { displayed } from "./asciiLiteral";

export interface Candidate {
  definition: ResourceDefinition;
  id: string;
  /** The resource name in the import file and the program (unique in this run and in the stack, for its type). */
  name: string;
  /** How a person recognises the object (a token's description, a template's system name or name). */
  label: string;
  inputs: Record<string, unknown>;
}

/** The stack's svc resources: the ids it manages (with their account, when the state records it) and the names it uses. */
export interface Managed {
  ids: { type: string; id: string; partnerId?: number }[];
  names: Map<string, Set<string>>;
}

interface StateResource {
  urn?: string;
  type?: string;
  id?: string;
  external?: boolean;
  outputs?: Record<string, unknown>;
}

/** Reads a `pulumi stack export` (version 3 deployment): every resource of an svc type, dynamic or plugin. */
export function managedBy(exported: unknown): Managed {
  const deployment = (exported as { deployment?: { resources?: StateResource[] } } | undefined)?.deployment;
  if (!deployment || typeof deployment !== "object") throw new Error("the state is not the output of `pulumi stack export` (no deployment)");
  const managed: Managed = { ids: [], names: new Map() };
  for (const resource of deployment.resources ?? []) {
    const type = typeOf(resource.type ?? "");
    if (!type) continue;
    const name = (resource.urn ?? "").split("::").pop();
    if (name) managed.names.set(type, (managed.names.get(type) ?? new Set()).add(name));
    // An object read with .get() (external) is not managed by the stack: it stays a candidate.
    if (resource.external || !resource.id) continue;
    const partnerId = resource.outputs?.partnerId;
    managed.ids.push({ type, id: resource.id, ...(typeof partnerId === "number" ? { partnerId } : {}) });
  }
  return managed;
}

/** `AppToken` for either of its type tokens (`pulumi-nodejs:dynamic/svc:AppToken`, `svc:index:AppToken`). */
function typeOf(token: string): string | undefined {
  const type = parseTypeToken(token)?.type;
  return DEFINITIONS.find((d) => d.type === type)?.type;
}

/**
 * How many objects of each type a program declares, in words ("2 app token(s), 0 webhook(s), 1 email template(s)"):
 * every registered type, and any other a candidate is of, by its definition's `takeover.noun`.
 */
export function countsText(declared: readonly ResourceDefinition[]): string {
  const types = [...new Map([...DEFINITIONS, ...declared].map((definition) => [definition.type, definition])).values()];
  return types.map((definition) => `${declared.filter((d) => d.type === definition.type).length} ${definition.takeover.noun}(s)`).join(", ");
}

export interface Listing {
  candidates: Candidate[];
  /** Found in the account and already managed by the stack. */
  managedCount: number;
  /** Found but not importable as a clean program (e.g. a template whose event is not in the catalog), with why. */
  skipped: { type: string; id: string; reason: string }[];
  /** Disabled tokens and templates left out (listed only with includeDisabled). */
  disabledCount: number;
}

export interface ListingOptions {
  /** Take disabled tokens and templates too (a template keeps `active: false`; a token's status is not an input). */
  includeDisabled?: boolean;
  definitions?: readonly ResourceDefinition[];
}

/** Lists the account `ctx` reaches (partner `partnerId`) and keeps what the stack does not manage. */
export async function listCandidates(ctx: OperationContext, partnerId: number, managed: Managed, options: ListingOptions = {}): Promise<Listing> {
  const definitions = options.definitions ?? DEFINITIONS;
  const found = await Promise.all(definitions.map(async (definition) => ({ definition, existing: (await definition.list?.(ctx)) ?? [] })));
  const taken = new Set<string>();
  const listing: Listing = { candidates: [], managedCount: 0, skipped: [], disabledCount: 0 };
  for (const { definition, existing } of found) {
    const used = managed.names.get(definition.type) ?? new Set<string>();
    const named = existing.map((object) => ({ object, base: resourceName(object, definition) }));
    named.sort((a, b) => a.base.localeCompare(b.base) || a.object.id.localeCompare(b.object.id, undefined, { numeric: true }));
    for (const { object, base } of named) {
      if (managed.ids.some((m) => m.type === definition.type && m.id === object.id && (m.partnerId === undefined || m.partnerId === partnerId))) {
        listing.managedCount++;
        continue;
      }
      if (!options.includeDisabled && definition.takeover.isDisabled(object.inputs)) {
        listing.disabledCount++;
        continue;
      }
      const reason = unimportable(definition, object);
      if (reason) {
        listing.skipped.push({ type: definition.type, id: object.id, reason });
        continue;
      }
      const name = uniqueName(base, (n) => taken.has(n) || used.has(n));
      taken.add(name);
      listing.candidates.push({ definition, id: object.id, name, label: object.name, inputs: object.inputs });
    }
  }
  return listing;
}

/** Why an object cannot become a clean program; undefined when it can. */
function unimportable(definition: ResourceDefinition, object: Existing): string | undefined {
  // A template's source is named by the event it reacts to; without a catalog event the program cannot declare one.
  if ("event" in definition.inputs && object.inputs.event === undefined) {
    // Printed as it came from the platform: escaped, so no terminal control sequence gets through.
    return `reacts to an event outside the catalog (eventType ${displayed(String(object.inputs.eventType))}, eventObjectType ${displayed(String(object.inputs.eventObjectType))})`;
  }
  return undefined;
}

/** A Pulumi resource name from the object's description or system name: lower-case words joined by "-". */
export function resourceName(object: Existing, definition: ResourceDefinition): string {
  const slug = slugOf(object.name).slice(0, 60).replace(/-+$/, "");
  const id = slugOf(object.id);
  // No description (the definition names it by its id): the kind and the id.
  return slug && slug !== id ? slug : `${definition.takeover.namePrefix}-${id}`;
}

const slugOf = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

export function uniqueName(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) if (!taken(`${base}-${n}`)) return `${base}-${n}`;
}
