/**
 * Header and summary of one session, computed from its records alone: the data behind the top of every
 * export (Markdown now, HTML next). Pure; renderers decide how it looks.
 */
import type { BatchItem, Kind, LogRecord, Note, PendingRequest } from '../log/record.js';
import { isRefusedProbeAnswer, mayBeRefusedProbe } from '../protocol/probe.js';
import { TaskCalls, taskEnd, taskFacts } from '../log/task-records.js';

/** Who is talking, with what, when, and how it ended. Fields are absent when the log does not say. */
export interface SessionHeader {
  session: string;
  name?: string;
  mcpTapVersion?: string;
  node?: string;
  platform?: string;
  arch?: string;
  command?: string;
  args?: string[];
  cwd?: string;
  pid?: number;
  serverPid?: number;
  spawnError?: string;
  clientInfo?: unknown;
  serverInfo?: unknown;
  clientCapabilities?: unknown;
  serverCapabilities?: unknown;
  era?: string;
  protocolVersion?: string;
  offeredVersion?: string;
  /** Epoch ms of the first record (the start event when there is one). */
  start: number;
  /** Epoch ms of the last record. */
  end: number;
  durationMs: number;
  exit?: { code: number | null; signal: string | null };
  /** The session has its `end` record (false: still running, or mcp-tap was killed). */
  ended: boolean;
}

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

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

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

/** Header fields from the start, spawn, lifecycle, exit and end events (initialize messages as a fallback). */
export function sessionHeader(records: readonly LogRecord[]): SessionHeader {
  const b = new HeaderBuilder();
  for (const r of records) b.add(r);
  return b.finish();
}

/**
 * The header, fed one record at a time (readers that stream a log). Keeps only the header's fields and
 * the initialize request's params and result.
 */
export class HeaderBuilder {
  private h: SessionHeader | undefined;
  private initParams: Record<string, unknown> | undefined;
  private initResult: Record<string, unknown> | undefined;
  private initSeq: number | undefined;
  private lastTime: number | undefined;

  add(r: LogRecord): void {
    const h = (this.h ??= { session: typeof r.session === 'string' ? r.session : '', start: num(r.time) ?? 0, end: 0, durationMs: 0, ended: false });
    this.lastTime = num(r.time);
    if (r.kind === 'event') headerEvent(h, r);
    else if (r.kind === 'request' && r.method === 'initialize' && this.initParams === undefined) {
      this.initParams = obj(obj(r.msg)?.['params']) ?? {};
      this.initSeq = r.seq;
    } else if (r.kind === 'response' && this.initSeq !== undefined && r.reqSeq === this.initSeq && this.initResult === undefined) {
      this.initResult = obj(obj(r.msg)?.['result']) ?? {};
    }
  }

  finish(): SessionHeader {
    const h: SessionHeader = this.h ? { ...this.h } : { session: '', start: 0, end: 0, durationMs: 0, ended: false };
    h.end = this.lastTime ?? 0;
    const { initParams, initResult } = this;
    // logs written without the analysis (or before its lifecycle event) still name both sides
    if (initParams) {
      h.offeredVersion ??= str(initParams['protocolVersion']);
      if (h.clientInfo === undefined && initParams['clientInfo'] !== undefined) h.clientInfo = initParams['clientInfo'];
      if (h.clientCapabilities === undefined && initParams['capabilities'] !== undefined) h.clientCapabilities = initParams['capabilities'];
      h.era ??= 'handshake';
    }
    if (initResult) {
      h.protocolVersion ??= str(initResult['protocolVersion']);
      if (h.serverInfo === undefined && initResult['serverInfo'] !== undefined) h.serverInfo = initResult['serverInfo'];
      if (h.serverCapabilities === undefined && initResult['capabilities'] !== undefined) h.serverCapabilities = initResult['capabilities'];
    }
    h.durationMs = Math.max(0, h.end - h.start);
    return h;
  }
}

/** What one of mcp-tap's events adds to the header. */
function headerEvent(h: SessionHeader, r: LogRecord): void {
  switch (r.event) {
    case 'start': {
      h.start = num(r.time) ?? h.start;
      h.name = str(r['name']) ?? h.name;
      h.command = str(r['command']);
      const args = r['args'];
      if (Array.isArray(args)) h.args = args.map((a) => (typeof a === 'string' ? a : (JSON.stringify(a) ?? '')));
      h.cwd = str(r['cwd']);
      h.pid = num(r['pid']);
      const v = obj(r['versions']);
      if (v) {
        h.mcpTapVersion = str(v['mcpTap']);
        h.node = str(v['node']);
        h.platform = str(v['platform']);
        h.arch = str(v['arch']);
      }
      break;
    }
    case 'spawn':
      h.serverPid = num(r['serverPid']);
      break;
    case 'spawn-error':
      h.spawnError = str(r['error']) ?? 'the server could not be started';
      break;
    case 'lifecycle':
      for (const k of ['era', 'protocolVersion', 'offeredVersion'] as const) {
        const v = str(r[k]);
        if (v !== undefined) h[k] = v;
      }
      for (const k of ['clientInfo', 'serverInfo', 'clientCapabilities', 'serverCapabilities'] as const) {
        if (r[k] !== undefined && r[k] !== null) h[k] = r[k];
      }
      break;
    case 'exit':
      h.exit = { code: num(r['code']) ?? null, signal: str(r['signal']) ?? null };
      break;
    case 'end':
      h.ended = true;
      if (!h.exit && (r['exitCode'] !== undefined || r['exitSignal'] !== undefined)) {
        const code = num(r['exitCode']) ?? null;
        const signal = str(r['exitSignal']) ?? null;
        if (code !== null || signal !== null) h.exit = { code, signal };
      }
      break;
    default:
  }
}

/** `name version` (and title) of a clientInfo/serverInfo value, or undefined. */
export function describeImplementation(info: unknown): string | undefined {
  const o = obj(info);
  if (!o) return info === undefined || info === null ? undefined : JSON.stringify(info);
  const name = str(o['name']) ?? '(no name)';
  const version = str(o['version'])?.trim();
  const title = str(o['title']);
  return `${name}${version ? ` ${version}` : ''}${title !== undefined && title !== name ? ` (${title})` : ''}`;
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
  private readonly slowest: TimedCall[] = [];
  /** Requests not answered yet, by seq (insertion order is log order): the first OPEN_WHOLE with their names… */
  private readonly open = new Map<number, OpenRequest>();
  /** …the further ones by seq alone, so a session that leaves very many open stays small. */
  private readonly openSeqs = new Set<number>();
  private endRecord: LogRecord | undefined;
  /** Task calls, by the call's seq: what the slowest list shows once the task ends. */
  private readonly taskCalls = new TaskCalls<{ call: TimedCall; taskId: string; status: string; ended: boolean }>();
  private taskCount = 0;

  constructor(private readonly slowestCount = 5) {}

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
      } else if (typeof r.ms === 'number') this.timed(timedAnswer(r, req, refused));
      if (typeof r.reqSeq === 'number') this.closed(r.reqSeq);
    }
    if (tf) this.taskRecord(r, tf);
    if (r.kind === 'batch' && Array.isArray(r.items)) {
      for (const it of r.items) {
        if (it.kind === 'error') this.errors++;
        if (it.isError === true) this.isErrorResults++;
        if (isAnswer(it.kind) && typeof it.ms === 'number') this.timed(timedItem(r, it, it.ms));
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
      slowest: this.slowest.slice(),
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
    this.timed({ ...t.call, seq: r.seq, ms: tf.endMs, outcome: how === 'failed' ? 'error' : how === 'cancelled' ? 'cancelled' : t.call.outcome });
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

  /** Keeps the `slowestCount` slowest calls, slowest first (ties: earlier seq first). */
  private timed(c: TimedCall): void {
    const list = this.slowest;
    if (this.slowestCount <= 0) return;
    if (list.length >= this.slowestCount && !slower(c, list[list.length - 1]!)) return;
    let i = list.length;
    while (i > 0 && slower(c, list[i - 1]!)) i--;
    list.splice(i, 0, c);
    if (list.length > this.slowestCount) list.pop();
  }
}

function slower(a: TimedCall, b: TimedCall): boolean {
  return a.ms > b.ms || (a.ms === b.ms && a.seq < b.seq);
}

function timedAnswer(r: LogRecord, req: { method?: string; target?: string } | undefined, refused: boolean): TimedCall {
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

function timedItem(r: LogRecord, it: BatchItem, ms: number): TimedCall {
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
