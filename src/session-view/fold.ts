/**
 * One session's rows in the page, and what the views read from them: the rows by seq, the waterfall's
 * bars and ticks (bars.ts), each request's outcome, the filters' choices with their counts, and the
 * session head's figures. Rows are added as they come (the report: all at once; the live UI: history,
 * then live batches, a row never twice). Pure, no DOM.
 */
import { BarFold, type Bar, type Outcome } from './bars.js';
import type { RowItem, SessionRow } from './row.js';

/** The methods whose targets (tool, prompt, resource) the method filter lists one by one. */
const TARGETED = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What the session head shows. */
export interface HeadFigures {
  messages: number;
  requests: number;
  /** error answers (not refused probes) and isError results */
  errors: number;
  findings: number;
  unanswered: number;
  running: number;
}

/** method → count, and per targeted method target → count. */
export interface MethodCount {
  n: number;
  targets: Map<string, number>;
}

export class SessionFold {
  readonly rows: SessionRow[] = [];
  readonly wf = new BarFold();
  readonly methods = new Map<string, MethodCount>();
  readonly kinds = new Map<string, number>();
  readonly findings = new Map<string, number>();
  /** Bumped when a method, target, kind or finding code appears: the filters' choices changed. */
  choices = 0;
  /** The smallest row time (a record may be older than the origin). */
  first = 0;
  /** The largest row time. */
  last = 0;
  private readonly bySeq = new Map<number, number>();
  private readonly hays: (string | undefined)[] = [];
  private errors = 0;
  private notes = 0;

  /** `duration`: where the session ends when it is known (the report), else the last row. */
  constructor(duration = 0) {
    this.wf.extendTo(Math.max(0, duration));
  }

  /** Appends rows in log order. Returns how many. */
  add(rows: readonly SessionRow[]): number {
    let last = this.last;
    for (const r of rows) {
      this.bySeq.set(r.s, this.rows.length);
      this.rows.push(r);
      if (r.t < this.first) this.first = r.t;
      if (r.t > last) last = r.t;
      this.index(r);
      this.wf.add(r);
    }
    this.last = last;
    this.wf.extendTo(last);
    return rows.length;
  }

  /** Appends the rows not held yet (history and live rows overlap). Returns how many were new. */
  addNew(rows: readonly SessionRow[]): number {
    return this.add(rows.filter((r) => !this.bySeq.has(r.s)));
  }

  /** Where the session ends so far: open bars run to it. */
  get end(): number {
    return this.wf.end;
  }

  /** The row of record `seq`. */
  row(seq: number): SessionRow | undefined {
    const i = this.bySeq.get(seq);
    return i === undefined ? undefined : this.rows[i];
  }

  /** The bar a row belongs to: a request's, or the one its answer (or a notification about it) ended. */
  barFor(r: SessionRow): Bar | undefined {
    return this.wf.barOf(r.s) ?? (r.r !== undefined ? this.wf.barOf(r.r) : undefined);
  }

  /** How a row's exchange ended: requests by their bar, answers by themselves; undefined for the rest. */
  outcomeOf(r: SessionRow): Outcome | undefined {
    if (r.k === 'request') return this.wf.request(r.s)?.outcome ?? 'unanswered';
    if (r.k === 'response' || r.k === 'error') return answerOutcome(r);
    return undefined;
  }

  /** Lower-cased text the free-text filter searches: methods, targets, ids, events, findings, the body. */
  hay(i: number): string {
    let h = this.hays[i];
    if (h === undefined) {
      const r = this.rows[i]!;
      const body = r.y === undefined ? '' : r.yt ? String(r.y) : JSON.stringify(r.y);
      h = [r.m ?? '', r.g ?? '', r.i === undefined ? '' : JSON.stringify(r.i), r.e ?? '', r.v ?? '', r.et ?? '', r.n ? JSON.stringify(r.n) : '', body].join('\n').toLowerCase();
      this.hays[i] = h;
    }
    return h;
  }

  /** Index of record `seq` among the rows. */
  indexOf(seq: number): number | undefined {
    return this.bySeq.get(seq);
  }

  figures(): HeadFigures {
    let unanswered = 0;
    let running = 0;
    for (const b of this.wf.bars) {
      if (b.outcome === 'unanswered') unanswered++;
      else if (b.outcome === 'running') running++;
    }
    return { messages: this.rows.length, requests: this.wf.bars.length, errors: this.errors, findings: this.notes, unanswered, running };
  }

  private count<K>(map: Map<K, number>, key: K): void {
    const n = map.get(key);
    if (n === undefined) this.choices++;
    map.set(key, (n ?? 0) + 1);
  }

  private method(m: string | undefined, g: string | undefined): void {
    if (!m) return;
    let c = this.methods.get(m);
    if (!c) {
      c = { n: 0, targets: new Map() };
      this.methods.set(m, c);
      this.choices++;
    }
    c.n++;
    if (g !== undefined && TARGETED.has(m)) this.count(c.targets, g);
  }

  private index(r: SessionRow): void {
    this.count(this.kinds, r.k);
    if (r.k === 'batch') for (const it of r.it ?? []) this.method(it.method, it.target);
    else this.method(r.m, r.g);
    for (const n of r.n ?? []) this.count(this.findings, n.code);
    this.notes += r.n?.length ?? 0;
    if (isErrorRow(r)) this.errors++;
    for (const it of r.it ?? []) if (isErrorItem(it)) this.errors++;
  }
}

/** An error answer (not a refused discovery probe) or a tool result with isError: the head's "errors". */
export function isErrorRow(r: SessionRow): boolean {
  return (r.k === 'error' && !r.x?.includes('R')) || r.x?.includes('E') === true;
}

/** The same for one element of a batch. */
export function isErrorItem(it: RowItem): boolean {
  return it.kind === 'error' || it.isError === true;
}

/** An answer's own outcome (a refused discovery probe is not an error). */
function answerOutcome(r: SessionRow): Outcome {
  if (r.k === 'error') return r.x?.includes('R') ? 'refused' : 'error';
  if (r.x?.includes('C')) return 'cancelled';
  if (r.x?.includes('E')) return 'isError';
  return 'ok';
}
