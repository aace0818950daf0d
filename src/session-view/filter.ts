/**
 * The filters of a session's view and what they let through: the message list's rows and the
 * waterfall's bars. The state is one small object; the rules are pure functions of it and the fold.
 */
import type { Bar } from './bars.js';
import { isErrorItem, isErrorRow, type SessionFold } from './fold.js';
import type { SessionRow } from './row.js';

export interface Filter {
  /** method, or method + '\u0000' + target */
  method: string;
  /** c, s, p or '' */
  dir: string;
  kind: string;
  /** an outcome (bars.ts) or '' */
  outcome: string;
  /** '' all, '*' any finding, or a finding code */
  finding: string;
  /** errors only: error answers, isError results, findings, invalid lines, failed or unanswered requests */
  err: boolean;
  /** lower-cased free text */
  text: string;
  /** while the waterfall is zoomed, only the rows of its time range */
  range: boolean;
}

export const NO_FILTER: Readonly<Filter> = { method: '', dir: '', kind: '', outcome: '', finding: '', err: false, text: '', range: true };

const BAD_OUTCOME = new Set(['error', 'isError', 'unanswered']);

function methodOk(f: Filter, m: string | undefined, g: string | undefined): boolean {
  if (!f.method) return true;
  const [fm, fg] = f.method.split('\u0000');
  return m === fm && (fg === undefined || g === fg);
}

function findingOk(f: Filter, notes: SessionRow['n']): boolean {
  if (f.finding === '*') return notes !== undefined && notes.length > 0;
  return notes !== undefined && notes.some((n) => n.code === f.finding);
}

/** Whether a row counts as a problem for "errors only". */
export function isBad(fold: SessionFold, r: SessionRow): boolean {
  if (isErrorRow(r) || r.k === 'invalid' || r.n) return true;
  if (r.k === 'request') return BAD_OUTCOME.has(fold.wf.request(r.s)?.outcome ?? '');
  if (r.k === 'batch' && r.it) {
    return r.it.some((x, i) => isErrorItem(x) || (x.notes !== undefined && x.notes.length > 0) || (x.kind === 'request' && BAD_OUTCOME.has(fold.wf.request(r.s, i)?.outcome ?? '')));
  }
  return false;
}

/** Whether row `i` passes; `range`: the zoomed time range when the filter keeps to it, else null. */
export function rowOk(fold: SessionFold, i: number, f: Filter, range: readonly [number, number] | null): boolean {
  const r = fold.rows[i]!;
  if (f.method) {
    const ok = r.k === 'batch' && r.it ? r.it.some((x) => methodOk(f, x.method, x.target)) : methodOk(f, r.m, r.g);
    if (!ok) return false;
  }
  if (f.dir && r.f !== f.dir) return false;
  if (f.kind && r.k !== f.kind) return false;
  if (f.outcome && fold.outcomeOf(r) !== f.outcome) return false;
  if (f.finding && !findingOk(f, r.n)) return false;
  if (f.err && !isBad(fold, r)) return false;
  if (f.text && !fold.hay(i).includes(f.text)) return false;
  if (range && (r.t < range[0] || r.t > range[1])) return false;
  return true;
}

/** Whether a bar passes (the kind filter and the time range leave bars alone). */
export function barOk(fold: SessionFold, b: Bar, f: Filter): boolean {
  if (f.method && !methodOk(f, b.method, b.target)) return false;
  if (f.dir && b.from[0] !== f.dir) return false;
  if (f.err && !BAD_OUTCOME.has(b.outcome)) return false;
  if (f.outcome && b.outcome !== f.outcome) return false;
  if (f.finding || f.text) {
    const q = fold.indexOf(b.seq);
    const a = b.answerSeq === undefined ? undefined : fold.indexOf(b.answerSeq);
    const ends = [q, a].filter((x): x is number => x !== undefined);
    if (f.finding && !ends.some((x) => findingOk(f, fold.rows[x]!.n))) return false;
    if (f.text && !ends.some((x) => fold.hay(x).includes(f.text))) return false;
  }
  return true;
}

/** Indexes of the rows from `from` on that pass. */
export function filterRows(fold: SessionFold, f: Filter, range: readonly [number, number] | null = null, from = 0): number[] {
  const out: number[] = [];
  for (let i = from; i < fold.rows.length; i++) if (rowOk(fold, i, f, range)) out.push(i);
  return out;
}
