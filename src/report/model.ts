/**
 * What the HTML report draws, computed from one session's records alone: a bar per request (send time to
 * answer, coloured by outcome, progress marks on it), and ticks for notifications, stderr lines and the
 * rest on their own lanes. Pure; times are milliseconds since the session started.
 */
import type { JsonRpcId, LogRecord } from '../log/record.js';
import { errorCodeOf, isRefusedProbe } from '../protocol/probe.js';
import { summarizeSession, type SessionSummary } from '../transcript/summary.js';

/**
 * How a request ended; `unanswered` bars run to the end of the session. `refused`: a server/discover
 * probe the server refused (-32601, -32022); the client falls back. A request answered with a task ends
 * with its task (`failed` is `error`); `running`: its task had not ended when the session did.
 */
export type Outcome = 'ok' | 'error' | 'isError' | 'cancelled' | 'unanswered' | 'refused' | 'running';

export const OUTCOMES: readonly Outcome[] = ['ok', 'error', 'isError', 'cancelled', 'unanswered', 'refused', 'running'];

/** One request of the waterfall. */
export interface Bar {
  /** Seq of the request record (for a request sent in a batch: of the batch record). */
  seq: number;
  /** Index of the request inside its batch. */
  item?: number;
  /** Who sent the request. */
  from: 'client' | 'server';
  id?: JsonRpcId;
  method: string;
  target?: string;
  /** Send time and end time (answer, cancel, or the end of the session), ms since the session start. */
  start: number;
  end: number;
  outcome: Outcome;
  /** Seq of the (first) answer. */
  answerSeq?: number;
  /** Latency as the log recorded it. */
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

/** One session, ready to draw. */
export interface SessionModel {
  id: string;
  name: string;
  /** Epoch ms the offsets count from (the session start). */
  origin: number;
  /** Ms from the start to the last record: where unanswered bars end. */
  duration: number;
  bars: Bar[];
  notifications: Tick[];
  stderr: Tick[];
  /** Invalid lines, answers that pair with no request, batches without requests, mcp-tap's events. */
  other: Tick[];
  summary: SessionSummary;
  records: readonly LogRecord[];
  /** Request seq (or `seq:item` for batch elements) → outcome, for the message list. */
  outcomeOf: Map<string, Bar>;
}

const ERROR_TEXT_MAX = 240;

/** Offsets are kept to the microsecond: enough for the eye, short in the page. */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function clip(s: string): string {
  return s.length > ERROR_TEXT_MAX ? `${s.slice(0, ERROR_TEXT_MAX - 1)}…` : s;
}

/** `-32002 Resource not found` from an error message (or a batch element's share of one). */
export function errorTextOf(msg: unknown): string | undefined {
  const e = obj(obj(msg)?.['error']);
  if (!e) return undefined;
  const code = typeof e['code'] === 'number' ? String(e['code']) : '';
  const message = typeof e['message'] === 'string' ? e['message'] : '';
  const text = `${code} ${message}`.trim();
  return text ? clip(text) : undefined;
}

/** The text content of an isError tools/call result, for the tooltip. */
export function isErrorTextOf(msg: unknown): string | undefined {
  const content = obj(obj(msg)?.['result'])?.['content'];
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((c) => obj(c)?.['text']).filter((t): t is string => typeof t === 'string');
  return texts.length > 0 ? clip(texts.join(' ')) : undefined;
}

/** Ids compare with their type: `1` and `"1"` differ. */
function sameId(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && a === b;
}

/** The key a bar is known by: `seq`, or `seq:item` for batch elements. */
export function barKey(seq: number, item?: number): string {
  return item === undefined ? String(seq) : `${seq}:${item}`;
}

interface AnswerLike {
  seq: number;
  t: number;
  kind: string;
  id?: unknown;
  ms?: number;
  isError?: boolean;
  cancelled?: boolean;
  errorText?: string;
  errorCode?: number;
}

function isAnswerKind(k: unknown): boolean {
  return k === 'response' || k === 'error';
}

/** The progress token a request carries in params._meta, if any. */
function progressTokenOf(msg: unknown): unknown {
  return obj(obj(obj(msg)?.['params'])?.['_meta'])?.['progressToken'];
}

function settle(bar: Bar, a: AnswerLike): void {
  if (bar.answerSeq !== undefined) return; // a second answer (duplicate-answer) changes nothing
  bar.answerSeq = a.seq;
  bar.end = Math.max(bar.start, a.t);
  if (typeof a.ms === 'number') bar.ms = a.ms;
  if (bar.outcome === 'cancelled') return;
  if (a.kind === 'error' && isRefusedProbe(bar.method, bar.from, a.errorCode)) {
    bar.outcome = 'refused';
    if (a.errorText !== undefined) bar.errorText = a.errorText;
  } else if (a.kind === 'error') {
    bar.outcome = 'error';
    if (a.errorText !== undefined) bar.errorText = a.errorText;
  } else if (a.isError) {
    bar.outcome = 'isError';
    if (a.errorText !== undefined) bar.errorText = a.errorText;
  } else bar.outcome = 'ok';
  if (a.cancelled) bar.outcome = 'cancelled';
}

/** The record that ended a bar's task: the bar ends there, with the task's duration and outcome. */
function endTask(bar: Bar, r: LogRecord, t: number): void {
  bar.end = Math.max(bar.start, t);
  if (typeof r.taskMs === 'number') bar.ms = r.taskMs;
  const status = typeof r.taskStatus === 'string' ? r.taskStatus : 'completed';
  bar.task!.status = status;
  if (status === 'failed') {
    bar.outcome = 'error';
    bar.errorText = r.kind === 'error' ? (errorTextOf(r.msg) ?? 'the task failed') : 'the task failed';
  } else if (status === 'cancelled') bar.outcome = 'cancelled';
  else if (r.isError === true) {
    bar.outcome = 'isError';
    const text = isErrorTextOf(r.msg);
    if (text !== undefined) bar.errorText = text;
  } else bar.outcome = 'ok';
}

/**
 * One session's records (in log order) → the waterfall model. `summary`: the whole session's, when the
 * records are a sample of it (src/transcript/sampling.ts).
 */
export function buildSessionModel(records: readonly LogRecord[], summary: SessionSummary = summarizeSession(records)): SessionModel {
  const origin = summary.header.start;
  const off = (t: unknown) => round3((typeof t === 'number' && Number.isFinite(t) ? t : origin) - origin);
  let duration = Math.max(0, summary.header.durationMs);
  for (const r of records) duration = Math.max(duration, off(r.time));
  duration = round3(duration);

  const bars: Bar[] = [];
  const single = new Map<number, Bar>();
  const inBatch = new Map<number, Bar[]>();
  const notifications: Tick[] = [];
  const stderr: Tick[] = [];
  const other: Tick[] = [];
  const tokens = new Map<number, unknown[]>(); // batch seq → progress token per element

  const findBatchBar = (batchSeq: number, id: unknown): Bar | undefined => inBatch.get(batchSeq)?.find((b) => b.answerSeq === undefined && sameId(b.id, id)) ?? inBatch.get(batchSeq)?.find((b) => sameId(b.id, id));

  const answer = (reqSeq: unknown, a: AnswerLike, from: string): boolean => {
    if (typeof reqSeq !== 'number') return false;
    const bar = single.get(reqSeq) ?? findBatchBar(reqSeq, a.id);
    if (!bar || bar.from === from) return false;
    settle(bar, a);
    return true;
  };

  for (const r of records) {
    const t = off(r.time);
    if (typeof r.taskOf === 'number') {
      const bar = single.get(r.taskOf);
      if (bar?.task && bar.outcome === 'running') {
        if (typeof r.taskStatus === 'string') bar.task.status = r.taskStatus;
        if (typeof r.taskMs === 'number') endTask(bar, r, t);
      } else if (bar?.task && r.isError === true && bar.outcome === 'ok') bar.outcome = 'isError';
    }
    switch (r.kind) {
      case 'request': {
        if (r.from !== 'client' && r.from !== 'server') break;
        const bar: Bar = { seq: r.seq, from: r.from, method: r.method ?? '(no method)', start: t, end: duration, outcome: 'unanswered', progress: [] };
        if (r.id !== undefined) bar.id = r.id;
        if (typeof r.target === 'string') bar.target = r.target;
        bars.push(bar);
        single.set(r.seq, bar);
        break;
      }
      case 'response':
      case 'error': {
        if (typeof r.taskId === 'string' && typeof r.taskOf !== 'number' && r.kind === 'response') {
          // a CreateTaskResult: the bar runs on until the task ends
          const bar = typeof r.reqSeq === 'number' ? single.get(r.reqSeq) : undefined;
          if (bar && bar.from !== r.from && bar.answerSeq === undefined && bar.task === undefined) {
            bar.task = { id: r.taskId, status: typeof r.taskStatus === 'string' ? r.taskStatus : 'working', at: t };
            bar.outcome = 'running';
            bar.answerSeq = r.seq;
            if (typeof r.taskMs === 'number') endTask(bar, r, t);
            break;
          }
        }
        const a: AnswerLike = { seq: r.seq, t, kind: r.kind, id: r.id, ...(typeof r.ms === 'number' ? { ms: r.ms } : {}), isError: r.isError === true, cancelled: r.cancelled === true };
        const code = errorCodeOf(r.msg);
        if (code !== undefined) a.errorCode = code;
        const text = r.kind === 'error' ? errorTextOf(r.msg) : r.isError ? isErrorTextOf(r.msg) : undefined;
        if (text !== undefined) a.errorText = text;
        if (!answer(r.reqSeq, a, r.from)) other.push({ t, seq: r.seq, tag: r.kind });
        break;
      }
      case 'notification': {
        notifications.push({ t, seq: r.seq, tag: r.from === 'client' ? 'c' : 's' });
        if (typeof r.reqSeq !== 'number') break;
        let bar = single.get(r.reqSeq);
        if (!bar && inBatch.has(r.reqSeq)) {
          const params = obj(obj(r.msg)?.['params']);
          const list = inBatch.get(r.reqSeq)!;
          if (r.method === 'notifications/cancelled') bar = list.find((b) => sameId(b.id, params?.['requestId']));
          else {
            const tok = tokens.get(r.reqSeq) ?? [];
            const i = tok.findIndex((x) => x !== undefined && sameId(x, params?.['progressToken']));
            bar = i >= 0 ? list[i] : undefined;
          }
        }
        if (!bar) break;
        if (r.method === 'notifications/progress') bar.progress.push(t);
        else if (r.method === 'notifications/cancelled' && bar.cancelAt === undefined && bar.from === r.from) {
          bar.cancelAt = t;
          // a cancel that arrives after the answer changes nothing: the request stays answered as it was
          if (bar.answerSeq === undefined) {
            bar.outcome = 'cancelled';
            bar.end = Math.max(bar.start, t);
          }
        }
        break;
      }
      case 'batch': {
        const items = Array.isArray(r.items) ? r.items : [];
        const msgs = Array.isArray(r.msg) ? (r.msg as unknown[]) : [];
        let linked = 0;
        items.forEach((it, i) => {
          if (it.kind === 'request' && (r.from === 'client' || r.from === 'server')) {
            const bar: Bar = { seq: r.seq, item: i, from: r.from, method: it.method ?? '(no method)', start: t, end: duration, outcome: 'unanswered', progress: [] };
            if (it.id !== undefined) bar.id = it.id;
            if (typeof it.target === 'string') bar.target = it.target;
            bars.push(bar);
            const list = inBatch.get(r.seq) ?? [];
            list.push(bar);
            inBatch.set(r.seq, list);
            const tok = tokens.get(r.seq) ?? [];
            tok.push(progressTokenOf(msgs[i]));
            tokens.set(r.seq, tok);
            linked++;
          } else if (isAnswerKind(it.kind)) {
            const a: AnswerLike = { seq: r.seq, t, kind: it.kind, id: it.id, ...(typeof it.ms === 'number' ? { ms: it.ms } : {}), isError: it.isError === true, cancelled: it.cancelled === true };
            const text = it.kind === 'error' ? errorTextOf(msgs[i]) : it.isError ? isErrorTextOf(msgs[i]) : undefined;
            if (text !== undefined) a.errorText = text;
            if (answer(it.reqSeq, a, r.from)) linked++;
          }
        });
        // a batch shows as bars (its requests) and bar ends (its answers); only one that links to nothing is a tick
        if (linked === 0) other.push({ t, seq: r.seq, tag: 'batch' });
        break;
      }
      case 'stderr':
        stderr.push({ t, seq: r.seq });
        break;
      case 'invalid':
        other.push({ t, seq: r.seq, tag: 'invalid' });
        break;
      case 'event':
        other.push({ t, seq: r.seq, tag: typeof r.event === 'string' ? r.event : 'event' });
        break;
      default:
        other.push({ t, seq: r.seq, tag: String(r.kind) });
    }
  }
  bars.sort((a, b) => a.start - b.start || a.seq - b.seq || (a.item ?? 0) - (b.item ?? 0));
  const outcomeOf = new Map<string, Bar>();
  for (const b of bars) outcomeOf.set(barKey(b.seq, b.item), b);
  const first = records[0];
  const start = records.find((r) => r.kind === 'event' && r.event === 'start');
  return {
    id: summary.header.session || (first && typeof first.session === 'string' ? first.session : ''),
    name: typeof start?.['name'] === 'string' ? start['name'] : 'unnamed server',
    origin,
    duration,
    bars,
    notifications,
    stderr,
    other,
    summary,
    records,
    outcomeOf,
  };
}
