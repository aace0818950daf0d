/**
 * The summary of one session, computed from its records alone: the counts behind the top of every export
 * (Markdown, HTML), stats and the MCP server's session tools, beside the header (session-header.ts) and
 * the slowest calls (slowest-calls.ts). Pure; renderers decide how it looks.
 */
import type { Kind, LogRecord, Note, PendingRequest } from '../log/record.js';
import { isRefusedProbeAnswer, mayBeRefusedProbe } from '../protocol/probe.js';
import { TaskCalls, taskEnd, taskFacts } from '../log/task-records.js';
import { num, obj, str } from './field.js';
import { HeaderBuilder, type SessionHeader } from './session-header.js';
import { SlowestCalls, timedAnswer, timedItem, type TimedCall } from './slowest-calls.js';

/** A call whose task had not ended when the log ends. */
export interface RunningTask {
  from: 'client' | 'server';
  id: unknown;
  method: string;
  seq: number;
  taskId: string;
  status: string;
}

/** The counts a maintainer looks at first. */
export interface SessionSummary {
  header: SessionHeader;
  /** Records by kind (every kind present, zero when absent). */
  kinds: Record<Kind, number>;
  /** JSON-RPC error answers (records and batch elements), refused discovery probes not included. */
  errors: number;
  /** server/discover probes refused by the server (-32601, -32022): the protocol working, not errors. */
  refusedProbes: number;
  /** tools/call results with isError: true. */
  isErrorResults: number;
  findings: { total: number; byCode: Array<{ code: string; count: number }> };
  /** Requests never answered: from the end record when there is one, else computed. */
  unanswered: PendingRequest[];
  /** How many requests were never answered (the end record lists at most a bounded number). */
  unansweredCount: number;
  /** Requests cancelled and never answered (end record only). */
  cancelled: PendingRequest[];
  /** The five slowest answered calls, slowest first (a task call timed by its task). */
  slowest: TimedCall[];
  /** Calls answered with a task, and those whose task was still running at the end (end record, else computed). */
  tasks: { count: number; running: RunningTask[]; runningCount: number };
  /** Records or bytes the log says it could not keep (gap and log-error events). */
  lost: number;
}

export const KINDS: readonly Kind[] = ['request', 'response', 'error', 'notification', 'batch', 'invalid', 'stderr', 'event'];

/** Splits records into sessions, in order of first appearance. */
export function groupSessions(records: Iterable<LogRecord>): LogRecord[][] {
  const by = new Map<string, LogRecord[]>();
  for (const r of records) {
    const key = typeof r.session === 'string' ? r.session : '';
    let list = by.get(key);
    if (!list) by.set(key, (list = []));
    list.push(r);
  }
  return [...by.values()];
}

function isAnswer(kind: string | undefined): kind is 'response' | 'error' {
  return kind === 'response' || kind === 'error';
}

/** Every finding of a record and of its batch elements. */
export function notesOf(r: LogRecord): Note[] {
  const out: Note[] = [];
  if (Array.isArray(r.notes)) out.push(...r.notes);
  if (Array.isArray(r.items)) for (const it of r.items) if (Array.isArray(it.notes)) out.push(...it.notes);
  return out;
}

/** Requests without an answer, computed when the log has no end record (still running, or cut short). */
export function computeUnanswered(records: readonly LogRecord[]): PendingRequest[] {
  const answered = new Set<number>();
  for (const r of records) {
    if (isAnswer(r.kind) && typeof r.reqSeq === 'number') answered.add(r.reqSeq);
    if (r.kind === 'batch' && Array.isArray(r.items)) for (const it of r.items) if (isAnswer(it.kind) && typeof it.reqSeq === 'number') answered.add(it.reqSeq);
  }
  const out: PendingRequest[] = [];
  for (const r of records) {
    if (r.kind === 'request' && r.id !== undefined && r.id !== null && !answered.has(r.seq) && (r.from === 'client' || r.from === 'server')) {
      out.push({ from: r.from, id: r.id, method: r.method ?? '', seq: r.seq });
    }
  }
  return out;
}

function pendingList(v: unknown): PendingRequest[] {
  if (!Array.isArray(v)) return [];
  const out: PendingRequest[] = [];
  for (const p of v) {
    const o = obj(p);
    const seq = num(o?.['seq']);
    if (!o || seq === undefined) continue;
    const id = o['id'];
    out.push({
      from: o['from'] === 'server' ? 'server' : 'client',
      id: typeof id === 'string' || num(id) !== undefined || id === null ? (id as PendingRequest['id']) : null,
      method: str(o['method']) ?? '',
      seq,
    });
  }
  return out;
}

/** Header plus the counts of the summary table, for one session's records. */
export function summarizeSession(records: readonly LogRecord[], slowestCount = 5): SessionSummary {
  const b = new SummaryBuilder(slowestCount);
  for (const r of records) b.add(r);
  return b.finish();
}

/** Whether a streaming reader must parse a record's body for the summary: the initialize exchange's and a discovery probe's error. */
export function summaryNeedsBody(head: LogRecord): boolean {
  // a refused discovery probe is told from a failed call by its error code
  return head.method === 'initialize' || mayBeRefusedProbe(head);
}

/**
 * The summary, fed one record at a time: counts, the top `slowestCount` calls, and the requests still
 * open (for a log without an end record). Memory: the header, the finding codes and the open requests.
 */
export class SummaryBuilder {
  private readonly header = new HeaderBuilder();
  private readonly kinds = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  private errors = 0;
  private refusedProbes = 0;
  private isErrorResults = 0;
  private lost = 0;
  private readonly codes = new Map<string, number>();
  /** The slowest calls (slowest-calls.ts). */
  private readonly slowest: SlowestCalls;
  /** Requests not answered yet, by seq (insertion order is log order): the first OPEN_WHOLE with their names… */
  private readonly open = new Map<number, OpenRequest>();
  /** …the further ones by seq alone, so a session that leaves very many open stays small. */
  private readonly openSeqs = new Set<number>();
  private endRecord: LogRecord | undefined;
  /** Task calls, by the call's seq: what the slowest list shows once the task ends. */
  private readonly taskCalls = new TaskCalls<{ call: TimedCall; taskId: string; status: string; ended: boolean }>();
  private taskCount = 0;

  constructor(slowestCount = 5) {
    this.slowest = new SlowestCalls(slowestCount);
  }

  add(r: LogRecord): void {
    this.header.add(r);
    if (Object.hasOwn(this.kinds, r.kind)) this.kinds[r.kind]++;
    if (r.kind === 'request') this.opened(r);
    const refused = isRefusedProbeAnswer(r, r.msg);
    if (refused) this.refusedProbes++;
    else if (r.kind === 'error') this.errors++;
    if (r.isError === true) this.isErrorResults++;
    for (const n of notesOf(r)) this.codes.set(n.code, (this.codes.get(n.code) ?? 0) + 1);
    if (r.kind === 'event' && r.event === 'end') this.endRecord = r;
    if (r.kind === 'event' && (r.event === 'gap' || r.event === 'log-error')) this.lost += num(r['lost']) ?? 0;
    const tf = typeof r.taskId === 'string' ? taskFacts(r) : undefined;
    if (isAnswer(r.kind)) {
      const req = typeof r.reqSeq === 'number' ? this.open.get(r.reqSeq) : undefined;
      if (tf?.created) {
        this.taskCount++;
        this.taskCalls.set(r.session, tf.callSeq, { call: { ...timedAnswer(r, req, false), task: true }, taskId: tf.taskId, status: tf.status ?? 'working', ended: false });
      } else if (typeof r.ms === 'number') this.slowest.add(timedAnswer(r, req, refused));
      if (typeof r.reqSeq === 'number') this.closed(r.reqSeq);
    }
    if (tf) this.taskRecord(r, tf);
    if (r.kind === 'batch' && Array.isArray(r.items)) {
      for (const it of r.items) {
        if (it.kind === 'error') this.errors++;
        if (it.isError === true) this.isErrorResults++;
        if (isAnswer(it.kind) && typeof it.ms === 'number') this.slowest.add(timedItem(r, it, it.ms));
        if (isAnswer(it.kind) && typeof it.reqSeq === 'number') this.closed(it.reqSeq);
      }
    }
  }

  finish(): SessionSummary {
    const byCode = [...this.codes].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
    const endRecord = this.endRecord;
    const unanswered = endRecord ? pendingList(endRecord['pending']) : openRequests(this.open);
    return {
      header: this.header.finish(),
      kinds: { ...this.kinds },
      errors: this.errors,
      refusedProbes: this.refusedProbes,
      isErrorResults: this.isErrorResults,
      findings: { total: byCode.reduce((s, c) => s + c.count, 0), byCode },
      unanswered,
      unansweredCount: endRecord ? Math.max(unanswered.length, num(endRecord['pendingCount']) || 0) : this.open.size + this.openSeqs.size,
      cancelled: endRecord ? pendingList(endRecord['cancelledPending']) : [],
      slowest: this.slowest.calls(),
      tasks: this.tasksSummary(endRecord),
      lost: this.lost,
    };
  }

  /** A record of a task: its status, and on the record that ended it, the call's time and outcome. */
  private taskRecord(r: LogRecord, tf: NonNullable<ReturnType<typeof taskFacts>>): void {
    const t = this.taskCalls.get(r.session, tf.callSeq);
    if (!t) return;
    if (tf.isError) t.call.outcome = 'isError';
    if (t.ended) return;
    if (tf.status !== undefined) t.status = tf.status;
    if (tf.endMs === undefined) return;
    t.ended = true;
    const how = taskEnd(tf.status);
    this.slowest.add({ ...t.call, seq: r.seq, ms: tf.endMs, outcome: how === 'failed' ? 'error' : how === 'cancelled' ? 'cancelled' : t.call.outcome });
  }

  private tasksSummary(endRecord: LogRecord | undefined): SessionSummary['tasks'] {
    if (endRecord) {
      // the analysis lists what it saw still running (nothing: none was)
      const listed = endRecord['openTasks'];
      const running: RunningTask[] = [];
      for (const x of Array.isArray(listed) ? listed : []) {
        const o = obj(x);
        const seq = num(o?.['seq']);
        if (!o || seq === undefined || typeof o['taskId'] !== 'string') continue;
        running.push({ from: o['from'] === 'server' ? 'server' : 'client', id: o['id'], method: str(o['method']) ?? '', seq, taskId: o['taskId'], status: str(o['status']) ?? 'working' });
      }
      return { count: this.taskCount, running, runningCount: Math.max(running.length, num(endRecord['openTaskCount']) ?? 0) };
    }
    const running: RunningTask[] = [];
    for (const t of this.taskCalls.values()) {
      if (!t.ended && t.call.reqSeq !== undefined) running.push({ from: t.call.from, id: t.call.id, method: t.call.method, seq: t.call.reqSeq, taskId: t.taskId, status: t.status });
    }
    return { count: this.taskCount, running, runningCount: running.length };
  }

  private opened(r: LogRecord): void {
    // a request with a null id or from mcp-tap is never answered by id: it is not left open
    if (r.id === undefined || r.id === null || (r.from !== 'client' && r.from !== 'server')) return;
    if (this.open.size >= OPEN_WHOLE) {
      this.openSeqs.add(r.seq);
      return;
    }
    this.open.set(r.seq, { from: r.from, id: r.id, method: r.method ?? '', ...(typeof r.target === 'string' ? { target: r.target } : {}) });
  }

  private closed(reqSeq: number): void {
    if (!this.open.delete(reqSeq)) this.openSeqs.delete(reqSeq);
  }
}

/** What the summary keeps of a request still open. */
interface OpenRequest {
  from: 'client' | 'server';
  id: NonNullable<LogRecord['id']>;
  method: string;
  target?: string;
}

/** Open requests kept with their names; further ones are counted by seq. */
const OPEN_WHOLE = 10_000;

/** Open requests listed when the log has no end record (as many as an end record lists). */
const OPEN_LISTED = 1000;

function openRequests(open: ReadonlyMap<number, OpenRequest>): PendingRequest[] {
  const out: PendingRequest[] = [];
  for (const [seq, r] of open) {
    if (out.length >= OPEN_LISTED) break;
    out.push({ from: r.from, id: r.id, method: r.method, seq });
  }
  return out;
}
