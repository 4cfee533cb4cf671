/**
 * Reads api_v3 parameters from the query string and the body (form-encoded, multipart or JSON) into one tree.
 * Nested names are accepted as `a[b][c]` and `a:b:c` (multirequest uses `1:appToken[description]`); a name
 * ending in `__null` sets that field to null. Body values win over the query string.
 */
import type { Context } from "hono";
import { HttpError } from "../shared/errors";

export type ParamValue = string | null | ParamTree;
export interface ParamTree {
  [key: string]: ParamValue;
}

const NULL_SUFFIX = "__null";

export function keyPath(key: string): string[] {
  return key
    .replace(/\]/g, "")
    .split(/[[:]/)
    .filter((s) => s !== "");
}

/**
 * Names that would reach Object.prototype through a plain object (`__proto__[x]=1`, `constructor[prototype][x]=1`).
 * No platform object has such a property, so a parameter naming one is ignored, like any unknown property.
 */
const UNSAFE_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

export function setPath(tree: ParamTree, path: string[], value: string | null): void {
  if (path.length === 0) return;
  let last = path[path.length - 1] as string;
  // The suffix comes off before the guard: `__proto____null` names `__proto__` as surely as `__proto__` does.
  if (last.endsWith(NULL_SUFFIX) && last.length > NULL_SUFFIX.length) {
    last = last.slice(0, -NULL_SUFFIX.length);
    value = null;
  }
  const parents = path.slice(0, -1);
  if ([...parents, last].some((seg) => UNSAFE_SEGMENTS.has(seg))) return;
  let node = tree;
  for (const seg of parents) {
    // Own properties only: `toString[x]=1` must make a subtree, not reach Object.prototype.toString.
    const next = Object.hasOwn(node, seg) ? node[seg] : undefined;
    if (next === undefined || next === null || typeof next === "string") node[seg] = {};
    node = node[seg] as ParamTree;
  }
  node[last] = value;
}

export function fromEntries(tree: ParamTree, entries: Iterable<[string, string]>): ParamTree {
  for (const [k, v] of entries) setPath(tree, keyPath(k), v);
  return tree;
}

/** JSON bodies: nested objects, with scalars turned into strings as a form body would carry them. */
export function fromJson(tree: ParamTree, json: unknown, prefix: string[] = []): ParamTree {
  if (json === null) {
    setPath(tree, prefix, null);
  } else if (typeof json === "object") {
    for (const [k, v] of Object.entries(json as Record<string, unknown>)) fromJson(tree, v, [...prefix, ...keyPath(k)]);
  } else if (json !== undefined) {
    setPath(tree, prefix, typeof json === "boolean" ? (json ? "1" : "0") : String(json));
  }
  return tree;
}

/** One parse per request: the per-account counter (api/partnerTraffic.ts) and the route both read the parameters. */
const parsed = new WeakMap<Request, Promise<ParamTree>>();

export function readParams(c: Context): Promise<ParamTree> {
  let params = parsed.get(c.req.raw);
  if (!params) parsed.set(c.req.raw, (params = parseParams(c)));
  return params;
}

async function parseParams(c: Context): Promise<ParamTree> {
  const tree: ParamTree = {};
  fromEntries(tree, new URL(c.req.url).searchParams);
  if (c.req.method === "GET" || c.req.method === "HEAD") return tree;
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (type.includes("multipart/form-data")) {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      // A transport-level refusal (not a platform error): the body could not be read as the type it claims.
      throw new HttpError(400, "body: malformed multipart/form-data");
    }
    for (const [k, v] of form) if (typeof v === "string") setPath(tree, keyPath(k), v);
    return tree;
  }
  const text = await c.req.text();
  if (text.trim() === "") return tree;
  if (type.includes("application/json") || /^\s*[{[]/.test(text)) {
    try {
      return fromJson(tree, JSON.parse(text));
    } catch {
      // not JSON after all: fall through to form decoding
    }
  }
  return fromEntries(tree, new URLSearchParams(text));
}

/** A string leaf, or undefined when absent, null or a subtree. */
export function leaf(tree: ParamTree, key: string): string | undefined {
  const v = tree[key];
  return typeof v === "string" ? v : undefined;
}

export function subtree(tree: ParamTree, key: string): ParamTree | undefined {
  const v = tree[key];
  return v !== null && typeof v === "object" ? v : undefined;
}
