/**
 * A log record → its SessionRow: the one function both the HTML report and the live UI make rows with.
 * Envelope facts, the findings, a short error text, how a notification names its request, batch
 * elements, and what an event, a progress or a log notification says in words; never the body (the report adds it, rows.ts). Wire strings go
 * through `redact` (the live UI redacts here; the report's records were redacted before). Pure.
 */
import { authChainText, type AuthLink } from '../log/auth-chain.js';
import type { BatchItem, LogRecord } from '../log/record.js';
import { isRefusedProbeAnswer } from '../protocol/probe.js';
import type { RowId, RowItem, RowNote, SessionRow } from './row.js';
import { clip } from './text.js';

/** Turns a wire string into what may be shown (identity when the records are redacted already). */
export type RedactText = (text: string) => string;

const AS_IS: RedactText = (text) => text;
const FROM: Record<string, SessionRow['f']> = { client: 'c', server: 's', proxy: 'p' };
const ERROR_TEXT_MAX = 240;

/** Offsets are kept to the microsecond: enough for the eye, short in the page. */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** `-32002 Resource not found` from an error message (or a batch element's share of one). */
export function errorTextOf(msg: unknown): string | undefined {
  const e = obj(obj(msg)?.['error']);
  if (!e) return undefined;
  const code = typeof e['code'] === 'number' ? String(e['code']) : '';
  const message = typeof e['message'] === 'string' ? e['message'] : '';
  const text = `${code} ${message}`.trim();
  return text ? clip(text, ERROR_TEXT_MAX) : undefined;
}

/** The text content of an isError tools/call result, for the tooltip. */
export function isErrorTextOf(msg: unknown): string | undefined {
  const content = obj(obj(msg)?.['result'])?.['content'];
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((c) => obj(c)?.['text']).filter((t): t is string => typeof t === 'string');
  return texts.length > 0 ? clip(texts.join(' '), ERROR_TEXT_MAX) : undefined;
}

/** A record's one-letter flags (E isError, C cancelled, T truncated, P partial, I input required, R refused probe). */
function flagsOf(r: LogRecord): string {
  let f = '';
  if (r.isError === true) f += 'E';
  if (r.cancelled === true) f += 'C';
  if (r.truncated === true) f += 'T';
  if (r.partial === true) f += 'P';
  if (r.inputRequired === true) f += 'I';
  if (isRefusedProbeAnswer(r, r.msg)) f += 'R';
  return f;
}

function idOf(id: unknown, redact: RedactText): RowId | undefined {
  if (typeof id === 'string') return redact(id);
  return typeof id === 'number' || id === null ? id : undefined;
}

function notesOf(notes: unknown, redact: RedactText): RowNote[] | undefined {
  if (!Array.isArray(notes) || notes.length === 0) return undefined;
  return notes.map((n: { code?: unknown; text?: unknown }) => ({ code: String(n.code), text: redact(String(n.text ?? '')) }));
}

/** An answer's error text: the error's code and message, or the text of an isError result. */
function answerText(kind: unknown, isError: unknown, msg: unknown): string | undefined {
  return kind === 'error' ? errorTextOf(msg) : isError === true ? isErrorTextOf(msg) : undefined;
}

function itemOf(it: BatchItem, msg: unknown, redact: RedactText): RowItem {
  const out: RowItem = { kind: String(it.kind) };
  const id = idOf(it.id, redact);
  if (id !== undefined) out.id = id;
  if (typeof it.method === 'string') out.method = redact(it.method);
  if (typeof it.target === 'string') out.target = redact(it.target);
  if (typeof it.reqSeq === 'number') out.reqSeq = it.reqSeq;
  if (typeof it.ms === 'number') out.ms = it.ms;
  if (it.isError === true) out.isError = true;
  if (it.cancelled === true) out.cancelled = true;
  const notes = notesOf(it.notes, redact);
  if (notes) out.notes = notes;
  const et = answerText(it.kind, it.isError, msg);
  if (et !== undefined) out.et = redact(et);
  if (it.kind === 'request') {
    const token = obj(obj(obj(msg)?.['params'])?.['_meta'])?.['progressToken'];
    if (typeof token === 'string') out.q = redact(token);
    else if (typeof token === 'number') out.q = token;
  }
  return out;
}

/** How a progress or cancel notification names its request: what matches it to a batch element. */
function namesOf(r: LogRecord, redact: RedactText): string | number | undefined {
  const params = obj(obj(r.msg)?.['params']);
  const v = r.method === 'notifications/progress' ? params?.['progressToken'] : r.method === 'notifications/cancelled' ? params?.['requestId'] : undefined;
  return typeof v === 'string' ? redact(v) : typeof v === 'number' ? v : undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : String(v));
const NOTE_TEXT_MAX = 160;

/** What a progress or log notification says: its numbers, or its level and (redacted, short) text. */
function notificationFact(r: LogRecord, redact: RedactText): string | undefined {
  const p = obj(obj(r.msg)?.['params']);
  if (!p) return undefined;
  if (r.method === 'notifications/progress') {
    const n = (v: unknown) => (typeof v === 'number' ? String(v) : '?');
    return `progress ${n(p['progress'])}${p['total'] !== undefined ? `/${n(p['total'])}` : ''}`;
  }
  if (r.method === 'notifications/message') {
    const data = typeof p['data'] === 'string' ? p['data'] : JSON.stringify(p['data']) ?? '';
    const text = `${typeof p['level'] === 'string' ? `${p['level']}: ` : ''}${data}`;
    return redact(clip(text, NOTE_TEXT_MAX));
  }
  return undefined;
}

/** What an event says, in words: mcp-tap's own facts, with the few wire strings redacted. */
function eventFact(r: LogRecord, redact: RedactText = AS_IS): string | undefined {
  const y = r as Record<string, unknown>;
  switch (r.event) {
    case 'exit':
      return typeof y['signal'] === 'string' ? `signal ${y['signal']}` : `code ${str(y['code'])}`;
    case 'end': {
      const n = typeof y['pendingCount'] === 'number' ? y['pendingCount'] : Array.isArray(y['pending']) ? y['pending'].length : 0;
      return `${n} unanswered`;
    }
    case 'gap':
    case 'log-error':
      return `lost ${str(y['lost'])}${typeof y['reason'] === 'string' ? ` (${y['reason']})` : ''}${typeof y['error'] === 'string' ? ` ${redact(y['error'])}` : ''}`;
    case 'signal':
    case 'kill':
      return `${str(y['signal'])}${typeof y['reason'] === 'string' ? ` · ${y['reason']}` : ''}`;
    case 'spawn':
      return `server pid ${str(y['serverPid'])}`;
    case 'spawn-error':
      return redact(typeof y['error'] === 'string' ? y['error'] : '');
    case 'lifecycle':
      return `protocol ${typeof y['protocolVersion'] === 'string' ? y['protocolVersion'] : '?'}`;
    case 'auth': {
      const chain = (Array.isArray(y['chain']) ? y['chain'] : []).map((l: Record<string, unknown>) => {
        const link: AuthLink = { step: String(l['step']) as AuthLink['step'], status: typeof l['status'] === 'number' ? l['status'] : 0, path: '', ms: 0 };
        if (typeof l['grant'] === 'string') link.grant = l['grant'];
        if (typeof l['error'] === 'string') link.error = redact(l['error']);
        return link;
      });
      return `${authChainText(chain, typeof y['omitted'] === 'number' ? y['omitted'] : 0)}${y['ok'] === true ? '' : ' · not accepted'}`;
    }
    case 'session-id':
      return `${y['reason'] === 'reconnect' ? 'new session after the server forgot the last' : 'session id re-issued'} · ${redact(str(y['previous']))} → ${redact(str(y['sessionId']))}`;
    case 'exchange':
    case 'http': {
      const text = y['notDecoded'] ?? y['error'] ?? y['reason'];
      return typeof text === 'string' && text !== '' ? redact(text) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The row of one record. `origin`: the epoch ms the session's times count from; `redact`: what wire
 * strings go through (identity for records redacted already).
 */
export function toRow(r: LogRecord, origin: number, redact: RedactText = AS_IS): SessionRow {
  const time = typeof r.time === 'number' && Number.isFinite(r.time) ? r.time : origin;
  const row: SessionRow = { s: r.seq, t: round3(time - origin), f: FROM[r.from] ?? 'p', k: String(r.kind) };
  if (typeof r.method === 'string') row.m = redact(r.method);
  if (typeof r.target === 'string') row.g = redact(r.target);
  const id = idOf(r.id, redact);
  if (id !== undefined) row.i = id;
  if (typeof r.reqSeq === 'number') row.r = r.reqSeq;
  if (typeof r.ms === 'number') row.d = r.ms;
  if (typeof r.exchangeMs === 'number') row.xd = r.exchangeMs;
  if (typeof r.retryOf === 'number') row.ro = r.retryOf;
  if (typeof r.taskId === 'string') row.tk = redact(r.taskId);
  if (typeof r.taskOf === 'number') row.to = r.taskOf;
  if (typeof r.taskStatus === 'string') row.ts = r.taskStatus;
  if (typeof r.taskMs === 'number') row.td = r.taskMs;
  const flags = flagsOf(r);
  if (flags) row.x = flags;
  if (typeof r.bytes === 'number') row.b = r.bytes;
  const notes = notesOf(r.notes, redact);
  if (notes) row.n = notes;
  if (r.kind === 'event') {
    if (typeof r.event === 'string') row.e = r.event;
    const v = eventFact(r, redact);
    if (v !== undefined && v !== '') row.v = v;
  }
  const et = answerText(r.kind, r.isError, r.msg);
  if (et !== undefined) row.et = redact(et);
  if (r.kind === 'notification') {
    const q = typeof r.reqSeq === 'number' ? namesOf(r, redact) : undefined;
    if (q !== undefined) row.q = q;
    const v = notificationFact(r, redact);
    if (v !== undefined) row.v = v;
  }
  if (r.kind === 'batch') {
    const msgs = Array.isArray(r.msg) ? (r.msg as unknown[]) : [];
    row.it = (Array.isArray(r.items) ? r.items : []).map((it, i) => itemOf(it, msgs[i], redact));
  }
  return row;
}
