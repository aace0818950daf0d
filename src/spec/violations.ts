/**
 * A value checked against a shape → the members that break it: each with its JSON Pointer (RFC 6901)
 * from the message's root, what the spec expects there and what the message has. zod's issues are turned
 * into these; for a union the branch the value was meant to be (its `type`, `mode` or `method` matched,
 * else the closest) speaks, so a text item without `text` reads "/content/0/text: expected string". Pure.
 */
import type { ZodType } from 'zod';

/** One member that breaks the shape. */
export interface Violation {
  pointer: string;
  expected: string;
  found: string;
}

/** The zod issue members this module reads (zod 4's issue union, loosely). */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
  options?: unknown[];
  discriminator?: string;
  errors?: Issue[][];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
}

/** Members that tell a union's branches apart: a branch whose own literal here fails is not the one meant. */
const TAGS = new Set(['type', 'mode', 'method']);

/** The violations of `value` against `schema`; `base` is the pointer of `value` in the message ('' for the root). */
export function violationsOf(schema: ZodType, value: unknown, base: string): Violation[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  const out: Violation[] = [];
  for (const issue of r.error.issues as unknown as Issue[]) collect(issue, [], value, base, out);
  const seen = new Set<string>();
  return out.filter((v) => (seen.has(v.pointer) ? false : (seen.add(v.pointer), true)));
}

function collect(issue: Issue, prefix: PropertyKey[], root: unknown, base: string, out: Violation[]): void {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0) {
    union(issue.errors, path, root, base, out);
    return;
  }
  out.push({ pointer: base + pointerOf(path), expected: expectedOf(issue), found: describe(valueAt(root, path)) });
}

/** A union that no branch matched: the meant branch's issues, or "a or b" when the branches are plain types. */
function union(branches: Issue[][], path: PropertyKey[], root: unknown, base: string, out: Violation[]): void {
  const plain = branches.every((b) => b.length === 1 && b[0]!.code === 'invalid_type' && b[0]!.path.length === 0);
  if (plain) {
    const types = [...new Set(branches.map((b) => typeName(b[0]!.expected)))];
    out.push({ pointer: base + pointerOf(path), expected: types.join(' or '), found: describe(valueAt(root, path)) });
    return;
  }
  const tagMissed = (b: Issue[]) => b.some((i) => i.code === 'invalid_value' && i.path.length === 1 && TAGS.has(String(i.path[0])));
  const meant = branches.filter((b) => !tagMissed(b));
  const pool = meant.length > 0 ? meant : branches;
  const fewest = Math.min(...pool.map((b) => b.length));
  const best = pool.filter((b) => b.length === fewest);
  // text or blob: branches that each miss one member of the same object read as one choice
  const missing = best.map((b) => (b.length === 1 && b[0]!.path.length === 1 && valueAt(root, [...path, ...b[0]!.path]) === undefined ? String(b[0]!.path[0]) : null));
  if (best.length > 1 && missing.every((m) => m !== null)) {
    const names = [...new Set(missing)].map((m) => JSON.stringify(m));
    out.push({ pointer: base + pointerOf(path), expected: `a member ${names.join(' or ')}`, found: 'neither' });
    return;
  }
  for (const i of best[0]!) collect(i, path, root, base, out);
}

function expectedOf(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeName(issue.expected);
    case 'invalid_value':
      return (issue.values ?? []).map((v) => JSON.stringify(v)).join(' or ');
    case 'invalid_union':
      // a discriminated union whose tag matched no branch
      return issue.options ? `one of ${issue.options.map((v) => JSON.stringify(v)).join(', ')}` : 'one of the shapes the spec allows';
    case 'too_small':
    case 'too_big':
      return bound(issue);
    case 'invalid_format':
      return `a ${issue.format ?? 'formatted'} string`;
    default:
      return issue.message;
  }
}

function bound(issue: Issue): string {
  const small = issue.code === 'too_small';
  const n = Number(small ? issue.minimum : issue.maximum);
  const op = small ? (issue.inclusive === false ? '>' : '≥') : issue.inclusive === false ? '<' : '≤';
  if (issue.origin === 'array') return small ? `at least ${n} item${n === 1 ? '' : 's'}` : `at most ${n} item${n === 1 ? '' : 's'}`;
  if (issue.origin === 'string') return small ? `at least ${n} characters` : `at most ${n} characters`;
  return `a number ${op} ${n}`;
}

function typeName(t: string | undefined): string {
  if (t === 'int') return 'integer';
  if (t === 'never') return 'nothing (no member here)';
  return t ?? 'a value';
}

/** What the message holds at a member, for a person: a short JSON value, or its kind for objects and arrays. */
export function describe(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array (${v.length} item${v.length === 1 ? '' : 's'})`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return v.length > 40 ? `${JSON.stringify(v.slice(0, 40)).slice(0, -1)}…" (a string)` : `${JSON.stringify(v)} (a string)`;
  return `${JSON.stringify(v)} (a ${typeof v})`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** Longest key shown whole in a pointer (keys come from the wire; a note stays a line). */
const KEY_MAX = 60;

/** A JSON Pointer for a path (`~` and `/` escaped as RFC 6901 says; a very long key is cut with `…`). */
export function pointerOf(path: readonly PropertyKey[]): string {
  return path
    .map((k) => {
      const key = String(k);
      const shown = key.length > KEY_MAX ? `${key.slice(0, KEY_MAX - 1)}…` : key;
      return `/${shown.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    })
    .join('');
}
