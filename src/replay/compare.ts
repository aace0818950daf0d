/**
 * Structural comparison of a recorded message with a replayed one: a list of differences with JSON
 * paths, after leaving out what `--ignore` names and (unless strict) the default volatile fields. Object
 * member order never matters; arrays of different lengths are aligned (longest common subsequence) so
 * one inserted element is reported once, not as a change of every element after it. When the recorded
 * copy was shortened by the log, only what it kept is compared and the result says it was partial.
 */
import { formatPath, patternMatches, type PathPattern, type Segment } from './json-path.js';
import { cutString, isElidedMember, keptElements, matchesCut } from './shortened.js';
import { isTimeKey, isVolatileKey, maskTimestamps } from './volatile.js';

export interface Difference {
  path: string;
  /** changed: other value of the same type; type: other JSON type; added: only in the replay; removed: only in the recording. */
  op: 'changed' | 'type' | 'added' | 'removed';
  recorded?: unknown;
  replayed?: unknown;
  /** Why a shortened string differs: its kept head, or its size. */
  note?: string;
}

export interface CompareOptions {
  ignore: readonly PathPattern[];
  /** false: also compare the default volatile fields (--strict). */
  volatile: boolean;
  /** The recorded side is a shortened copy (the record has `truncated: true`): honour its markers. */
  shortened?: boolean;
}

export interface Comparison {
  differences: Difference[];
  /** Differences left out because a volatile rule or an --ignore pattern covers them. */
  ignored: number;
  /** The recorded copy was shortened: only what the log kept was compared. */
  partial: boolean;
}

/** Largest n·m for which arrays are aligned by LCS; longer ones are compared index by index. */
const LCS_CAP = 40_000;

type Json = unknown;

const typeName = (v: Json): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

class Walker {
  readonly differences: Difference[] = [];
  ignored = 0;
  partial = false;
  constructor(private readonly opts: CompareOptions) {}

  private isIgnored(path: readonly Segment[]): boolean {
    return this.opts.ignore.some((p) => patternMatches(p, path));
  }

  private report(path: Segment[], d: Omit<Difference, 'path'>): void {
    if (this.isIgnored(path)) {
      this.ignored++;
      return;
    }
    this.differences.push({ path: formatPath(path), ...d });
  }

  walk(a: Json, b: Json, path: Segment[]): void {
    const ta = typeName(a);
    const tb = typeName(b);
    const key = path.at(-1);
    if (ta === 'string' && this.opts.shortened) {
      const cut = cutString(a as string);
      if (cut) {
        this.partial = true;
        if (tb !== 'string') return this.report(path, { op: 'type', recorded: a, replayed: b });
        const how = matchesCut(cut, b as string);
        if (how === 'head') return this.report(path, { op: 'changed', recorded: a, replayed: b, note: 'the part the log kept differs' });
        if (how === 'size') return this.report(path, { op: 'changed', recorded: a, replayed: b, note: `the recorded string had ${cut.rawBytes} bytes` });
        return;
      }
    }
    // a time field that changed type (number ↔ string) is still a change
    if (ta !== tb) return this.report(path, { op: 'type', recorded: a, replayed: b });
    if (ta === 'array') return this.walkArray(a as Json[], b as Json[], path);
    if (ta === 'object') return this.walkObject(a as Record<string, Json>, b as Record<string, Json>, path);
    if (a === b) return;
    if (this.opts.volatile && isTimeKey(key)) {
      this.ignored++;
      return;
    }
    if (ta === 'string' && this.opts.volatile) {
      const ma = maskTimestamps(a as string);
      if (ma !== null && ma === maskTimestamps(b as string)) {
        this.ignored++;
        return;
      }
    }
    this.report(path, { op: 'changed', recorded: a, replayed: b });
  }

  private walkObject(a: Record<string, Json>, b: Record<string, Json>, path: Segment[]): void {
    let elided = false;
    for (const k of Object.keys(a)) {
      const va = a[k];
      if (this.opts.shortened && isElidedMember(k, va)) {
        elided = true;
        this.partial = true;
        continue;
      }
      const p = [...path, k];
      if (this.opts.volatile && isVolatileKey(k, path)) {
        if (!deepEqual(va, b[k])) this.ignored++;
        continue;
      }
      if (!Object.hasOwn(b, k)) this.report(p, { op: 'removed', recorded: va });
      else this.walk(va, b[k], p);
    }
    for (const k of Object.keys(b)) {
      if (Object.hasOwn(a, k)) continue;
      if (elided) continue; // may be among the members the log left out
      if (this.opts.volatile && isVolatileKey(k, path)) {
        this.ignored++;
        continue;
      }
      this.report([...path, k], { op: 'added', replayed: b[k] });
    }
  }

  /** Compares x and y on the side; merges what was left out when they are the same. */
  private same(x: Json, y: Json, path: Segment[]): boolean {
    const w = new Walker({ ...this.opts, shortened: false });
    w.walk(x, y, path);
    if (w.differences.length > 0) return false;
    this.ignored += w.ignored;
    return true;
  }

  private walkArray(a: Json[], b: Json[], path: Segment[]): void {
    const kept = this.opts.shortened ? keptElements(a) : null;
    if (kept !== null) {
      this.partial = true;
      const n = Math.min(kept, b.length);
      for (let i = 0; i < n; i++) this.walk(a[i], b[i], [...path, i]);
      for (let i = n; i < kept; i++) this.report([...path, i], { op: 'removed', recorded: a[i] });
      return;
    }
    // equal heads and tails first, then align what is left between them
    let lo = 0;
    while (lo < a.length && lo < b.length && this.same(a[lo], b[lo], [...path, lo])) lo++;
    let ea = a.length;
    let eb = b.length;
    while (ea > lo && eb > lo && this.same(a[ea - 1], b[eb - 1], [...path, eb - 1])) {
      ea--;
      eb--;
    }
    const n = ea - lo;
    const m = eb - lo;
    if (n === 0 || m === 0 || n * m > LCS_CAP) {
      // nothing to align (only additions or only removals), or too big to align
      const k = Math.min(n, m);
      for (let i = 0; i < k; i++) this.walk(a[lo + i], b[lo + i], [...path, lo + i]);
      for (let i = k; i < n; i++) this.report([...path, lo + i], { op: 'removed', recorded: a[lo + i] });
      for (let i = k; i < m; i++) this.report([...path, lo + i], { op: 'added', replayed: b[lo + i] });
      return;
    }
    // longest common subsequence over "same under these options"; what is left between matches is
    // paired up (a change) and the rest reported as added or removed
    const eq: boolean[][] = Array.from({ length: n }, (_, i) => Array.from({ length: m }, (_, j) => deepEqualUnder(a[lo + i], b[lo + j], [...path, lo + j], this.opts)));
    const L: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) L[i]![j] = eq[i]![j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
    }
    const gapA: number[] = [];
    const gapB: number[] = [];
    const flush = (): void => {
      const k = Math.min(gapA.length, gapB.length);
      for (let x = 0; x < k; x++) this.walk(a[gapA[x]!], b[gapB[x]!], [...path, gapB[x]!]);
      for (let x = k; x < gapA.length; x++) this.report([...path, gapA[x]!], { op: 'removed', recorded: a[gapA[x]!] });
      for (let x = k; x < gapB.length; x++) this.report([...path, gapB[x]!], { op: 'added', replayed: b[gapB[x]!] });
      gapA.length = 0;
      gapB.length = 0;
    };
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (eq[i]![j] && L[i]![j] === L[i + 1]![j + 1]! + 1) {
        flush();
        this.same(a[lo + i], b[lo + j], [...path, lo + j]); // counts what the options left out
        i++;
        j++;
      } else if (L[i + 1]![j]! >= L[i]![j + 1]!) gapA.push(lo + i++);
      else gapB.push(lo + j++);
    }
    while (i < n) gapA.push(lo + i++);
    while (j < m) gapB.push(lo + j++);
    flush();
  }
}

/** "No differences" between x and y under these options (no shortened-copy rules). */
function deepEqualUnder(x: Json, y: Json, path: Segment[], opts: CompareOptions): boolean {
  const w = new Walker({ ...opts, shortened: false });
  w.walk(x, y, path);
  return w.differences.length === 0;
}

/** Compares two JSON values; see the module comment for the rules. */
export function compareJson(recorded: Json, replayed: Json, opts: CompareOptions): Comparison {
  const w = new Walker(opts);
  w.walk(recorded, replayed, []);
  return { differences: w.differences, ignored: w.ignored, partial: w.partial };
}

/** Compares two answers (or two requests' params) without their ids: the replay's ids are its own. */
export function compareMessages(recorded: Json, replayed: Json, opts: CompareOptions): Comparison {
  return compareJson(withoutId(recorded), withoutId(replayed), opts);
}

function withoutId(m: Json): Json {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return m;
  const { id: _id, ...rest } = m as Record<string, Json>;
  void _id;
  return rest;
}

/** Deep equality of JSON values; object member order does not matter. */
export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  const ta = typeName(a);
  if (ta !== typeName(b)) return false;
  if (ta === 'array') {
    const x = a as Json[];
    const y = b as Json[];
    return x.length === y.length && x.every((v, i) => deepEqual(v, y[i]));
  }
  if (ta === 'object') {
    const x = a as Record<string, Json>;
    const y = b as Record<string, Json>;
    const kx = Object.keys(x);
    if (kx.length !== Object.keys(y).length) return false;
    return kx.every((k) => Object.hasOwn(y, k) && deepEqual(x[k], y[k]));
  }
  return Object.is(a, b);
}
