/**
 * A recorded session as replay and mock need it: the JSON-RPC messages of both sides in the order they
 * were observed (batch elements flattened), each answer linked to the request it answers through the
 * log's own `reqSeq` pairing, plus what the session's events say about the server. Read from a log file
 * (src/replay/load.ts), a message keeps only its index entry and where its record lies in the file; its
 * parsed message is read again from there when asked for (src/replay/record-file.ts), so memory does not
 * grow with what the session's messages hold.
 */
import type { JsonRpcId, LogRecord } from '../log/record.js';
import { isObject } from '../protocol/jsonrpc.js';
import { targetParam } from '../protocol/mcp.js';
import { canonicalJson } from '../text/canonical-json.js';
import type { RecordFile } from './record-file.js';

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
  /** Requests read from a file: paramsHash() of their params without `_meta` (exact matches are looked for among these). */
  paramsHash?: number;
}

/** A signed 32-bit hash (FNV-1a) of a JSON value that is the same for deep-equal values (the converse does not hold). */
export function paramsHash(v: unknown): number {
  const text = canonicalJson(v);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** params without `_meta`, as requests are matched. */
export function bareParams(params: unknown): unknown {
  if (!isObject(params) || !('_meta' in params)) return params;
  const { _meta: _m, ...rest } = params;
  void _m;
  return rest;
}

const KINDS: readonly MsgKind[] = ['request', 'response', 'error', 'notification', 'invalid'];

/**
 * A message of a session read from a log file: the index entry, and where its record lies in the file.
 * `msg` and `raw` are read from there when asked for (a small cache keeps the latest records), and so are
 * `time` and `bytes`, which replay and mock rarely need. Side, kind, truncated and index share one number:
 * the entry is ~100 bytes whatever the message holds.
 */
class StoredMsg {
  declare batchSize?: number;
  declare id?: JsonRpcId;
  declare method?: string;
  declare target?: string;
  declare reqSeq?: number;
  declare ms?: number;
  declare paramsHash?: number;
  /** index × 64 + kind × 4 + truncated × 2 + (from server). */
  private readonly bits: number;

  constructor(
    readonly seq: number,
    index: number,
    from: Side,
    kind: MsgKind,
    truncated: boolean,
    private readonly file: RecordFile,
    /** Byte offset of the record's line. */
    private readonly start: number,
    /** Bytes of the line (with its line end). */
    private readonly length: number,
  ) {
    this.bits = index * 64 + KINDS.indexOf(kind) * 4 + (truncated ? 2 : 0) + (from === 'server' ? 1 : 0);
  }

  get index(): number {
    return Math.floor(this.bits / 64);
  }

  get kind(): MsgKind {
    return KINDS[Math.floor((this.bits % 64) / 4)]!;
  }

  get truncated(): boolean {
    return (this.bits & 2) !== 0;
  }

  get from(): Side {
    return (this.bits & 1) !== 0 ? 'server' : 'client';
  }

  private record(): LogRecord {
    return this.file.record(this.seq, this.start, this.length);
  }

  get time(): number {
    const t = this.record().time;
    return typeof t === 'number' ? t : 0;
  }

  get bytes(): number | undefined {
    const b = this.record().bytes;
    return typeof b === 'number' ? b : undefined;
  }

  get msg(): unknown {
    const r = this.record();
    if (this.batchSize !== undefined) return Array.isArray(r.msg) ? r.msg[this.index] : undefined;
    return r.msg;
  }

  get raw(): string | undefined {
    if (this.batchSize !== undefined) return undefined;
    const r = this.record();
    return typeof r.raw === 'string' ? r.raw : undefined;
  }
}

/** Where a record read from a log file lies in it, for messages that read their body again when asked. */
export interface RecordPlace {
  file: RecordFile;
  start: number;
  length: number;
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

/** Index of the first message with this seq in `ms` (sorted by seq, as a session's messages are), or -1. */
export function indexOfSeq(ms: readonly RecMsg[], seq: number): number {
  let lo = 0;
  let hi = ms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ms[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo < ms.length && ms[lo]!.seq === seq ? lo : -1;
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

/** Strings that recur in every message (methods, tool names) are kept once. */
type Interner = (s: string) => string;

/** The index entry of a message whose record lies at `place` (its body is not kept). */
function stored(r: LogRecord, index: number, kind: MsgKind, place: RecordPlace): RecMsg {
  const from = r.from as Side;
  return new StoredMsg(r.seq, index, from, kind, r.truncated === true, place.file, place.start, place.length);
}

/** The same message as fromRecord's, without its body: what a session read from a file keeps. */
function indexed(m: RecMsg, place: RecordPlace, r: LogRecord, intern: Interner): RecMsg {
  const s = stored(r, m.index, m.kind, place);
  if (m.batchSize !== undefined) s.batchSize = m.batchSize;
  if (m.id !== undefined) s.id = typeof m.id === 'string' ? intern(m.id) : m.id;
  if (m.method !== undefined) s.method = intern(m.method);
  if (m.target !== undefined) s.target = intern(m.target);
  if (m.reqSeq !== undefined) s.reqSeq = m.reqSeq;
  if (m.ms !== undefined) s.ms = m.ms;
  if (m.kind === 'request') s.paramsHash = paramsHash(bareParams(paramsOf(m.msg)));
  return s;
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
  const b = new SessionBuilder();
  for (const r of records) b.add(r);
  return b.finish();
}

/**
 * buildSession one record at a time. A record added with its place in the log file is kept only as the
 * index entries of its messages (their bodies are read again from the file when asked for); one added
 * without keeps its parsed messages.
 */
export class SessionBuilder {
  private readonly messages: RecMsg[] = [];
  private readonly server: RecordedServer = {};
  private id = '';
  private readonly strings = new Map<string, string>();
  private readonly intern: Interner = (s) => {
    if (s.length > 200) return s;
    const had = this.strings.get(s);
    if (had !== undefined) return had;
    if (this.strings.size < 10_000) this.strings.set(s, s);
    return s;
  };

  add(r: LogRecord, place?: RecordPlace): void {
    if (this.id === '') this.id = r.session;
    if (r.kind === 'event' && r.event === 'start') {
      const server = this.server;
      if (typeof r['name'] === 'string') server.name = r['name'];
      if (typeof r['command'] === 'string') server.command = r['command'];
      if (Array.isArray(r['args'])) server.args = (r['args'] as unknown[]).map(String);
      if (typeof r['maxLogBytes'] === 'number') server.maxLogBytes = r['maxLogBytes'];
      return;
    }
    for (const m of fromRecord(r)) this.messages.push(place ? indexed(m, place, r, this.intern) : m);
  }

  finish(): RecordedSession {
    this.strings.clear();
    return link(this.id, this.messages, this.server);
  }
}

function link(id: string, messages: RecMsg[], server: RecordedServer): RecordedSession {
  messages.sort((a, b) => a.seq - b.seq || a.index - b.index);

  // requests by seq (a record holds one message), by seq and id for batch elements
  const single = new Map<number, RecMsg>();
  const inBatch = new Map<string, RecMsg>();
  const requestAt = (seq: number, id: unknown): RecMsg | undefined => {
    const r = single.get(seq);
    if (r !== undefined) return idKey(r.id) === idKey(id) ? r : undefined;
    return inBatch.get(reqKey(seq, id));
  };
  const answers = new Map<RecMsg, RecMsg>();
  // fallback pairing, per side of the request: id → requests still open, oldest first
  const open = { client: new Map<string, RecMsg[]>(), server: new Map<string, RecMsg[]>() };
  for (const m of messages) {
    if (m.kind === 'request' && m.id !== undefined && m.id !== null) {
      if (m.batchSize === undefined) single.set(m.seq, m);
      else inBatch.set(reqKey(m.seq, m.id), m);
      const q = open[m.from].get(idKey(m.id)) ?? [];
      q.push(m);
      open[m.from].set(idKey(m.id), q);
      continue;
    }
    if (!isAnswer(m.kind) || m.id === undefined || m.id === null) continue;
    const other: Side = m.from === 'client' ? 'server' : 'client';
    let req = m.reqSeq !== undefined ? requestAt(m.reqSeq, m.id) : undefined;
    if (req === undefined && m.reqSeq === undefined) req = open[other].get(idKey(m.id))?.[0];
    if (req === undefined || req.from !== other || answers.has(req)) continue;
    answers.set(req, m);
    const q = open[other].get(idKey(m.id));
    if (q) {
      const at = q.indexOf(req);
      if (at >= 0) q.splice(at, 1);
      if (q.length === 0) open[other].delete(idKey(m.id));
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
