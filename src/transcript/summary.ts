/**
 * Header and summary of one session, computed from its records alone: the data behind the top of every
 * export (Markdown now, HTML next). Pure; renderers decide how it looks.
 */
import type { Kind, LogRecord, Note, PendingRequest } from '../log/record.js';
import { isRefusedProbeAnswer } from '../protocol/probe.js';

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
  /** `refused`: a server/discover probe the server refused; the client falls back (not an error). */
  outcome: 'result' | 'error' | 'isError' | 'refused';
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
  /** The five slowest answered calls, slowest first. */
  slowest: TimedCall[];
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
  const first = records[0];
  const last = records[records.length - 1];
  const h: SessionHeader = {
    session: first && typeof first.session === 'string' ? first.session : '',
    start: num(first?.time) ?? 0,
    end: num(last?.time) ?? 0,
    durationMs: 0,
    ended: false,
  };
  let initParams: Record<string, unknown> | undefined;
  let initResult: Record<string, unknown> | undefined;
  let initSeq: number | undefined;
  for (const r of records) {
    if (r.kind === 'event') {
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
    } else if (r.kind === 'request' && r.method === 'initialize' && initParams === undefined) {
      initParams = obj(obj(r.msg)?.['params']) ?? {};
      initSeq = r.seq;
    } else if (r.kind === 'response' && initSeq !== undefined && r.reqSeq === initSeq && initResult === undefined) {
      initResult = obj(obj(r.msg)?.['result']) ?? {};
    }
  }
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
  const kinds = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  let errors = 0;
  let refusedProbes = 0;
  let isErrorResults = 0;
  let lost = 0;
  const codes = new Map<string, number>();
  const timed: TimedCall[] = [];
  const requestFrom = new Map<number, LogRecord>();
  let endRecord: LogRecord | undefined;
  for (const r of records) {
    if (Object.hasOwn(kinds, r.kind)) kinds[r.kind]++;
    if (r.kind === 'request') requestFrom.set(r.seq, r);
    const refused = isRefusedProbeAnswer(r, r.msg);
    if (refused) refusedProbes++;
    else if (r.kind === 'error') errors++;
    if (r.isError === true) isErrorResults++;
    for (const n of notesOf(r)) codes.set(n.code, (codes.get(n.code) ?? 0) + 1);
    if (r.kind === 'event' && r.event === 'end') endRecord = r;
    if (r.kind === 'event' && (r.event === 'gap' || r.event === 'log-error')) lost += num(r['lost']) ?? 0;
    if (isAnswer(r.kind) && typeof r.ms === 'number') {
      const req = typeof r.reqSeq === 'number' ? requestFrom.get(r.reqSeq) : undefined;
      timed.push({
        seq: r.seq,
        ...(r.reqSeq !== undefined ? { reqSeq: r.reqSeq } : {}),
        from: r.from === 'client' ? 'server' : 'client',
        id: r.id,
        method: r.method ?? req?.method ?? '',
        ...(r.target !== undefined ? { target: r.target } : req?.target !== undefined ? { target: req.target } : {}),
        ms: r.ms,
        outcome: refused ? 'refused' : r.kind === 'error' ? 'error' : r.isError ? 'isError' : 'result',
      });
    }
    if (r.kind === 'batch' && Array.isArray(r.items)) {
      for (const it of r.items) {
        if (it.kind === 'error') errors++;
        if (it.isError === true) isErrorResults++;
        if (isAnswer(it.kind) && typeof it.ms === 'number') {
          timed.push({
            seq: r.seq,
            ...(it.reqSeq !== undefined ? { reqSeq: it.reqSeq } : {}),
            from: r.from === 'client' ? 'server' : 'client',
            id: it.id,
            method: it.method ?? '',
            ms: it.ms,
            outcome: it.kind === 'error' ? 'error' : it.isError ? 'isError' : 'result',
          });
        }
      }
    }
  }
  timed.sort((a, b) => b.ms - a.ms || a.seq - b.seq);
  const byCode = [...codes].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  const unanswered = endRecord ? pendingList(endRecord['pending']) : computeUnanswered(records);
  return {
    header: sessionHeader(records),
    kinds,
    errors,
    refusedProbes,
    isErrorResults,
    findings: { total: byCode.reduce((s, c) => s + c.count, 0), byCode },
    unanswered,
    unansweredCount: Math.max(unanswered.length, (endRecord && num(endRecord['pendingCount'])) || 0),
    cancelled: endRecord ? pendingList(endRecord['cancelledPending']) : [],
    slowest: timed.slice(0, slowestCount),
    lost,
  };
}
