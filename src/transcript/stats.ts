/**
 * `mcp-tap stats`: per method (and per tool for tools/call) counts, errors, latency percentiles and
 * bytes, from the log alone. Pure: records in, numbers out; renderTextStats lays them out as a table.
 *
 * Percentiles use the nearest-rank method: with the n latencies sorted ascending, the p-th percentile
 * is the value at rank ⌈p/100 × n⌉ (1-based). It is always one of the observed latencies.
 */
import { ContextCosts, type ContextCost } from '../lens/context/context-cost.js';
import type { Tokenizer } from '../lens/context/tokenizer.js';
import { isRefusedProbeAnswer } from '../protocol/probe.js';
import { contextLines, tokenizerNote } from './context-text.js';
import type { LogRecord, PendingRequest } from '../log/record.js';
import { TaskCalls, taskFacts, type TaskFacts } from '../log/task-records.js';
import { formatBytes, formatMs } from './format.js';
import { saneRecord } from './sane-record.js';
import { SummaryBuilder, summaryNeedsBody } from './summary.js';

/** Nearest-rank percentile of ascending `sorted` (p in 0–100); undefined when there are no values. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

export interface Latency {
  /** How many answers had a latency. */
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** One row: a method in one direction (requests or notifications), or one tool of tools/call. */
export interface MethodStats {
  method: string;
  /** The tool name (tools/call rows per tool only). */
  tool?: string;
  /** Who sent the request or notification. */
  from: 'client' | 'server';
  kind: 'request' | 'notification';
  count: number;
  /** Answers seen (results and errors). */
  answered: number;
  /** JSON-RPC error answers (a refused discovery probe is counted in `refused` instead). */
  errors: number;
  /** server/discover probes the server refused (-32601, -32022): the client falls back; not errors. */
  refused: number;
  /** Results with isError: true. */
  isError: number;
  /**
   * Calls answered with a task (a CreateTaskResult): such a call is answered, and timed, when its task
   * ends (a terminal status or its final result); one that ends `failed` counts in `errors`. Absent on
   * rows without tasks.
   */
  tasks?: number;
  /** Of those, tasks still running when the log ends (neither answered nor timed). */
  running?: number;
  latency: Latency | null;
  /** Bytes the server received (client → server lines): requests from the client, answers from the client. */
  bytesIn: number;
  /** Bytes the server sent (server → client lines). */
  bytesOut: number;
}

export interface Stats {
  sessions: Array<{ session: string; name?: string; start: number; durationMs: number; ended: boolean }>;
  /** Sum of the sessions' durations. */
  durationMs: number;
  methods: MethodStats[];
  /** tools/call per tool. */
  tools: MethodStats[];
  unanswered: { count: number; requests: Array<PendingRequest & { session: string }> };
  findings: Array<{ code: string; count: number }>;
  /** Answers that pair with no request (their method unknown to the log). */
  unpairedAnswers: number;
  totals: { records: number; messages: number; invalid: number; stderr: number; bytesIn: number; bytesOut: number };
  /** What each session costs the model's context (when stats was given a tokenizer). */
  context?: ContextCost[];
}

interface Acc {
  row: Omit<MethodStats, 'latency'>;
  ms: number[];
}

/** A call answered with a task: the rows it counts in, until its task ends. */
interface TaskCall {
  accs: Acc[];
  ended: boolean;
  isError: boolean;
}

function rowKey(from: string, kind: string, method: string, tool?: string): string {
  // NUL cannot occur in from and kind; tool is absent or a name: one string per row, cheap per record
  return `${from}\0${kind}\0${tool === undefined ? '' : '1'}${method}\0${tool ?? ''}`;
}

class Table {
  readonly rows = new Map<string, Acc>();
  get(from: 'client' | 'server', kind: 'request' | 'notification', method: string, tool?: string): Acc {
    const key = rowKey(from, kind, method, tool);
    let a = this.rows.get(key);
    if (!a) {
      a = { row: { method, ...(tool !== undefined ? { tool } : {}), from, kind, count: 0, answered: 0, errors: 0, refused: 0, isError: 0, bytesIn: 0, bytesOut: 0 }, ms: [] };
      this.rows.set(key, a);
    }
    return a;
  }
}

function addBytes(a: Acc, senderIsClient: boolean, bytes: unknown): void {
  if (typeof bytes !== 'number') return;
  if (senderIsClient) a.row.bytesIn += bytes;
  else a.row.bytesOut += bytes;
}

function finish(a: Acc): MethodStats {
  const sorted = a.ms.slice().sort((x, y) => x - y);
  const latency: Latency | null =
    sorted.length === 0
      ? null
      : { n: sorted.length, p50: percentile(sorted, 50)!, p95: percentile(sorted, 95)!, p99: percentile(sorted, 99)!, max: sorted[sorted.length - 1]! };
  return { ...a.row, latency };
}

function order(a: MethodStats, b: MethodStats): number {
  const rank = (m: MethodStats) => (m.kind === 'request' ? 0 : 2) + (m.from === 'client' ? 0 : 1);
  return rank(a) - rank(b) || a.method.localeCompare(b.method) || (a.tool ?? '').localeCompare(b.tool ?? '');
}

const other = (from: string): 'client' | 'server' => (from === 'client' ? 'server' : 'client');

/** Statistics over the records of one or more sessions (latencies pooled across sessions). */
export function computeStats(records: readonly LogRecord[]): Stats {
  const b = new StatsBuilder();
  for (const r of records) b.add(r);
  return b.finish();
}

/** Whether stats must parse a record's body (see ReadOptions.needsBody): only for the session header. */
export const statsNeedsBody = summaryNeedsBody;

/**
 * Stats fed one record at a time, in log order. Memory: one number per answered request (the latencies,
 * for exact percentiles), the per-method rows, and per session its summary state.
 */
export class StatsBuilder {
  private readonly methods = new Table();
  private readonly tools = new Table();
  private readonly sessions = new Map<string, SummaryBuilder>();
  private readonly totals = { records: 0, messages: 0, invalid: 0, stderr: 0, bytesIn: 0, bytesOut: 0 };
  private unpairedAnswers = 0;
  private readonly taskCalls = new TaskCalls<TaskCall>();
  private readonly context?: ContextCosts;

  /** With a tokenizer, stats also folds the context cost of each session. */
  constructor(opts: { tokenizer?: Tokenizer } = {}) {
    if (opts.tokenizer) this.context = new ContextCosts(opts.tokenizer);
  }

  add(record: LogRecord): void {
    const r = saneRecord(record);
    this.context?.add(r);
    const key = typeof r.session === 'string' ? r.session : '';
    let s = this.sessions.get(key);
    if (!s) this.sessions.set(key, (s = new SummaryBuilder(0)));
    s.add(r);
    this.count(r);
  }

  finish(): Stats {
    const findings = new Map<string, number>();
    const sessions: Stats['sessions'] = [];
    const unanswered: Stats['unanswered'] = { count: 0, requests: [] };
    let durationMs = 0;
    for (const tc of this.taskCalls.values()) if (!tc.ended) for (const a of tc.accs) a.row.running = (a.row.running ?? 0) + 1;
    for (const b of this.sessions.values()) {
      const s = b.finish();
      const h = s.header;
      sessions.push({ session: h.session, ...(h.name !== undefined ? { name: h.name } : {}), start: h.start, durationMs: h.durationMs, ended: h.ended });
      durationMs += h.durationMs;
      unanswered.count += s.unansweredCount;
      for (const p of s.unanswered) unanswered.requests.push({ ...p, session: h.session });
      for (const f of s.findings.byCode) findings.set(f.code, (findings.get(f.code) ?? 0) + f.count);
    }
    return {
      sessions,
      durationMs,
      methods: [...this.methods.rows.values()].map(finish).sort(order),
      tools: [...this.tools.rows.values()].map(finish).sort(order),
      unanswered,
      findings: [...findings].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
      unpairedAnswers: this.unpairedAnswers,
      totals: { ...this.totals },
      ...(this.context ? { context: this.context.finish() } : {}),
    };
  }

  /** The rows of a request (its method, and for tools/call its tool). */
  private rowsOf(from: 'client' | 'server', method: string, target: unknown): Acc[] {
    const accs = [this.methods.get(from, 'request', method)];
    if (method === 'tools/call' && typeof target === 'string') accs.push(this.tools.get(from, 'request', method, target));
    return accs;
  }

  /** A record of a task: the call's answer that created it opens it; the record that ends it answers and times the call. */
  private onTask(r: LogRecord, tf: TaskFacts): void {
    let tc: TaskCall | undefined;
    if (tf.created) {
      if (r.method === undefined || (r.from !== 'client' && r.from !== 'server')) return;
      tc = { accs: this.rowsOf(other(r.from), r.method, r.target), ended: false, isError: false };
      for (const a of tc.accs) {
        a.row.tasks = (a.row.tasks ?? 0) + 1;
        addBytes(a, r.from === 'client', r.bytes);
      }
      this.taskCalls.set(r.session, tf.callSeq, tc);
    } else tc = this.taskCalls.get(r.session, tf.callSeq);
    if (!tc) return;
    if (tf.endMs !== undefined && !tc.ended) {
      tc.ended = true;
      for (const a of tc.accs) {
        a.row.answered++;
        a.ms.push(tf.endMs);
        if (tf.status === 'failed') a.row.errors++;
      }
    }
    if (tf.isError && !tc.isError) {
      tc.isError = true;
      for (const a of tc.accs) a.row.isError++;
    }
  }

  private onAnswer(from: 'client' | 'server', kind: string, method: string | undefined, target: unknown, ms: unknown, isErr: boolean, bytes: unknown, msg?: unknown): void {
    if (method === undefined) {
      this.unpairedAnswers++;
      return;
    }
    const accs = this.rowsOf(other(from), method, target);
    const refused = isRefusedProbeAnswer({ kind, from, method }, msg);
    for (const a of accs) {
      a.row.answered++;
      if (refused) a.row.refused++;
      else if (kind === 'error') a.row.errors++;
      if (isErr) a.row.isError++;
      if (typeof ms === 'number' && Number.isFinite(ms)) a.ms.push(ms);
      addBytes(a, from === 'client', bytes);
    }
  }

  private count(r: LogRecord): void {
    const totals = this.totals;
    totals.records++;
    if (r.from !== 'client' && r.from !== 'server') return;
    const tf = typeof r.taskId === 'string' ? taskFacts(r) : undefined;
    if (tf) this.onTask(r, tf);
    if (r.kind === 'stderr') {
      totals.stderr++;
      return;
    }
    totals.messages++;
    if (typeof r.bytes === 'number') {
      if (r.from === 'client') totals.bytesIn += r.bytes;
      else totals.bytesOut += r.bytes;
    }
    switch (r.kind) {
      case 'request':
      case 'notification': {
        const method = r.method ?? '(no method)';
        const accs = [this.methods.get(r.from, r.kind, method)];
        if (r.kind === 'request' && method === 'tools/call' && typeof r.target === 'string') accs.push(this.tools.get(r.from, 'request', method, r.target));
        for (const a of accs) {
          a.row.count++;
          addBytes(a, r.from === 'client', r.bytes);
        }
        break;
      }
      case 'response':
      case 'error':
        // the answer that created a task counted in onTask: the call is answered when the task ends
        if (!tf?.created) this.onAnswer(r.from, r.kind, r.method, r.target, r.ms, r.isError === true && tf === undefined, r.bytes, r.msg);
        break;
      case 'batch':
        // elements are counted and timed; the batch's bytes are not split among them (totals only)
        for (const it of r.items ?? []) {
          if (it.kind === 'request' || it.kind === 'notification') this.methods.get(r.from, it.kind, it.method ?? '(no method)').row.count++;
          else if (it.kind === 'response' || it.kind === 'error') this.onAnswer(r.from, it.kind, it.method, undefined, it.ms, it.isError === true, undefined);
        }
        break;
      case 'invalid':
        totals.invalid++;
        break;
      default:
    }
  }
}

function pad(cells: string[][], right: ReadonlySet<number>): string[] {
  const widths: number[] = [];
  for (const row of cells) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return cells.map((row) =>
    row
      .map((c, i) => {
        const fill = ' '.repeat((widths[i] ?? 0) - [...c].length);
        return right.has(i) ? fill + c : c + fill;
      })
      .join('  ')
      .trimEnd(),
  );
}

/** The stats as a plain-text report (no colour); `clean` makes untrusted names safe for a terminal. */
export function renderTextStats(st: Stats, clean: (s: string) => string = (s) => s): string {
  const out: string[] = [];
  const names = [...new Set(st.sessions.map((s) => s.name).filter((n): n is string => n !== undefined))];
  const sess = st.sessions.length === 1 ? `session ${clean(st.sessions[0]!.session)}` : `${st.sessions.length} sessions`;
  out.push(`${names.length > 0 ? `${clean(names.join(', '))}: ` : ''}${sess}, ${formatMs(st.durationMs)}${st.sessions.some((s) => !s.ended) ? ' (not ended)' : ''}`);
  out.push(
    `messages ${st.totals.messages} (invalid ${st.totals.invalid}), stderr lines ${st.totals.stderr}, bytes in ${formatBytes(st.totals.bytesIn)}, out ${formatBytes(st.totals.bytesOut)}`,
    '',
  );
  const lat = (v: number | undefined) => (v === undefined ? '' : formatMs(v));
  const header = ['method', 'from', 'count', 'errors', 'isError', 'p50', 'p95', 'p99', 'max', 'in', 'out'];
  const rows: string[][] = [header];
  const row = (m: MethodStats, name: string) => [
    name,
    m.from,
    String(m.count),
    m.kind === 'request' ? String(m.errors) : '',
    m.kind === 'request' ? String(m.isError) : '',
    lat(m.latency?.p50),
    lat(m.latency?.p95),
    lat(m.latency?.p99),
    lat(m.latency?.max),
    formatBytes(m.bytesIn),
    formatBytes(m.bytesOut),
  ];
  for (const m of st.methods) {
    rows.push(row(m, clean(m.method)));
    if (m.method === 'tools/call' && m.kind === 'request') {
      for (const t of st.tools.filter((x) => x.from === m.from)) rows.push(row(t, `  ${clean(t.tool ?? '')}`));
    }
  }
  if (st.methods.length === 0) out.push('no messages');
  else out.push(...pad(rows, new Set([2, 3, 4, 5, 6, 7, 8, 9, 10])));
  out.push('');
  out.push(`unanswered requests: ${st.unanswered.count}`);
  for (const p of st.unanswered.requests) out.push(`  #${p.seq} ${p.from} ${clean(p.method)} id ${clean(JSON.stringify(p.id) ?? '')}`);
  if (st.unanswered.count > st.unanswered.requests.length) out.push(`  … and ${st.unanswered.count - st.unanswered.requests.length} more`);
  const tasks = st.methods.reduce((n, m) => n + (m.tasks ?? 0), 0);
  if (tasks > 0) {
    const running = st.methods.reduce((n, m) => n + (m.running ?? 0), 0);
    out.push(`calls answered with a task: ${tasks}${running > 0 ? ` (${running} still running at the end)` : ''}; timed to the task's end`);
  }
  out.push(`findings: ${st.findings.reduce((s, f) => s + f.count, 0)}`);
  const w = Math.max(0, ...st.findings.map((f) => f.code.length));
  for (const f of st.findings) out.push(`  ${clean(f.code).padEnd(w)}  ${f.count}`);
  const refused = st.methods.reduce((n, m) => n + m.refused, 0);
  if (refused > 0) out.push(`refused discovery probes: ${refused} (server/discover refused by an older server; the client falls back to initialize — not errors)`);
  if (st.unpairedAnswers > 0) out.push(`answers that pair with no request: ${st.unpairedAnswers}`);
  const ctx = st.context ?? [];
  for (const c of ctx) {
    out.push('', ctx.length > 1 ? `context cost, session ${clean(c.session)}:` : 'context cost:');
    out.push(...contextLines(c, clean).map((l) => `  ${l}`));
  }
  out.push('', 'latency percentiles: nearest rank over answered requests; in/out: bytes received/sent by the server');
  if (ctx[0]) out.push(tokenizerNote(ctx[0]));
  return `${out.join('\n')}\n`;
}
