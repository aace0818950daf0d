/**
 * The slowest calls of a session, as the summary lists them: each answered call (a batch element too, a
 * task call timed by its task) as a TimedCall, and the top N kept, slowest first. Pure.
 */
import type { BatchItem, LogRecord } from '../log/record.js';

/** One answered call, for the slowest-calls list. */
export interface TimedCall {
  /** Seq of the answer (for a batch element: of the batch record). */
  seq: number;
  reqSeq?: number;
  /** Who sent the request. */
  from: 'client' | 'server';
  id?: unknown;
  method: string;
  target?: string;
  ms: number;
  /** `refused`: a server/discover probe the server refused; the client falls back (not an error). A task call: how its task ended (`failed` is `error`). */
  outcome: 'result' | 'error' | 'isError' | 'refused' | 'cancelled';
  /** The call was answered with a task: `ms` is the task's duration, `seq` the record that ended it. */
  task?: true;
}

/** The `size` slowest calls, slowest first (ties: earlier seq first). */
export class SlowestCalls {
  private readonly list: TimedCall[] = [];

  constructor(private readonly size: number) {}

  add(c: TimedCall): void {
    const list = this.list;
    if (this.size <= 0) return;
    if (list.length >= this.size && !slower(c, list[list.length - 1]!)) return;
    let i = list.length;
    while (i > 0 && slower(c, list[i - 1]!)) i--;
    list.splice(i, 0, c);
    if (list.length > this.size) list.pop();
  }

  calls(): TimedCall[] {
    return this.list.slice();
  }
}

function slower(a: TimedCall, b: TimedCall): boolean {
  return a.ms > b.ms || (a.ms === b.ms && a.seq < b.seq);
}

/** An answer record as a timed call (its request's method and target when the answer does not carry them). */
export function timedAnswer(r: LogRecord, req: { method?: string; target?: string } | undefined, refused: boolean): TimedCall {
  return {
    seq: r.seq,
    ...(r.reqSeq !== undefined ? { reqSeq: r.reqSeq } : {}),
    from: r.from === 'client' ? 'server' : 'client',
    id: r.id,
    method: r.method ?? req?.method ?? '',
    ...(r.target !== undefined ? { target: r.target } : req?.target !== undefined ? { target: req.target } : {}),
    ms: r.ms!,
    outcome: refused ? 'refused' : r.kind === 'error' ? 'error' : r.isError ? 'isError' : 'result',
  };
}

/** A batch element's answer as a timed call. */
export function timedItem(r: LogRecord, it: BatchItem, ms: number): TimedCall {
  return {
    seq: r.seq,
    ...(it.reqSeq !== undefined ? { reqSeq: it.reqSeq } : {}),
    from: r.from === 'client' ? 'server' : 'client',
    id: it.id,
    method: it.method ?? '',
    ms,
    outcome: it.kind === 'error' ? 'error' : it.isError ? 'isError' : 'result',
  };
}
