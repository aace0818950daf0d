/**
 * A recorded session as replay and mock need it: the JSON-RPC messages of both sides in the order they
 * were observed (batch elements flattened), each answer linked to the request it answers through the
 * log's own `reqSeq` pairing, plus what the session's events say about the server.
 */
import type { JsonRpcId, LogRecord } from '../log/record.js';
import { isObject } from '../protocol/jsonrpc.js';
import { targetParam } from '../protocol/mcp.js';

export type Side = 'client' | 'server';
export type MsgKind = 'request' | 'response' | 'error' | 'notification' | 'invalid';

/** One recorded JSON-RPC message (a batch contributes one per element). */
export interface RecMsg {
  /** seq of the record that holds it (the batch record for batch elements). */
  seq: number;
  /** Position inside the batch; 0 for a single message. */
  index: number;
  /** Number of elements when the message was part of a batch. */
  batchSize?: number;
  from: Side;
  kind: MsgKind;
  id?: JsonRpcId;
  method?: string;
  /** tools/call and prompts/get: the name; resources/read: the uri. */
  target?: string;
  /** Answers (and linked progress notifications): seq of the request. */
  reqSeq?: number;
  /** Answers: recorded latency. */
  ms?: number;
  time: number;
  /** The parsed message (for batch elements: the element). */
  msg?: unknown;
  /** A line that was not JSON. */
  raw?: string;
  /** The log holds a shortened copy of this message (or of the batch it belongs to). */
  truncated: boolean;
  /** Size on the wire of the line that carried it. */
  bytes?: number;
}

/** What the session's start event says about the server that was recorded. */
export interface RecordedServer {
  name?: string;
  command?: string;
  args?: string[];
  maxLogBytes?: number;
}

export interface RecordedSession {
  id: string;
  messages: RecMsg[];
  server: RecordedServer;
  /** The recorded answer to a request, if the log paired one. */
  answerOf(req: RecMsg): RecMsg | undefined;
  /** Requests cancelled (notifications/cancelled) in the recording. */
  cancelled: ReadonlySet<RecMsg>;
  /** The request a recorded notifications/cancelled refers to. */
  cancelTarget(notification: RecMsg): RecMsg | undefined;
}

/** Map key for an id that keeps its type: `1` and `"1"` differ. */
export function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

/** Map key for a recorded request: its record seq and its id. */
export function reqKey(seq: number, id: unknown): string {
  return `${seq}|${idKey(id)}`;
}

const isAnswer = (k: MsgKind): boolean => k === 'response' || k === 'error';

/** The kind of a parsed element when the record does not say (batch elements of older logs). */
function kindOf(m: unknown): MsgKind {
  if (!isObject(m)) return 'invalid';
  const hasId = 'id' in m && m['id'] !== undefined;
  if (typeof m['method'] === 'string') return hasId ? 'request' : 'notification';
  if ('error' in m && hasId) return 'error';
  if ('result' in m && hasId) return 'response';
  return 'invalid';
}

/** The target of a request (tool or prompt name, resource uri) from its params. */
export function targetOf(method: string | undefined, params: unknown): string | undefined {
  if (method === undefined) return undefined;
  const p = targetParam(method);
  if (p === undefined || !isObject(params)) return undefined;
  const t = params[p];
  return typeof t === 'string' ? t : undefined;
}

/** `params` of a parsed message, if any. */
export function paramsOf(msg: unknown): unknown {
  return isObject(msg) ? msg['params'] : undefined;
}

function fromRecord(r: LogRecord): RecMsg[] {
  if (r.from !== 'client' && r.from !== 'server') return [];
  const base = { seq: r.seq, from: r.from, time: typeof r.time === 'number' ? r.time : 0, truncated: r.truncated === true } as const;
  const bytes = typeof r.bytes === 'number' ? { bytes: r.bytes } : {};
  if (r.kind === 'batch') {
    const elements: unknown[] | undefined = Array.isArray(r.msg) ? r.msg : undefined;
    if (!elements) return [];
    const items = Array.isArray(r.items) ? r.items : [];
    return elements.map((el, index): RecMsg => {
      const it = items[index];
      const kind = (it?.kind as MsgKind | undefined) ?? kindOf(el);
      const o = isObject(el) ? el : {};
      const method = it?.method ?? (typeof o['method'] === 'string' ? o['method'] : undefined);
      const m: RecMsg = { ...base, ...bytes, index, batchSize: elements.length, kind, msg: el };
      if ('id' in o) m.id = o['id'] as JsonRpcId;
      if (method !== undefined) m.method = method;
      const target = it?.target ?? targetOf(method, o['params']);
      if (target !== undefined) m.target = target;
      if (typeof it?.reqSeq === 'number') m.reqSeq = it.reqSeq;
      if (typeof it?.ms === 'number') m.ms = it.ms;
      return m;
    });
  }
  if (r.kind !== 'request' && r.kind !== 'response' && r.kind !== 'error' && r.kind !== 'notification' && r.kind !== 'invalid') return [];
  const m: RecMsg = { ...base, ...bytes, index: 0, kind: r.kind };
  if (r.msg !== undefined) m.msg = r.msg;
  if (typeof r.raw === 'string') m.raw = r.raw;
  if (r.id !== undefined) m.id = r.id;
  else if (isObject(r.msg) && 'id' in r.msg) m.id = r.msg['id'] as JsonRpcId;
  const method = typeof r.method === 'string' ? r.method : isObject(r.msg) && typeof r.msg['method'] === 'string' ? r.msg['method'] : undefined;
  if (method !== undefined) m.method = method;
  const target = typeof r.target === 'string' ? r.target : targetOf(method, paramsOf(r.msg));
  if (target !== undefined) m.target = target;
  if (typeof r.reqSeq === 'number') m.reqSeq = r.reqSeq;
  if (typeof r.ms === 'number') m.ms = r.ms;
  return [m];
}

/**
 * Builds the model from the records of ONE session, in file order. Answers are linked by the log's
 * `reqSeq`; an answer without one (a log written before pairing existed) is linked to the oldest
 * unanswered request of the other side with the same id.
 */
export function buildSession(records: readonly LogRecord[]): RecordedSession {
  const messages: RecMsg[] = [];
  const server: RecordedServer = {};
  let id = '';
  for (const r of records) {
    if (id === '') id = r.session;
    if (r.kind === 'event' && r.event === 'start') {
      if (typeof r['name'] === 'string') server.name = r['name'];
      if (typeof r['command'] === 'string') server.command = r['command'];
      if (Array.isArray(r['args'])) server.args = (r['args'] as unknown[]).map(String);
      if (typeof r['maxLogBytes'] === 'number') server.maxLogBytes = r['maxLogBytes'];
      continue;
    }
    messages.push(...fromRecord(r));
  }
  messages.sort((a, b) => a.seq - b.seq || a.index - b.index);

  const requests = new Map<string, RecMsg>();
  const answers = new Map<RecMsg, RecMsg>();
  // fallback pairing, per side of the request: id → requests still open, oldest first
  const open = { client: new Map<string, RecMsg[]>(), server: new Map<string, RecMsg[]>() };
  for (const m of messages) {
    if (m.kind === 'request' && m.id !== undefined && m.id !== null) {
      requests.set(reqKey(m.seq, m.id), m);
      const q = open[m.from].get(idKey(m.id)) ?? [];
      q.push(m);
      open[m.from].set(idKey(m.id), q);
      continue;
    }
    if (!isAnswer(m.kind) || m.id === undefined || m.id === null) continue;
    const other: Side = m.from === 'client' ? 'server' : 'client';
    let req = m.reqSeq !== undefined ? requests.get(reqKey(m.reqSeq, m.id)) : undefined;
    if (req === undefined && m.reqSeq === undefined) req = open[other].get(idKey(m.id))?.[0];
    if (req === undefined || req.from !== other || answers.has(req)) continue;
    answers.set(req, m);
    const q = open[other].get(idKey(m.id));
    if (q) {
      const at = q.indexOf(req);
      if (at >= 0) q.splice(at, 1);
    }
  }

  // a cancel refers to the newest request of its side with that id still unanswered when it was sent
  const cancelTargets = new Map<RecMsg, RecMsg>();
  for (let at = 0; at < messages.length; at++) {
    const m = messages[at]!;
    if (m.kind !== 'notification' || m.method !== 'notifications/cancelled') continue;
    const p = paramsOf(m.msg);
    if (!isObject(p) || p['requestId'] === undefined) continue;
    const k = idKey(p['requestId']);
    let fallback: RecMsg | undefined;
    for (let i = at - 1; i >= 0; i--) {
      const q = messages[i]!;
      if (q.kind !== 'request' || q.from !== m.from || idKey(q.id) !== k) continue;
      const a = answers.get(q);
      if (a === undefined || a.seq > m.seq) {
        cancelTargets.set(m, q);
        fallback = undefined;
        break;
      }
      fallback ??= q;
    }
    if (fallback && !cancelTargets.has(m)) cancelTargets.set(m, fallback);
  }
  const cancelled = new Set(cancelTargets.values());

  return {
    id,
    messages,
    server,
    answerOf: (req) => answers.get(req),
    cancelled,
    cancelTarget: (n) => cancelTargets.get(n),
  };
}
