/**
 * What the two kinds of event notification template share in their definitions: the system template a program
 * chooses (by id, system name or event, exactly one), the event an imported template stands for, the unique
 * systemName that makes a replacement delete first, and the code-and-message text of a failure. The fields and
 * operations both kinds share are in templateOperations.ts.
 */
import { EVENT_KEYS, type EventKey, templateMatchesEvent } from "../../contract/events";
import type { CheckFailure } from "../core/check";
import { sameValue } from "../core/diff";
import { failureText, PartialCreateError, ProviderError } from "../core/errors";
import { isUnknown } from "../core/unknowns";

/** Why systemTemplateId is on its way out (both kinds of template). */
export const SYSTEM_TEMPLATE_ID_DEPRECATION =
  "A system template's id differs between accounts (dev, prod): choose it by event or systemTemplateName, the same in every account (getSystemTemplates lists them).";

export const SELECTORS = ["systemTemplateId", "systemTemplateName", "event"] as const;

type Selected = { systemTemplateId?: string; systemTemplateName?: string; event?: EventKey };
type SystemTemplate = { id: string; name: string; systemName?: string; eventType?: string; eventObjectType?: string };

/** check: exactly one selector (an unknown one, in preview, counts as given). */
export function checkSelectors(checked: Record<string, unknown>, failures: CheckFailure[], kind: string): void {
  const given = SELECTORS.filter((key) => checked[key] !== undefined && checked[key] !== null);
  if (given.length !== 1 && !given.some((key) => isUnknown(checked[key]))) {
    failures.push({
      property: given[1] ?? "systemTemplateId",
      reason: `expected exactly one of systemTemplateId, systemTemplateName or event (to choose the system ${kind} template to clone); got ${given.length === 0 ? "none" : given.join(", ")}`,
    });
  }
}

/** The system template the program chose, among `objects`; an error naming the field and what is available. */
export function chooseSource<T extends SystemTemplate>(objects: readonly T[], inputs: Selected, kind: string): T {
  const match = objects.find((t) =>
    inputs.systemTemplateId !== undefined
      ? t.id === inputs.systemTemplateId
      : inputs.systemTemplateName !== undefined
        ? t.systemName === inputs.systemTemplateName
        : inputs.event !== undefined && templateMatchesEvent(t, inputs.event),
  );
  if (match) return match;
  const field = SELECTORS.find((key) => inputs[key] !== undefined) ?? "systemTemplateId";
  const available = objects.map((t) => `${t.id} (${t.systemName ?? t.name})`).join(", ");
  throw new ProviderError(`${field}: no ${kind} system template matches ${String(inputs[field])}; available: ${available || "none"}`);
}

/** The catalog event a template reacts to (what an imported template's `event` input is). */
export function eventOf(template: { eventType?: string; eventObjectType?: string }): EventKey | undefined {
  return EVENT_KEYS.find((key) => templateMatchesEvent(template, key));
}

/** The carried inputs of a read: the state's, or, on an import (no selector in the state), the template's event. */
export function carriedForRead<S extends Record<string, unknown>>(state: S, template: { eventType?: string; eventObjectType?: string }): S {
  return SELECTORS.some((key) => state[key] !== undefined) ? state : { ...state, event: eventOf(template) };
}

/** The account's systemNames are unique: a replacement keeping its systemName must delete the old one first. */
export function keepsSystemName(olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  return news.systemName !== undefined && sameValue(olds.systemName, news.systemName);
}

/** The key of a numeric enum's value (the platform's numbers as the names programs write). */
export function nameOf<T extends Record<string, number>>(table: T, value: number | undefined): keyof T | undefined {
  return (Object.keys(table) as (keyof T)[]).find((key) => table[key] === value);
}

/** A failure as "CODE: message" when it has a code, else its message; both redacted, the code cut short. */
export function messageOf(error: unknown): string {
  return failureText(error);
}

/**
 * A clone made but not finished (cleared, activated) when its operation was interrupted by Cancel or the deadline:
 * reported to the engine as a partial create, which records it; the next `pulumi up` finishes it by an update.
 */
export function interruptedClone(what: string, id: string, why: string, properties: Record<string, unknown>): PartialCreateError {
  return new PartialCreateError(
    `${what} ${id} was cloned, but the operation was interrupted before it was finished (${why}); it is recorded in the stack as it is, and the next pulumi up finishes it`,
    id,
    properties,
  );
}
