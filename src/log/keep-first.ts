/**
 * The bounded fold every reader applies to bad records: keep the first `perKey` of each key whole (a
 * rule id, a note code — the session's own or a lens' —, an error code), count the rest, and say how many
 * were left out. Memory grows with the number of keys (itself capped), never with the number of bad
 * records, so a session where every record carries a finding or an error reads in the same memory as a
 * healthy one. Pure: the caller keeps the items it is told to keep; this only decides and counts.
 */
import type { LogRecord, Note } from './record.js';

/** One key's items left out. */
export interface Omitted {
  key: string;
  count: number;
}

export interface KeepFirstLimits {
  /** Items kept per key. */
  perKey: number;
  /** Distinct keys tracked; items of further keys are all counted under OTHER_KEY and kept only while it has room. */
  maxKeys?: number;
  /** Items kept over all keys; past it every item is counted, none kept. */
  maxTotal?: number;
}

/** Distinct keys counted one by one unless a fold asks for another number; the rest are counted together. */
export const MAX_KEYS = 200;

/** Where items of keys beyond `maxKeys` are counted. */
export const OTHER_KEY = '(other)';

/** Keep-first-N-per-key decisions and the counts of what was left out. */
export class KeepFirst {
  private readonly seen = new Map<string, { kept: number; omitted: number }>();
  private readonly maxKeys: number;
  private readonly maxTotal: number;
  private keptTotal = 0;

  constructor(private readonly limits: KeepFirstLimits) {
    this.maxKeys = limits.maxKeys ?? MAX_KEYS;
    this.maxTotal = limits.maxTotal ?? Infinity;
  }

  /** Counts one item of `key`; true when it is to be kept (the first `perKey` of its key). */
  take(key: string): boolean {
    const s = this.slot(key);
    if (s.kept < this.limits.perKey && this.keptTotal < this.maxTotal) {
      s.kept++;
      this.keptTotal++;
      return true;
    }
    s.omitted++;
    return false;
  }

  /** Whether an item of `key` would still be kept (nothing is counted). */
  hasRoom(key: string): boolean {
    if (this.keptTotal >= this.maxTotal) return false;
    const s = this.seen.get(this.seen.has(key) || this.seen.size < this.maxKeys ? key : OTHER_KEY);
    return s === undefined || s.kept < this.limits.perKey;
  }

  /** Counts an item of `key` as left out (the caller dropped it for a reason of its own, e.g. another key's quota). */
  omit(key: string): void {
    this.slot(key).omitted++;
  }

  /** Items of `key` left out so far. */
  omittedOf(key: string): number {
    return this.seen.get(key)?.omitted ?? 0;
  }

  /** Every key with items left out, in the order the keys first appeared. */
  omitted(): Omitted[] {
    const out: Omitted[] = [];
    for (const [key, s] of this.seen) if (s.omitted > 0) out.push({ key, count: s.omitted });
    return out;
  }

  /** All items left out. */
  totalOmitted(): number {
    let n = 0;
    for (const s of this.seen.values()) n += s.omitted;
    return n;
  }

  private slot(key: string): { kept: number; omitted: number } {
    let s = this.seen.get(key);
    if (s) return s;
    const k = this.seen.size < this.maxKeys ? key : OTHER_KEY;
    s = this.seen.get(k);
    if (!s) this.seen.set(k, (s = { kept: 0, omitted: 0 }));
    return s;
  }
}

/**
 * How many items of each key fit in `max`: a key with few items keeps them all, the rest share what is
 * left equally (water-filling), so a flood of one key does not hide the rare ones.
 */
export function shareResults(counts: ReadonlyMap<string, number>, max: number): Map<string, number> {
  const byCount = [...counts].sort((a, b) => a[1] - b[1]);
  const out = new Map<string, number>();
  let left = max;
  byCount.forEach(([id, n], i) => {
    const take = Math.min(n, Math.floor(left / (byCount.length - i)));
    out.set(id, take);
    left -= take;
  });
  return out;
}

/** The key of an error answer with this JSON-RPC error code (`error -32603`; `error ?` without a code). */
export function errorKey(code: unknown): string {
  return `error ${typeof code === 'number' && Number.isFinite(code) ? code : '?'}`;
}

/** isError results share one key; invalid lines another. */
export const IS_ERROR_KEY = 'isError';
export const INVALID_KEY = 'invalid';

function notesOfRecord(r: LogRecord): Note[] {
  const out: Note[] = [];
  if (Array.isArray(r.notes)) out.push(...r.notes);
  if (Array.isArray(r.items)) for (const it of r.items) if (Array.isArray(it.notes)) out.push(...it.notes);
  return out;
}

/**
 * Why a record is bad, as keys: each note code (of the record and of its batch elements, whatever stage
 * added it), the error code of an error answer (its body must be parsed for that), isError, an invalid
 * line. Empty for a healthy record.
 */
export function badKeysOf(r: LogRecord): string[] {
  const keys: string[] = [];
  for (const n of notesOfRecord(r)) if (typeof n?.code === 'string' && !keys.includes(n.code)) keys.push(n.code);
  if (r.kind === 'error') keys.push(errorKey((r.msg as { error?: { code?: unknown } } | undefined)?.error?.code));
  if (r.isError === true) keys.push(IS_ERROR_KEY);
  if (r.kind === 'invalid') keys.push(INVALID_KEY);
  if (r.kind === 'batch' && Array.isArray(r.items)) {
    const msgs: unknown[] = Array.isArray(r.msg) ? r.msg : [];
    r.items.forEach((it, i) => {
      const key = it.kind === 'error' ? errorKey((msgs[i] as { error?: { code?: unknown } } | undefined)?.error?.code) : it.isError === true ? IS_ERROR_KEY : undefined;
      if (key !== undefined && !keys.includes(key)) keys.push(key);
    });
  }
  return keys;
}

/** Offers every key of `keys`; true when at least one of them still had room (then the record is kept). */
export function takeAny(k: KeepFirst, keys: readonly string[]): boolean {
  const room = keys.some((key) => k.hasRoom(key));
  for (const key of keys) {
    if (room) {
      if (k.hasRoom(key)) k.take(key);
      // a key without room whose record is kept anyway: it is shown, not left out
    } else k.omit(key);
  }
  return room;
}

/** What a key's items are called: `before-initialize findings`, `error answers with code -32603`, … */
export function keyNoun(key: string, count: number): string {
  const s = count === 1 ? '' : 's';
  if (key === IS_ERROR_KEY) return `isError result${s}`;
  if (key === INVALID_KEY) return `invalid line${s}`;
  if (key === OTHER_KEY) return `record${s} with findings of other codes`;
  if (key.startsWith('error ')) return `error answer${s} with code ${key.slice(6)}`;
  return `${key} finding${s}`;
}

/** The line every reader writes for a key's left-out items: `… and 99,000 more before-initialize findings`. */
export function moreText(count: number, noun: string): string {
  return `… and ${count.toLocaleString('en-US')} more ${noun}`;
}
