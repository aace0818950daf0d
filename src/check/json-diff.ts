/**
 * Structural difference of two JSON values as a list of JSON Pointer paths with the value before and
 * after (a side without the key has no `before` / `after`). `required` arrays compare as sets, since
 * their order means nothing.
 */
import { pointerSegment } from './schema-check.js';

/** One changed, added (no `before`) or removed (no `after`) value. */
export interface Change {
  path: string;
  before?: unknown;
  after?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Deep equality of JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

const sameSet = (a: unknown[], b: unknown[]): boolean => {
  if (!a.every((x) => typeof x === 'string') || !b.every((x) => typeof x === 'string')) return false;
  const sa = new Set(a as string[]);
  const sb = new Set(b as string[]);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
};

/** The changes from `a` to `b`, at most `limit` of them. */
export function diffJson(a: unknown, b: unknown, limit = 100): Change[] {
  const out: Change[] = [];
  const walk = (x: unknown, y: unknown, path: string, key: string) => {
    if (out.length >= limit) return;
    if (isObj(x) && isObj(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
      for (const k of keys) {
        const p = `${path}/${pointerSegment(k)}`;
        const inX = Object.hasOwn(x, k);
        const inY = Object.hasOwn(y, k);
        if (inX && inY) walk(x[k], y[k], p, k);
        else if (out.length < limit) out.push(inX ? { path: p, before: x[k] } : { path: p, after: y[k] });
      }
      return;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      if (jsonEqual(x, y) || (key === 'required' && sameSet(x, y))) return;
      if (x.length === y.length) {
        x.forEach((v, i) => walk(v, y[i], `${path}/${i}`, String(i)));
        return;
      }
      out.push({ path, before: x, after: y });
      return;
    }
    if (!jsonEqual(x, y)) out.push({ path, before: x, after: y });
  };
  walk(a, b, '', '');
  return out;
}
