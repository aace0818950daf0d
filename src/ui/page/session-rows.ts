/**
 * One session's rows in the page: appended as they arrive (history first, then live increments, a row
 * never twice), with each request's outcome found from its answer, and the filters of the message list.
 * No DOM: plain data, so the rules are easy to read and to test.
 */
import type { LiveRow } from '../live-row.js';

/**
 * `refused`: a discovery probe the server refused (the client falls back to initialize), not an error.
 * `running`: answered with a task that has not ended (a task call ends with its task).
 */
export type Outcome = 'ok' | 'error' | 'isError' | 'cancelled' | 'unanswered' | 'refused' | 'running';

export interface RowFilter {
  /** method, or method + '\u0000' + target */
  method: string;
  /** c, s, p or '' */
  dir: string;
  outcome: '' | Outcome;
  /** '' all, '*' any finding, or a finding code */
  finding: string;
}

export const NO_FILTER: RowFilter = { method: '', dir: '', outcome: '', finding: '' };

/** A request of the waterfall. */
export interface Bar {
  seq: number;
  method: string;
  target?: string;
  t0: number;
  t1?: number;
  outcome: Outcome;
  /** Answered with a task: the task's duration once it ended. */
  taskMs?: number;
}

export class SessionRows {
  readonly rows: LiveRow[] = [];
  readonly bars: Bar[] = [];
  private readonly barOf = new Map<number, Bar>();
  private readonly answerOf = new Map<number, LiveRow>();
  private lastSeq = 0;
  /** method → target → count, for the filter's options. */
  readonly methods = new Map<string, Map<string, number>>();
  readonly findings = new Map<string, number>();
  start = Infinity;
  end = -Infinity;

  /** Appends rows (any order within a batch; rows already held are skipped). Returns how many were new. */
  add(rows: readonly LiveRow[]): number {
    let added = 0;
    for (const r of rows) {
      if (r.s <= this.lastSeq) continue;
      this.lastSeq = r.s;
      this.rows.push(r);
      added++;
      if (r.t < this.start) this.start = r.t;
      if (r.t > this.end) this.end = r.t;
      this.index(r);
    }
    return added;
  }

  private index(r: LiveRow): void {
    if (r.m !== undefined && r.k !== 'event') {
      const t = this.methods.get(r.m) ?? new Map<string, number>();
      this.methods.set(r.m, t);
      const g = r.g ?? '';
      t.set(g, (t.get(g) ?? 0) + 1);
    }
    for (const n of r.n ?? []) this.findings.set(n, (this.findings.get(n) ?? 0) + 1);
    if (r.k === 'request') {
      const bar: Bar = { seq: r.s, method: r.m ?? '(no method)', t0: r.t, outcome: 'unanswered' };
      if (r.g !== undefined) bar.target = r.g;
      this.bars.push(bar);
      this.barOf.set(r.s, bar);
    } else if ((r.k === 'response' || r.k === 'error') && r.r !== undefined) {
      const bar = this.barOf.get(r.r);
      if (bar && bar.t1 === undefined && bar.outcome !== 'running') {
        this.answerOf.set(r.r, r);
        // a CreateTaskResult: the call runs on as a task
        if (r.tk !== undefined && r.to === undefined && r.k === 'response') bar.outcome = 'running';
        else {
          bar.t1 = r.t;
          bar.outcome = answerOutcome(r);
        }
      }
    } else if (r.k === 'notification' && r.m === 'notifications/cancelled' && r.r !== undefined) {
      const bar = this.barOf.get(r.r);
      if (bar && bar.t1 === undefined) {
        bar.outcome = 'cancelled';
        bar.t1 = r.t;
      }
    }
    if (r.td !== undefined) this.taskEnded(r, r.to ?? r.r);
  }

  /** The record that ended the task of the call `callSeq` (its status, its duration `td`). */
  private taskEnded(r: LiveRow, callSeq: number | undefined): void {
    const bar = callSeq !== undefined ? this.barOf.get(callSeq) : undefined;
    if (!bar || bar.outcome !== 'running') return;
    bar.t1 = r.t;
    bar.taskMs = r.td;
    bar.outcome = r.ts === 'failed' ? 'error' : r.ts === 'cancelled' ? 'cancelled' : r.x?.includes('E') ? 'isError' : 'ok';
  }

  /** The bar of request `seq` (its outcome; a task call's task duration). */
  barFor(seq: number): Bar | undefined {
    return this.barOf.get(seq);
  }

  /** How a row's exchange ended: requests by their answer, answers by themselves; undefined for the rest. */
  outcomeOf(r: LiveRow): Outcome | undefined {
    if (r.k === 'request') return this.barOf.get(r.s)?.outcome ?? 'unanswered';
    if (r.k === 'response' || r.k === 'error') return answerOutcome(r);
    return undefined;
  }

  /** The answer to request `seq`, once it came. */
  answerTo(seq: number): LiveRow | undefined {
    return this.answerOf.get(seq);
  }

  matches(r: LiveRow, f: RowFilter): boolean {
    if (f.method) {
      const [m, g] = f.method.split('\u0000');
      const names = r.k === 'batch' ? (r.bm ?? []) : [r.m];
      if (!names.includes(m)) return false;
      if (g !== undefined && r.g !== g) return false;
    }
    if (f.dir && r.f !== f.dir) return false;
    if (f.outcome && this.outcomeOf(r) !== f.outcome) return false;
    if (f.finding === '*' && !r.n) return false;
    if (f.finding && f.finding !== '*' && !(r.n ?? []).includes(f.finding)) return false;
    return true;
  }

  /** Indexes of the rows from `from` on that pass the filter. */
  filtered(f: RowFilter, from = 0): number[] {
    const out: number[] = [];
    for (let i = from; i < this.rows.length; i++) if (this.matches(this.rows[i]!, f)) out.push(i);
    return out;
  }
}

function answerOutcome(r: LiveRow): Outcome {
  if (r.k === 'error') return r.x?.includes('R') ? 'refused' : 'error';
  if (r.x?.includes('C')) return 'cancelled';
  if (r.x?.includes('E')) return 'isError';
  return 'ok';
}
