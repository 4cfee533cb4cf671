/**
 * api_v3 form encoding: nested objects become `name[field]=value`, arrays `name[0]=...`,
 * null becomes `name__null=` (the platform's way to clear a property), undefined is left out.
 */
export type FormValue = string | number | boolean | null | undefined | FormValue[] | { [key: string]: FormValue };
export type FormParams = Record<string, FormValue>;

export function encodeForm(params: FormParams): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) appendValue(pairs, key, value);
  return pairs.join("&");
}

function appendValue(pairs: string[], name: string, value: FormValue): void {
  if (value === undefined) return;
  if (value === null) {
    pairs.push(`${encode(`${name}__null`)}=`);
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) appendValue(pairs, `${name}[${index}]`, item);
  } else if (typeof value === "object") {
    for (const [field, inner] of Object.entries(value)) appendValue(pairs, `${name}[${field}]`, inner);
  } else if (typeof value === "boolean") {
    // The platform reads booleans as 1/0.
    pairs.push(`${encode(name)}=${value ? "1" : "0"}`);
  } else {
    pairs.push(`${encode(name)}=${encode(String(value))}`);
  }
}

/** Brackets and colons stay readable (`appToken[hashType]`, `1:service`); everything else is escaped. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/%5B/g, "[").replace(/%5D/g, "]").replace(/%3A/g, ":");
}
