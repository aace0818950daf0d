/**
 * Per-session summaries in one pass over a log (for ls, export and stats): counts, times, exit and
 * server name, without keeping any record.
 */
import { isRefusedProbeAnswer, mayBeRefusedProbe } from '../protocol/probe.js';
import { readRecords, type ReadOptions, type WarningItem } from './read-log.js';
import type { LogRecord } from './record.js';

type Obj = Record<string, unknown>;

/** What `ls`, `export` and `stats` need to know about one session without reading its records again. */
export interface SessionSummary {
  id: string;
  path: string;
  firstSeq: number;
  lastSeq: number;
  /** Line numbers of the session's first and last record in the file. */
  firstLine: number;
  lastLine: number;
  /** Epoch ms of the first record (the start event when there is one). */
  start?: number;
  /** Epoch ms of the last record. */
  end?: number;
  durationMs?: number;
  records: number;
  /** Records by kind (unknown kinds of newer formats counted under their own name). */
  byKind: Record<string, number>;
  /** JSON-RPC traffic: requests, responses, errors, notifications, batches and invalid lines. */
  messages: number;
  /** JSON-RPC error answers (batch elements included); a refused discovery probe is none. */
  errors: number;
  /** tools/call results with isError: true. */
  toolErrors: number;
  /** Records that carry findings (notes). */
  findings: number;
  /** From the 'exit' event: the server's exit code and signal (null when it did not apply). */
  exitCode?: number | null;
  signal?: string | null;
  /** From the 'start' event. */
  serverName?: string;
  command?: string;
  args?: string[];
  /** The session has its 'end' event (mcp-tap shut down normally). */
  ended: boolean;
  /** Highest format version among the session's records. */
  v: number;
}

const MESSAGE_KINDS = new Set(['request', 'response', 'error', 'notification', 'batch', 'invalid']);

export interface ListOptions extends ReadOptions {
  /** Lines that did not yield a record (the torn last line of a live log among them). */
  onWarning?: (w: WarningItem) => void;
}

/** One pass over the log: a summary per session, in the order the sessions first appear. Keeps no records. */
export async function listSessions(path: string, opts: ListOptions = {}): Promise<SessionSummary[]> {
  const sessions = new Map<string, SessionSummary>();
  for await (const item of readRecords(path, { needsBody: mayBeRefusedProbe, ...opts })) {
    if (!('record' in item)) {
      opts.onWarning?.(item);
      continue;
    }
    const r = item.record;
    let s = sessions.get(r.session);
    if (!s) {
      s = {
        id: r.session,
        path,
        firstSeq: r.seq,
        lastSeq: r.seq,
        firstLine: item.line,
        lastLine: item.line,
        records: 0,
        byKind: {},
        messages: 0,
        errors: 0,
        toolErrors: 0,
        findings: 0,
        ended: false,
        v: r.v,
      };
      sessions.set(r.session, s);
    }
    addToSummary(s, r, item.line);
  }
  return [...sessions.values()];
}

function addToSummary(s: SessionSummary, r: LogRecord, line: number): void {
  s.records++;
  s.lastLine = line;
  s.firstSeq = Math.min(s.firstSeq, r.seq);
  s.lastSeq = Math.max(s.lastSeq, r.seq);
  if (r.v > s.v) s.v = r.v;
  const time = typeof r.time === 'number' && Number.isFinite(r.time) ? r.time : undefined;
  if (time !== undefined) {
    if (s.start === undefined || time < s.start) s.start = time;
    if (s.end === undefined || time > s.end) s.end = time;
    s.durationMs = s.end - s.start;
  }
  s.byKind[r.kind] = (s.byKind[r.kind] ?? 0) + 1;
  if (MESSAGE_KINDS.has(r.kind)) s.messages++;
  if (r.kind === 'error' && !isRefusedProbeAnswer(r, r.msg)) s.errors++;
  if (r.kind === 'batch' && Array.isArray(r.items)) {
    for (const it of r.items as unknown[]) {
      if (typeof it !== 'object' || it === null) continue;
      const i = it as Obj;
      if (i['kind'] === 'error') s.errors++;
      if (i['isError'] === true) s.toolErrors++;
    }
  }
  if (r.isError === true) s.toolErrors++;
  if (Array.isArray(r.notes) && r.notes.length > 0) s.findings++;
  if (r.kind !== 'event') return;
  switch (r.event) {
    case 'start':
      if (time !== undefined) s.start = time;
      if (typeof r['name'] === 'string') s.serverName = r['name'];
      if (typeof r['command'] === 'string') s.command = r['command'];
      if (Array.isArray(r['args'])) s.args = (r['args'] as unknown[]).map(String);
      if (s.end !== undefined && s.start !== undefined) s.durationMs = s.end - s.start;
      break;
    case 'exit':
      s.exitCode = typeof r['code'] === 'number' ? r['code'] : null;
      s.signal = typeof r['signal'] === 'string' ? r['signal'] : null;
      break;
    case 'end':
      s.ended = true;
      break;
    default:
      break;
  }
}
