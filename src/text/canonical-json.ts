/** JSON text with object keys sorted, for telling values apart whatever their key order. Pure. */

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * JSON with sorted keys: two values that differ only in key order give the same text (a tool definition
 * seen again, a request's params matched against a recorded one). Past 64 levels a value counts as null.
 */
export function canonicalJson(v: unknown, depth = 0): string {
  if (depth > 64) return 'null';
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x, depth + 1)).join(',')}]`;
  if (isObj(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k], depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
