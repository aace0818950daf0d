/**
 * A log record → its LiveRow: envelope facts only, the strings that come from the wire (method, target,
 * id) redacted with the same rules as export. Pure.
 */
import type { LogRecord } from '../log/record.js';
import { authChainText, type AuthLink } from '../log/auth-chain.js';
import { flagsOf } from '../report/rows.js';
import { redactString, type RedactOptions } from '../transcript/redact.js';
import type { LiveRow } from './live-row.js';

const FROM: Record<string, LiveRow['f']> = { client: 'c', server: 's', proxy: 'p' };

/** Redacted copies of the strings rows carry: methods and targets repeat, and the text rules cost. */
const MEMO_MAX = 10_000;
const memos = new WeakMap<RedactOptions, Map<string, string>>();
const defaultMemo = new Map<string, string>();

function redacted(text: string, opts: RedactOptions | undefined): string {
  let memo = opts ? memos.get(opts) : defaultMemo;
  if (!memo) {
    memo = new Map();
    memos.set(opts!, memo);
  }
  let out = memo.get(text);
  if (out === undefined) {
    out = redactString(text, opts);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(text, out);
  }
  return out;
}

/** mcp-tap's own numbers about an event, for the list (nothing from the wire). */
function eventFact(r: LogRecord): string | undefined {
  switch (r.event) {
    case 'exit':
      return typeof r['signal'] === 'string' ? `signal ${r['signal']}` : `code ${String(r['code'])}`;
    case 'gap':
    case 'log-error':
      return `lost ${String(r['lost'])}`;
    case 'kill':
    case 'signal':
      return typeof r['signal'] === 'string' ? r['signal'] : undefined;
    case 'end':
      return typeof r['pendingCount'] === 'number' ? `${r['pendingCount']} unanswered` : undefined;
    case 'auth': {
      // the chain in mcp-tap's words only (steps and statuses); paths and parameters stay in the body
      const chain = Array.isArray(r['chain']) ? (r['chain'] as Array<Record<string, unknown>>) : [];
      const steps = chain.map((l) => ({ step: String(l['step']) as AuthLink['step'], status: typeof l['status'] === 'number' ? l['status'] : 0, path: '', ms: 0 }));
      return `${authChainText(steps, typeof r['omitted'] === 'number' ? r['omitted'] : 0)}${r['ok'] === true ? '' : ' (not accepted)'}`;
    }
    case 'session-id':
      return r['reason'] === 'reconnect' ? 'new session id after the last expired' : 'session id re-issued';
    default:
      return undefined;
  }
}

/** The row of one record. `opts` are export's redaction options (undefined: the default rules). */
export function toLiveRow(r: LogRecord, opts?: RedactOptions): LiveRow {
  const row: LiveRow = { s: r.seq, t: typeof r.time === 'number' ? r.time : 0, f: FROM[r.from] ?? 'p', k: String(r.kind) };
  if (typeof r.method === 'string') row.m = redacted(r.method, opts);
  if (typeof r.target === 'string') row.g = redacted(r.target, opts);
  if (r.id !== undefined) row.i = typeof r.id === 'string' ? JSON.stringify(redactString(r.id, opts)) : JSON.stringify(r.id);
  if (typeof r.reqSeq === 'number') row.r = r.reqSeq;
  if (typeof r.ms === 'number') row.d = r.ms;
  const x = flagsOf(r);
  if (x) row.x = x;
  if (Array.isArray(r.notes) && r.notes.length > 0) row.n = r.notes.map((n) => String(n.code));
  if (r.kind === 'event' && typeof r.event === 'string') {
    row.e = r.event;
    const v = eventFact(r);
    if (v !== undefined) row.v = v;
  }
  if (typeof r.bytes === 'number') row.b = r.bytes;
  if (typeof r.taskId === 'string') row.tk = redacted(r.taskId, opts);
  if (typeof r.taskOf === 'number') row.to = r.taskOf;
  if (typeof r.taskStatus === 'string') row.ts = r.taskStatus;
  if (typeof r.taskMs === 'number') row.td = r.taskMs;
  if (r.kind === 'batch' && Array.isArray(r.items)) row.bm = r.items.map((it) => (typeof it.method === 'string' ? redacted(it.method, opts) : it.kind));
  return row;
}
