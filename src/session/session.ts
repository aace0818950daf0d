/**
 * The analysis of one mcp-tap run: observed lines in, log records out, in order of observation.
 * Pure: no I/O, time is passed in. The proxy's observer feeds it and hands its output to the sink.
 * One JSON.parse per line; the message text is handed over verbatim (msgText) instead of re-serialized.
 */
import { isUtf8 } from 'node:buffer';
import type { Line } from '../framing/line-splitter.js';
import {
  type BatchItem,
  type EventName,
  type From,
  type Kind,
  type LogRecord,
  type Note,
  type PendingRequest,
} from '../log/record.js';
import { classify, type Classified } from '../protocol/classify.js';
import { scanEnvelope } from '../protocol/envelope-scan.js';
import { isObject, isRequestId, metaOf, type RequestId } from '../protocol/jsonrpc.js';
import { batchAllowed, checkMethod, META, targetParam, UNSUPPORTED_PROTOCOL_VERSION } from '../protocol/mcp.js';
import { routingHeaderProblems, type RoutingHeaders } from '../protocol/routing-headers.js';
import { Counts } from './counts.js';
import { Exchanges } from './exchanges.js';
import { notes } from './findings.js';
import { recordLevel } from '../log/level.js';
import { Lifecycle } from './lifecycle.js';
import { RequestTable, type PendingEntry } from './pairing.js';
import { ProgressTable } from './progress.js';
import { readsTaskParams, Tasks, type TaskFields } from './tasks.js';
import { RecordBase, VerbatimOutput, type Output } from './output.js';
import { capForJson, lineText } from './raw-text.js';

export interface SessionOptions {
  /** The session id written on every record. */
  id: string;
  /** The log's size limit per line (`--max-log-bytes`, default 1 MiB): bounds `raw` text too. */
  maxLogBytes?: number;
  /** Pending requests tracked per side before the oldest is evicted (default 10,000). */
  maxPending?: number;
  /** Classify plain messages from their bytes (default true); false: always JSON.parse (tests compare both). */
  fastPath?: boolean;
}

type Side = 'client' | 'server';

/** What the rules annotate: a record, or one element of a batch record (the fields they share). */
type Slot = Omit<BatchItem, 'kind' | 'id'> & TaskFields & { kind: Kind; id?: RequestId | null };

/** A recent line the other side could not read; its (null-id) error answer links back to it. */
interface Unreadable {
  seq: number;
  time: number;
  id?: RequestId;
  linked: boolean;
}

export const DEFAULT_MAX_LOG_BYTES = 1024 * 1024;
const DEFAULT_MAX_PENDING = 10_000;
const MAX_UNREADABLE = 64;
const MAX_EXCHANGES = 1000;
const MAX_END_LIST = 1000;

const other = (s: Side): Side => (s === 'client' ? 'server' : 'client');

/** Milliseconds from `start` to `end`, to the microsecond (times are fractional epoch ms). */
const since = (start: number, end: number): number => Math.round((end - start) * 1000) / 1000;

function addNote(slot: { notes?: Note[] }, note: Note): void {
  if (slot.notes) slot.notes.push(note);
  else slot.notes = [note];
}

/** Could this line be JSON at all? (Skips a doomed JSON.parse on plain text.) */
function mayBeJson(buf: Buffer, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = buf[i]!;
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
    // { [ " - digit t f n
    return c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
  }
  return false;
}

/** Turns observations into records; see docs/log-format.md for what each record carries. */
export class Session {
  private seq = 0;
  private readonly limit: number;
  private readonly tables: Record<Side, RequestTable>;
  /** Progress tokens, by the side that sent the request. */
  private readonly tokens: Record<Side, ProgressTable>;
  private readonly unreadable: Record<Side, Unreadable[]> = { client: [], server: [] };
  private readonly lc = new Lifecycle();
  private readonly exchanges = new Exchanges(MAX_EXCHANGES);
  private readonly tasks: Tasks;
  private readonly overflowNoted: Record<Side, boolean> = { client: false, server: false };
  private lifecycleDue = false;
  private readonly counts = new Counts();
  /** HTTP mode, 2026-07-28: the routing headers of the POST whose body is being analysed. */
  private routing: RoutingHeaders | undefined;

  constructor(
    private readonly opts: SessionOptions,
    private readonly out: (o: Output) => void,
  ) {
    this.limit = opts.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES;
    const cap = opts.maxPending ?? DEFAULT_MAX_PENDING;
    this.tables = { client: new RequestTable(cap), server: new RequestTable(cap) };
    this.tokens = { client: new ProgressTable(cap), server: new ProgressTable(cap) };
    // a task's progress token stays active until the task ends
    this.tasks = new Tasks(cap, (task) => {
      const call = task.call;
      if (call.token !== undefined) this.tokens[task.from].release(call.token, call);
    });
  }

  /**
   * A client message that came with 2026-07-28 routing headers (HTTP mode): its requests are checked
   * against them. The general path reads `_meta`, so the fast path is not taken.
   */
  onRoutedLine(line: Line, time: number, routing: RoutingHeaders): void {
    this.routing = routing;
    try {
      this.onOtherLine('client', line, time);
    } finally {
      this.routing = undefined;
    }
  }

  /** One line of the server's stdout or the client's stdin. */
  onLine(from: 'client' | 'server', line: Line, time: number): void {
    const data = line.data;
    // the common case on its own: a whole line that the fast path classifies from its bytes (it makes
    // the same record the general path below would: analysis members, bytes, then notes)
    if (data !== undefined && line.partial !== true && this.opts.fastPath !== false && data.length > 0) {
      const fast = scanEnvelope(data);
      if (fast !== null && this.fastPathFits(from, fast)) {
        const rec = this.base(from, 'invalid', time);
        this.analyse(from, undefined, rec, time, fast);
        const found = rec.notes;
        if (found !== undefined) delete rec.notes;
        rec.bytes = line.bytes;
        if (found !== undefined) rec.notes = found;
        this.emit(rec, undefined, data);
        this.lifecycleIfDue(time);
        return;
      }
    }
    this.onOtherLine(from, line, time);
  }

  /** The lifecycle event a line's analysis made due (handshake or discovery done), after its record. */
  private lifecycleIfDue(time: number): void {
    if (this.lifecycleDue) {
      this.lifecycleDue = false;
      this.onEvent('lifecycle', { ...this.lc.fields() }, time);
    }
  }

  /** Any other line (JSON.parse): not the fast path's, torn, over-long, with a CR, or not JSON at all. */
  private onOtherLine(from: Side, line: Line, time: number): void {
    const rec = this.base(from, 'invalid', time);
    let msgText: string | undefined;
    let msgBytes: Buffer | undefined;
    let value: unknown;
    let parsed = false;
    let raw: string | undefined;
    let truncated = false;
    let lineNote: Note | undefined;
    const data = line.data;
    if (data !== undefined) {
      let end = data.length;
      if (end > 0 && data[end - 1] === 0x0d) end--;
      // verbatim only when the bytes are UTF-8 and hold no CR: JSON allows CR as whitespace, but many
      // line readers split on it, so such a message is re-serialized instead
      const utf8 = isUtf8(data);
      const verbatim = utf8 && data.lastIndexOf(0x0d, end - 1) === -1;
      const text = end === 0 ? '' : data.toString('utf8', 0, end);
      if (mayBeJson(data, end)) {
        try {
          value = JSON.parse(text);
          parsed = true;
        } catch {
          // not JSON
        }
      }
      if (parsed) {
        this.analyse(from, value, rec, time);
        if (verbatim) {
          msgText = text;
          msgBytes = data.subarray(0, end);
        } else if (!utf8) lineNote = notes.invalidUtf8(); // msg re-serialized from the parsed value
      } else {
        lineNote = notes.notJson(from, end === 0);
        raw = text;
      }
    } else {
      truncated = true;
      if (typeof line.shortened === 'string') {
        try {
          value = JSON.parse(line.shortened);
          parsed = true;
        } catch {
          // the shortener's output should always parse; treat the line as not JSON if it does not
        }
      }
      if (parsed) {
        this.analyse(from, value, rec, time);
      } else {
        lineNote = notes.notJson(from, false);
        raw = line.head ? lineText(line.head) : '';
      }
    }
    if (raw !== undefined) {
      rec.kind = 'invalid';
      this.rememberUnreadable(from, rec.seq, time, undefined);
    }
    // Line facts and notes go after what the analysis set, so every record reads in the same order.
    const found = rec.notes;
    if (found !== undefined) delete rec.notes;
    rec.bytes = line.bytes;
    if (raw !== undefined) {
      const capped = capForJson(raw, 2 * this.limit);
      raw = capped.text;
      if (capped.cut) truncated = true;
    }
    if (truncated) rec.truncated = true;
    if (line.partial) rec.partial = true;
    let all = found;
    if (lineNote) (all ??= []).push(lineNote);
    if (line.data === undefined) (all ??= []).push(notes.truncated(line.bytes, this.limit));
    if (line.partial) (all ??= []).push(notes.partialLine(from));
    if (all !== undefined) rec.notes = all;
    if (raw !== undefined) rec.raw = raw;
    else if (parsed && msgBytes === undefined) rec.msg = value;
    this.emit(rec, msgText, msgBytes);
    this.lifecycleIfDue(time);
  }

  /** One line of the server's stderr. */
  onStderr(line: Line, time: number): void {
    const rec = this.base('server', 'stderr', time);
    rec.bytes = line.bytes;
    const buf = line.data ?? line.head;
    const capped = capForJson(buf ? lineText(buf) : '', 2 * this.limit);
    rec.raw = capped.text;
    if (line.head || capped.cut) rec.truncated = true;
    if (line.partial) rec.partial = true;
    this.emit(rec);
  }

  /** One of mcp-tap's own events. */
  onEvent(event: EventName, fields: Record<string, unknown>, time: number): void {
    const rec = this.base('proxy', 'event', time);
    rec.event = event;
    Object.assign(rec, fields);
    this.emit(rec);
  }

  /** Last record of the session: the requests still unanswered, and counts. */
  finish(time: number, fields: Record<string, unknown> = {}): void {
    const pending: PendingRequest[] = [];
    const cancelled: PendingRequest[] = [];
    for (const side of ['client', 'server'] as const) {
      for (const e of this.tables[side].list()) {
        (e.cancelled ? cancelled : pending).push({ from: side, id: e.id, method: e.method, seq: e.seq });
      }
    }
    pending.sort((a, b) => a.seq - b.seq);
    cancelled.sort((a, b) => a.seq - b.seq);
    const end: Record<string, unknown> = {
      pending: pending.length > MAX_END_LIST ? pending.slice(0, MAX_END_LIST) : pending,
      pendingCount: pending.length,
    };
    if (cancelled.length > 0) end['cancelledPending'] = cancelled.length > MAX_END_LIST ? cancelled.slice(0, MAX_END_LIST) : cancelled;
    const open = this.tasks.openTasks(MAX_END_LIST);
    if (open.count > 0) {
      end['openTasks'] = open.list;
      end['openTaskCount'] = open.count;
    }
    end['counts'] = { ...this.counts };
    const evC = this.tables.client.evicted;
    const evS = this.tables.server.evicted;
    if (evC + evS > 0) end['evicted'] = { client: evC, server: evS };
    if (this.tasks.evicted > 0) end['tasksEvicted'] = this.tasks.evicted;
    this.onEvent('end', { ...end, ...fields }, time);
  }

  private base(from: From, kind: Kind, time: number): LogRecord {
    return new RecordBase(time, this.opts.id, ++this.seq, from, kind) as LogRecord;
  }

  private emit(rec: LogRecord, msgText?: string, msgBytes?: Buffer): void {
    // last, so that every record reads in the same order whatever the analysis added
    rec.level = recordLevel(rec);
    this.counts.add(rec.kind);
    if (rec.notes) this.counts.notes += rec.notes.length;
    this.out(msgBytes === undefined ? { record: rec } : new VerbatimOutput(rec, msgBytes, msgText));
  }

  /**
   * A parsed line (one message or a batch), or one the fast path already classified. Analysis bugs never
   * cost the record.
   */
  private analyse(from: Side, value: unknown, rec: LogRecord, time: number, fast?: Classified): void {
    try {
      if (fast !== undefined) this.classified(from, fast, rec, rec.seq, time);
      else if (Array.isArray(value)) this.batch(from, value, rec, time);
      else this.message(from, value, rec, rec.seq, time);
    } catch (err) {
      addNote(rec, notes.analysisError(err));
    }
  }

  private batch(from: Side, arr: unknown[], rec: LogRecord, time: number): void {
    if (arr.length === 0) {
      rec.kind = 'invalid';
      addNote(rec, notes.emptyBatch());
      this.rememberUnreadable(from, rec.seq, time, undefined);
      return;
    }
    rec.kind = 'batch';
    const version = this.lc.version;
    const items: BatchItem[] = new Array<BatchItem>(arr.length);
    let hasInitialize = false;
    for (let i = 0; i < arr.length; i++) {
      const item: Slot = { kind: 'invalid' };
      this.message(from, arr[i], item, rec.seq, time);
      if (item.kind === 'request' && item.method === 'initialize') hasInitialize = true;
      items[i] = item as BatchItem;
    }
    if (hasInitialize) addNote(rec, notes.batchNotAllowed(version, true));
    else if (version !== undefined && !batchAllowed(version)) addNote(rec, notes.batchNotAllowed(version, false));
    for (let i = 0; i < items.length; i++) {
      const n = items[i]!.notes;
      if (n) for (const x of n) addNote(rec, { code: x.code, text: `element ${i + 1}: ${x.text}` });
    }
    rec.items = items;
  }

  /** One message (a line, or a batch element) → kind, pairing, lifecycle, findings, written into `t`. */
  private message(from: Side, value: unknown, t: Slot, seq: number, time: number): void {
    this.classified(from, classify(value), t, seq, time);
  }

  /**
   * The fast path's envelope is enough unless the answer completes a request whose result the lifecycle
   * reads whole (initialize, server/discover).
   */
  private fastPathFits(from: Side, c: Classified): boolean {
    if (c.kind !== 'response') return c.method === undefined || !readsTaskParams(c.method);
    const e = this.tables[other(from)].peek(c.id!);
    if (e === undefined) return true;
    const m = e.method;
    return m !== 'initialize' && m !== 'server/discover' && e.task === undefined;
  }

  private classified(from: Side, c: Classified, t: Slot, seq: number, time: number): void {
    switch (c.kind) {
      case 'request':
        this.request(from, c, t, seq, time);
        break;
      case 'notification':
        this.notification(from, c, t, time);
        break;
      case 'response':
      case 'error':
        this.answer(from, c, t, seq, time);
        break;
      case 'invalid':
        t.kind = 'invalid';
        if (c.id !== undefined) t.id = c.id;
        if (c.method !== undefined) t.method = c.method;
        addNote(t, notes.notJsonRpc(c.defect ?? 'unrecognised message'));
        if (c.shape === 'answer' && c.id !== undefined && this.tables[other(from)].pendingFirst(c.id)) {
          this.answer(from, c, t, seq, time);
        } else {
          this.rememberUnreadable(from, seq, time, c.id);
        }
        return;
    }
    if (c.defect !== undefined) addNote(t, notes.notJsonRpc(c.defect));
  }

  private request(from: Side, c: Classified, t: Slot, seq: number, time: number): void {
    const method = c.method!;
    const params = c.params;
    t.kind = 'request';
    t.id = c.id ?? null;
    t.method = method;
    const tp = targetParam(method);
    if (tp !== undefined && isObject(params)) {
      const v = params[tp];
      if (typeof v === 'string') t.target = v;
    }
    const lc = this.lc;
    const meta = metaOf(params);
    let version: string | undefined;
    if (from === 'client') {
      if (method === 'initialize') lc.onInitialize(params);
      else if (meta !== undefined && lc.era !== 'handshake') {
        const mv = meta[META.protocolVersion];
        if (typeof mv === 'string') {
          version = mv;
          if (lc.onMetaRequest(mv, meta, method)) this.lifecycleDue = true;
          const sv = lc.supportedVersions;
          if (sv !== undefined && !sv.includes(mv)) {
            addNote(
              t,
              notes.versionNotOffered(
                `the request uses protocol version ${JSON.stringify(mv)}, which the server did not offer (it supports ${sv.map((x) => JSON.stringify(x)).join(', ') || 'none'})`,
              ),
            );
          }
        }
      }
      if (version === undefined && method !== 'initialize') {
        if (lc.era === 'stateless') addNote(t, notes.missingProtocolVersion());
        else if ((lc.phase === 'none' || lc.phase === 'initializing') && method !== 'ping' && method !== 'server/discover') {
          addNote(t, notes.beforeInitializeClient(method));
        }
      }
    } else if (lc.era !== 'stateless' && lc.phase !== 'ready' && method !== 'ping') {
      addNote(t, notes.beforeInitializeServer(method));
    }
    const problem = checkMethod(version ?? lc.version, from, true, method);
    if (problem) addNote(t, problem);
    if (this.routing !== undefined && from === 'client') {
      const mv = meta?.[META.protocolVersion];
      const wrong = routingHeaderProblems(this.routing, { method, name: t.target, protocolVersion: typeof mv === 'string' ? mv : undefined });
      if (wrong.length > 0) addNote(t, notes.headerMismatch(wrong));
    }

    if (c.id === undefined) {
      addNote(t, notes.nullIdRequest());
      this.rememberUnreadable(from, seq, time, undefined);
      return;
    }
    const id = c.id;
    const table = this.tables[from];
    const last = table.pendingLast(id);
    if (last) addNote(t, notes.idReusedPending(id, last.seq));
    else if (lc.era !== 'stateless') {
      const prev = table.recent(id);
      if (prev && prev.answerSeq !== undefined && prev.method !== 'server/discover') addNote(t, notes.idReusedSession(id, prev.seq));
    }
    const entry: PendingEntry = { id, method, seq, time };
    if (t.target !== undefined) entry.target = t.target;
    if (meta !== undefined) {
      const tok = meta['progressToken'];
      if (isRequestId(tok)) {
        entry.token = tok;
        const prev = this.tokens[from].register(tok, entry);
        if (prev) addNote(t, notes.progressTokenReused(tok, prev.seq));
      }
    }
    if (from === 'client' && isObject(params) && (params['inputResponses'] !== undefined || params['requestState'] !== undefined)) {
      const rs = params['requestState'];
      const ex = this.exchanges.match(method, t.target, typeof rs === 'string' ? rs : undefined);
      if (ex) {
        t.retryOf = ex.firstSeq;
        entry.exchange = ex;
      }
    }
    this.tasks.onRequest(from, method, params, t, entry);
    const evicted = table.add(entry);
    if (evicted && !this.overflowNoted[from]) {
      this.overflowNoted[from] = true;
      addNote(t, notes.pendingOverflow(from, table.size, evicted.seq));
    }
  }

  private notification(from: Side, c: Classified, t: Slot, time: number): void {
    const method = c.method!;
    t.kind = 'notification';
    t.method = method;
    const problem = checkMethod(this.lc.version, from, false, method);
    if (problem) addNote(t, problem);
    this.tasks.onNotification(from, method, c.params, t, time);
    switch (method) {
      case 'notifications/initialized':
        if (from === 'client') this.lc.onInitialized();
        break;
      case 'notifications/cancelled':
        this.cancel(from, c.params, t, time);
        break;
      case 'notifications/progress':
        this.progress(from, c.params, t, time);
        break;
    }
  }

  /** notifications/cancelled from `from` refers to a request `from` sent (2026-07-28: the server may end a client's subscriptions/listen). */
  private cancel(from: Side, params: unknown, t: Slot, time: number): void {
    if (!isObject(params)) return;
    const rid = params['requestId'];
    if (!isRequestId(rid)) return;
    const table = this.tables[from];
    let e = table.pendingFirst(rid);
    if (e) e.cancelled = true;
    else e = table.recent(rid); // answered already: the cancel raced the answer (legitimate)
    if (!e && from === 'server') {
      const sub = this.tables.client.pendingFirst(rid);
      if (sub?.method === 'subscriptions/listen') e = sub;
    }
    if (!e) {
      addNote(t, notes.cancelUnknownId(rid, from));
      return;
    }
    t.reqSeq = e.seq;
    t.ms = since(e.time, time);
    if (e.method === 'initialize') addNote(t, notes.cancelInitialize());
  }

  /** notifications/progress from `from` refers to a token of a request the other side sent. */
  private progress(from: Side, params: unknown, t: Slot, time: number): void {
    if (!isObject(params)) return;
    const tok = params['progressToken'];
    if (!isRequestId(tok)) return;
    const link = this.tokens[other(from)].get(tok);
    if (!link) {
      addNote(t, notes.progressUnknownToken(tok));
      return;
    }
    t.reqSeq = link.entry.seq;
    t.ms = since(link.entry.time, time);
    const p = params['progress'];
    if (typeof p === 'number') {
      if (link.last !== undefined && !(p > link.last)) addNote(t, notes.progressNotIncreasing(p, link.last));
      link.last = p;
    }
  }

  private answer(from: Side, c: Classified, t: Slot, seq: number, time: number): void {
    if (c.kind !== 'invalid') t.kind = c.kind;
    if (c.id !== undefined) t.id = c.id;
    else if (c.hasId) t.id = null; // id null; an error may also omit it (2025-11-25)
    if (c.both) addNote(t, notes.resultAndError());
    if (c.id === undefined) {
      // An error with id null answers a request the peer could not read: legitimate, linked when possible.
      if (c.error !== undefined) this.linkUnreadable(other(from), t, time, undefined);
      else addNote(t, notes.unknownId(c.hasId ? null : undefined, from));
      return;
    }
    const m = this.tables[other(from)].take(c.id, seq);
    switch (m.status) {
      case 'pending':
      case 'evicted':
        this.pair(from, c, t, m.entry, time);
        return;
      case 'answered':
        t.method = m.entry.method;
        if (m.entry.target !== undefined) t.target = m.entry.target;
        t.reqSeq = m.entry.seq;
        addNote(t, notes.duplicateAnswer(c.id, m.entry.seq, m.entry.answerSeq ?? m.entry.seq));
        return;
      case 'unknown':
        if (!this.linkUnreadable(other(from), t, time, c.id)) addNote(t, notes.unknownId(c.id, from));
        return;
    }
  }

  private pair(from: Side, c: Classified, t: Slot, e: PendingEntry, time: number): void {
    t.method = e.method;
    if (e.target !== undefined) t.target = e.target;
    t.reqSeq = e.seq;
    t.ms = since(e.time, time);
    if (e.cancelled) t.cancelled = true;
    const result = c.result;
    const ok = c.kind === 'response' && isObject(result);
    const taskCreated = this.tasks.onAnswer(from, ok, result, t, e, time);
    if (e.token !== undefined && !taskCreated) this.tokens[other(from)].release(e.token, e);
    if (ok) {
      if (e.method === 'tools/call' && result['isError'] === true) t.isError = true;
      if (e.method === 'initialize' && from === 'server') {
        this.lc.onInitializeResult(result);
        this.lifecycleDue = true;
      } else if (e.method === 'server/discover' && from === 'server') {
        if (this.lc.onDiscoverResult(result)) this.lifecycleDue = true;
      }
      if (result['resultType'] === 'input_required') {
        t.inputRequired = true;
        const rs = result['requestState'];
        const ex = e.exchange ?? { firstSeq: e.seq, firstTime: e.time, method: e.method };
        if (e.exchange === undefined && e.target !== undefined) ex.target = e.target;
        if (typeof rs === 'string') ex.requestState = rs;
        else delete ex.requestState;
        this.exchanges.add(ex);
      } else if (e.exchange) {
        t.exchangeMs = since(e.exchange.firstTime, time);
      }
    } else {
      if (e.exchange) t.exchangeMs = since(e.exchange.firstTime, time);
      const err = c.error;
      if (isObject(err) && err['code'] === UNSUPPORTED_PROTOCOL_VERSION) this.lc.onUnsupportedVersion(err['data']);
    }
  }

  /** Remembers a line the other side could not read (its error answer may have id null). */
  private rememberUnreadable(from: Side, seq: number, time: number, id: RequestId | undefined): void {
    const list = this.unreadable[from];
    const u: Unreadable = { seq, time, linked: false };
    if (id !== undefined) u.id = id;
    list.push(u);
    if (list.length > MAX_UNREADABLE) list.shift();
  }

  /** Links an answer to an unreadable line of `side`: by id, or (id null) the oldest one not yet answered. */
  private linkUnreadable(side: Side, t: Slot, time: number, id: RequestId | undefined): boolean {
    const list = this.unreadable[side];
    for (const u of list) {
      if (u.linked || (id !== undefined && u.id !== id)) continue;
      u.linked = true;
      t.reqSeq = u.seq;
      t.ms = since(u.time, time);
      return true;
    }
    return false;
  }
}
