/**
 * Folds the records of the logs into one card per session (state, counts, recent latencies): what the
 * session list shows. Pure and bounded: a card keeps counts and the last LATENCY_POINTS latencies, never
 * records.
 */
import { ContextCostBuilder, contextNeedsBody } from '../lens/context/context-cost.js';
import type { Tokenizer } from '../lens/context/tokenizer.js';
import type { LogRecord } from '../log/record.js';
import { processAlive } from '../platform/process-alive.js';
import { isProblem } from '../view/filters.js';
import type { SessionCard } from './live-row.js';

/** Latencies kept per session for the sparkline. */
export const LATENCY_POINTS = 40;

export class SessionCards {
  private readonly cards = new Map<string, SessionCard>();
  /** The newest session of each log: an earlier one without an end record has died. */
  private readonly newest = new Map<number, SessionCard>();
  private readonly changed = new Set<SessionCard>();
  /** Per card, its context-cost fold (with a tokenizer); dropped when the session ends. */
  private readonly costs = new Map<SessionCard, ContextCostBuilder>();

  constructor(private readonly tokenizer?: Tokenizer) {}

  /** Folds one record of log `log` (whose file name is `file`) in; returns its session's card. */
  add(log: number, file: string, r: LogRecord): SessionCard {
    const key = `${log}\u0000${r.session}`;
    let c = this.cards.get(key);
    if (!c) {
      c = { log, file, session: r.session, server: '', start: r.time, last: r.time, state: 'running', records: 0, requests: 0, errors: 0, findings: 0, latency: [] };
      this.cards.set(key, c);
      const before = this.newest.get(log);
      if (before && before.state === 'running') {
        before.state = 'died';
        this.changed.add(before);
      }
      this.newest.set(log, c);
    }
    this.fold(c, r);
    if (this.tokenizer) this.cost(c, r, this.tokenizer);
    this.changed.add(c);
    return c;
  }

  /** Folds the record into the card's context cost; the card shows the totals. */
  private cost(c: SessionCard, r: LogRecord, tokenizer: Tokenizer): void {
    const relevant = contextNeedsBody(r) || (r.kind === 'request' && r.method === 'tools/call');
    if (relevant) {
      let b = this.costs.get(c);
      if (!b) this.costs.set(c, (b = new ContextCostBuilder(r.session, tokenizer)));
      b.add(r);
      if (contextNeedsBody(r)) {
        const t = b.totals();
        c.tokens = { context: t.beforeFirstMessage, results: t.resultTokens };
      }
    }
    if (r.kind === 'event' && r.event === 'end') this.costs.delete(c);
  }

  private fold(c: SessionCard, r: LogRecord): void {
    c.records++;
    if (typeof r.time === 'number' && r.time > c.last) c.last = r.time;
    if (r.kind === 'request') c.requests++;
    else if (r.kind === 'batch' && Array.isArray(r.items)) c.requests += r.items.filter((it) => it.kind === 'request').length;
    if (isProblem(r)) c.errors++;
    if (Array.isArray(r.notes)) c.findings += r.notes.length;
    // a call answered with a task is timed by its task: at the record that ended it, not its CreateTaskResult
    const ms = typeof r.taskMs === 'number' ? r.taskMs : typeof r.taskId === 'string' && typeof r.taskOf !== 'number' ? undefined : r.ms;
    if ((r.kind === 'response' || r.kind === 'error' || typeof r.taskMs === 'number') && typeof ms === 'number') {
      c.latency.push(Math.round(ms * 1000) / 1000);
      if (c.latency.length > LATENCY_POINTS) c.latency.shift();
    }
    if (r.kind !== 'event') return;
    if (r.event === 'start') {
      if (typeof r['name'] === 'string') c.server = r['name'];
      if (typeof r['pid'] === 'number') c.pid = r['pid'];
      c.start = r.time;
    } else if (r.event === 'exit') {
      c.exitCode = typeof r['code'] === 'number' ? r['code'] : null;
      c.exitSignal = typeof r['signal'] === 'string' ? r['signal'] : null;
    } else if (r.event === 'end') {
      if (c.exitCode === undefined && typeof r['exitCode'] === 'number') c.exitCode = r['exitCode'];
      if (c.exitSignal === undefined && typeof r['exitSignal'] === 'string') c.exitSignal = r['exitSignal'];
      c.state = typeof c.exitSignal === 'string' || r['forced'] === true ? 'died' : 'exited';
    }
  }

  /** Running sessions whose mcp-tap is gone (killed: no end record will come) become `died`, `killed`. */
  reap(alive: (pid: number) => boolean = processAlive): void {
    for (const c of this.newest.values()) {
      if (c.state !== 'running' || c.pid === undefined || alive(c.pid)) continue;
      c.state = 'died';
      c.killed = true;
      this.changed.add(c);
    }
  }

  /** Every card, newest session first. */
  all(): SessionCard[] {
    return [...this.cards.values()].sort((a, b) => b.start - a.start).map(copy);
  }

  /** The cards changed since the last call (copies). */
  takeChanged(): SessionCard[] {
    const out = [...this.changed].map(copy);
    this.changed.clear();
    return out;
  }
}

function copy(c: SessionCard): SessionCard {
  return { ...c, latency: [...c.latency], ...(c.tokens ? { tokens: { ...c.tokens } } : {}) };
}
