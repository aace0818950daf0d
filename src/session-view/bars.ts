/**
 * What the waterfall draws, folded from a session's rows as they come (all at once for the report, a
 * batch at a time for the live UI): a bar per request from its send time to its answer, coloured by how
 * it ended, with its progress marks, its cancel and its task; and ticks for notifications, stderr lines
 * and the rest on their own lanes. Pure, no DOM; times are ms since the session's origin.
 */
import type { RowId, SessionRow } from './row.js';

/**
 * How a request ended; `unanswered` bars run to the end of the session. `refused`: a server/discover
 * probe the server refused (-32601, -32022); the client falls back. A request answered with a task ends
 * with its task (`failed` is `error`); `running`: its task had not ended when the session did.
 */
export type Outcome = 'ok' | 'error' | 'isError' | 'cancelled' | 'unanswered' | 'refused' | 'running';

/** One request of the waterfall. */
export interface Bar {
  /** Seq of the request record (for a request sent in a batch: of the batch record). */
  seq: number;
  /** Index of the request inside its batch. */
  item?: number;
  /** `seq`, or `seq:item` for a batch element. */
  key: string;
  /** Who sent the request. */
  from: 'client' | 'server';
  id?: RowId;
  method: string;
  target?: string;
  /** Send time and end time (answer, cancel, the task's end, or the end of the session). */
  start: number;
  end: number;
  outcome: Outcome;
  /** Seq of the (first) answer; for a task call, of the answer that created the task. */
  answerSeq?: number;
  /** Latency as the log recorded it (a task call: its task's duration). */
  ms?: number;
  /** When the requester cancelled it. */
  cancelAt?: number;
  /** Times of the progress notifications that belong to it. */
  progress: number[];
  /** An error answer's code and message, or the text of an isError result (short). */
  errorText?: string;
  /** Answered with a task: its id, the last status seen, and when the CreateTaskResult came. */
  task?: { id: string; status: string; at: number };
}

/** A mark on a lane: when, and which record. */
export interface Tick {
  t: number;
  seq: number;
  /** notifications: `c` client → server, `s` server → client; other: the record kind (or event name). */
  tag?: string;
}

/** The key a bar is known by: `seq`, or `seq:item` for batch elements. */
function barKey(seq: number, item?: number): string {
  return item === undefined ? String(seq) : `${seq}:${item}`;
}

interface Answer {
  seq: number;
  t: number;
  kind: string;
  id?: RowId;
  ms?: number;
  isError: boolean;
  cancelled: boolean;
  refused: boolean;
  errorText?: string;
}

/** Ids compare with their type: `1` and `"1"` differ. */
function sameId(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && a === b;
}

const has = (x: string | undefined, flag: string): boolean => x !== undefined && x.includes(flag);

export class BarFold {
  readonly bars: Bar[] = [];
  readonly notifications: Tick[] = [];
  /** The same notifications by direction (the waterfall's two lanes). */
  readonly fromClient: Tick[] = [];
  readonly fromServer: Tick[] = [];
  readonly stderr: Tick[] = [];
  /** Invalid lines, answers that pair with no request, batches without requests, mcp-tap's events. */
  readonly other: Tick[] = [];
  /** Where bars still open (unanswered, a task still running) end: the session's end so far. */
  end = 0;
  private readonly single = new Map<number, Bar>();
  private readonly inBatch = new Map<number, Bar[]>();
  private readonly tokens = new Map<number, unknown[]>();
  private readonly byAnswer = new Map<number, Bar>();
  private readonly open = new Set<Bar>();
  private readonly keyed = new Map<string, Bar>();

  /** The bar of request `seq` (a batch: its first element), or the bar record `seq` answered. */
  barOf(seq: number): Bar | undefined {
    return this.single.get(seq) ?? this.inBatch.get(seq)?.[0] ?? this.byAnswer.get(seq);
  }

  /** The bar whose `key` this is (the waterfall's rows carry it). */
  barByKey(key: string): Bar | undefined {
    return this.keyed.get(key);
  }

  /** The bar of request `seq` (element `item` of a batch). */
  request(seq: number, item?: number): Bar | undefined {
    return item === undefined ? this.single.get(seq) : this.inBatch.get(seq)?.[item];
  }

  /** Folds one row in (rows come in log order). */
  add(row: SessionRow): void {
    const t = row.t;
    if (row.to !== undefined) this.taskRecord(row, t);
    switch (row.k) {
      case 'request':
        this.request1(row, t);
        break;
      case 'response':
      case 'error':
        this.answer1(row, t);
        break;
      case 'notification':
        this.notification(row, t);
        break;
      case 'batch':
        this.batch(row, t);
        break;
      case 'stderr':
        this.stderr.push({ t, seq: row.s });
        break;
      case 'invalid':
        this.other.push({ t, seq: row.s, tag: 'invalid' });
        break;
      case 'event':
        this.other.push({ t, seq: row.s, tag: row.e ?? 'event' });
        break;
      default:
        this.other.push({ t, seq: row.s, tag: row.k });
    }
  }

  /** Moves the session's end on: open bars run to it. */
  extendTo(end: number): void {
    if (end <= this.end) return;
    this.end = end;
    for (const b of this.open) b.end = Math.max(b.start, end);
  }

  private newBar(seq: number, from: 'c' | 's', method: string | undefined, t: number, item?: number): Bar {
    const bar: Bar = { seq, key: barKey(seq, item), from: from === 'c' ? 'client' : 'server', method: method ?? '(no method)', start: t, end: Math.max(t, this.end), outcome: 'unanswered', progress: [] };
    if (item !== undefined) bar.item = item;
    this.keyed.set(bar.key, bar);
    const list = this.bars;
    // bars are kept in start order; rows come in log order, so nearly always at the end
    let at = list.length;
    while (at > 0 && list[at - 1]!.start > t) at--;
    if (at === list.length) list.push(bar);
    else list.splice(at, 0, bar);
    this.open.add(bar);
    return bar;
  }

  private request1(row: SessionRow, t: number): void {
    if (row.f === 'p') return;
    const bar = this.newBar(row.s, row.f, row.m, t);
    if (row.i !== undefined) bar.id = row.i;
    if (row.g !== undefined) bar.target = row.g;
    this.single.set(row.s, bar);
  }

  private answer1(row: SessionRow, t: number): void {
    if (row.tk !== undefined && row.to === undefined && row.k === 'response') {
      // a CreateTaskResult: the bar runs on until the task ends
      const bar = row.r !== undefined ? this.single.get(row.r) : undefined;
      if (bar && bar.from[0] !== row.f && bar.answerSeq === undefined && bar.task === undefined) {
        bar.task = { id: row.tk, status: row.ts ?? 'working', at: t };
        bar.outcome = 'running';
        bar.answerSeq = row.s;
        this.byAnswer.set(row.s, bar);
        if (row.td !== undefined) this.endTask(bar, row, t);
        return;
      }
    }
    const a: Answer = { seq: row.s, t, kind: row.k, isError: has(row.x, 'E'), cancelled: has(row.x, 'C'), refused: has(row.x, 'R') };
    if (row.i !== undefined) a.id = row.i;
    if (row.d !== undefined) a.ms = row.d;
    if (row.et !== undefined) a.errorText = row.et;
    if (!this.answer(row.r, a, row.f)) this.other.push({ t, seq: row.s, tag: row.k });
  }

  private batchBar(batchSeq: number, id: unknown): Bar | undefined {
    const list = this.inBatch.get(batchSeq);
    return list?.find((b) => b.answerSeq === undefined && sameId(b.id, id)) ?? list?.find((b) => sameId(b.id, id));
  }

  private answer(reqSeq: number | undefined, a: Answer, from: string): boolean {
    if (reqSeq === undefined) return false;
    const bar = this.single.get(reqSeq) ?? this.batchBar(reqSeq, a.id);
    if (!bar || bar.from[0] === from) return false;
    this.settle(bar, a);
    return true;
  }

  private settle(bar: Bar, a: Answer): void {
    if (bar.answerSeq !== undefined) return; // a second answer (duplicate-answer) changes nothing
    bar.answerSeq = a.seq;
    this.byAnswer.set(a.seq, bar);
    this.open.delete(bar);
    bar.end = Math.max(bar.start, a.t);
    if (a.ms !== undefined) bar.ms = a.ms;
    if (bar.outcome === 'cancelled') return;
    if (a.kind === 'error') bar.outcome = a.refused ? 'refused' : 'error';
    else bar.outcome = a.isError ? 'isError' : 'ok';
    if (a.errorText !== undefined && bar.outcome !== 'ok') bar.errorText = a.errorText;
    if (a.cancelled) bar.outcome = 'cancelled';
  }

  /** A record of a task (`to` set): its status, and the end of the task when it ended it. */
  private taskRecord(row: SessionRow, t: number): void {
    const bar = this.single.get(row.to!);
    if (bar?.task && bar.outcome === 'running') {
      if (row.ts !== undefined) bar.task.status = row.ts;
      if (row.td !== undefined) this.endTask(bar, row, t);
    } else if (bar?.task && has(row.x, 'E') && bar.outcome === 'ok') bar.outcome = 'isError';
  }

  /** The record that ended a bar's task: the bar ends there, with the task's duration and outcome. */
  private endTask(bar: Bar, row: SessionRow, t: number): void {
    this.open.delete(bar);
    bar.end = Math.max(bar.start, t);
    if (row.td !== undefined) bar.ms = row.td;
    const status = row.ts ?? 'completed';
    bar.task!.status = status;
    if (status === 'failed') {
      bar.outcome = 'error';
      bar.errorText = row.k === 'error' ? (row.et ?? 'the task failed') : 'the task failed';
    } else if (status === 'cancelled') bar.outcome = 'cancelled';
    else if (has(row.x, 'E')) {
      bar.outcome = 'isError';
      if (row.et !== undefined) bar.errorText = row.et;
    } else bar.outcome = 'ok';
  }

  private notification(row: SessionRow, t: number): void {
    const tick: Tick = { t, seq: row.s, tag: row.f === 'c' ? 'c' : 's' };
    this.notifications.push(tick);
    (tick.tag === 'c' ? this.fromClient : this.fromServer).push(tick);
    if (row.r === undefined) return;
    let bar = this.single.get(row.r);
    const list = this.inBatch.get(row.r);
    if (!bar && list) {
      if (row.m === 'notifications/cancelled') bar = list.find((b) => sameId(b.id, row.q));
      else {
        const i = (this.tokens.get(row.r) ?? []).findIndex((x) => x !== undefined && sameId(x, row.q));
        bar = i >= 0 ? list[i] : undefined;
      }
    }
    if (!bar) return;
    if (row.m === 'notifications/progress') bar.progress.push(t);
    else if (row.m === 'notifications/cancelled' && bar.cancelAt === undefined && bar.from[0] === row.f) {
      bar.cancelAt = t;
      // a cancel that arrives after the answer changes nothing: the request stays answered as it was
      if (bar.answerSeq === undefined) {
        bar.outcome = 'cancelled';
        bar.end = Math.max(bar.start, t);
        this.open.delete(bar);
      }
    }
  }

  private batch(row: SessionRow, t: number): void {
    let linked = 0;
    (row.it ?? []).forEach((it, i) => {
      if (it.kind === 'request' && (row.f === 'c' || row.f === 's')) {
        const bar = this.newBar(row.s, row.f, it.method, t, i);
        if (it.id !== undefined) bar.id = it.id;
        if (it.target !== undefined) bar.target = it.target;
        const list = this.inBatch.get(row.s) ?? [];
        list.push(bar);
        this.inBatch.set(row.s, list);
        const tok = this.tokens.get(row.s) ?? [];
        tok.push(it.q);
        this.tokens.set(row.s, tok);
        linked++;
      } else if (it.kind === 'response' || it.kind === 'error') {
        const a: Answer = { seq: row.s, t, kind: it.kind, isError: it.isError === true, cancelled: it.cancelled === true, refused: false };
        if (it.id !== undefined) a.id = it.id;
        if (it.ms !== undefined) a.ms = it.ms;
        if (it.et !== undefined) a.errorText = it.et;
        if (this.answer(it.reqSeq, a, row.f)) linked++;
      }
    });
    // a batch shows as bars (its requests) and bar ends (its answers); only one that links to nothing is a tick
    if (linked === 0) this.other.push({ t, seq: row.s, tag: 'batch' });
  }
}
