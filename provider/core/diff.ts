/**
 * diff for dynamic providers: olds are the outputs in state, news the checked inputs. A field changes when its
 * normalized value differs or is unknown (preview). Fields are either updated in place or force a replacement.
 * `__provider` (the serialized provider) and `connection` never cause a change: the provider code is a thin stable
 * shim that loads the installed package, so a package upgrade needs no API call and shows no diff.
 */
import { isUnknown } from "./unknowns";

export interface DiffOutcome {
  changes: boolean;
  /** The inputs that changed (the plugin's detailed diff; the dynamic host ignores it). */
  changed?: string[];
  replaces: string[];
  deleteBeforeReplace?: boolean;
}

export function diffFields(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  inPlace: readonly string[],
  replacing: readonly string[],
): { changed: string[]; replaces: string[] } {
  const changed: string[] = [];
  const replaces: string[] = [];
  for (const key of [...inPlace, ...replacing]) {
    if (isUnknown(news[key]) || !sameValue(olds[key], news[key])) {
      changed.push(key);
      if (replacing.includes(key)) replaces.push(key);
    }
  }
  return { changed, replaces };
}

/** Deep equality of JSON values, treating undefined, null and an absent key alike. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  if (b === undefined || b === null) return false;
  if (typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The inputs read reports: each field of the resource's input schema, taken from the outputs (the server's value
 * for server-backed fields; the outputs carry the input-only fields through from state). Derived from the schema's
 * keys, so a new input field cannot be forgotten here.
 */
export function inputsFromOutputs(schemaShape: Record<string, unknown>, outputs: Record<string, unknown>): Record<string, unknown> {
  return plain(Object.fromEntries(Object.keys(schemaShape).map((key) => [key, outputs[key]])));
}

/** Outputs must be plain JSON: drop undefined values (the host cannot serialize them). */
export function plain<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** update with nothing to send: the outputs in state stay, with the input-only fields taken from the new inputs. */
export function keptState(olds: Record<string, unknown>, news: Record<string, unknown>, inputOnly: readonly string[]): Record<string, unknown> {
  const { __provider: _provider, ...state } = olds;
  return plain({ ...state, ...Object.fromEntries(inputOnly.map((key) => [key, news[key]])) });
}
