/**
 * The rules of one message of a session: its kind, the request it answers, its lifecycle and its
 * findings, written into the record (or batch element) it makes. The pairing tables, progress tokens,
 * lifecycle, multi-round exchanges and tasks of the session live here; `Session` turns lines into
 * records around it. Pure: time is passed in.
 */
import { classify, type Classified } from '../protocol/classify.js';
import { isObject, isRequestId, metaOf, type RequestId } from '../protocol/jsonrpc.js';
import { checkMethod, META, targetParam, UNSUPPORTED_PROTOCOL_VERSION } from '../protocol/mcp.js';
import { routingHeaderProblems, type RoutingHeaders } from '../protocol/routing-headers.js';
import type { BatchItem, Kind, Note } from '../log/record.js';
import { Exchanges } from './exchanges.js';
import { notes } from './findings.js';
import { Lifecycle } from './lifecycle.js';
import { RequestTable, type PendingEntry } from './pairing.js';
import { ProgressTable } from './progress.js';
import { readsTaskParams, Tasks, type TaskFields } from './tasks.js';

export type Side = 'client' | 'server';

/** What the rules annotate: a record, or one element of a batch record (the fields they share). */
export type Slot = Omit<BatchItem, 'kind' | 'id'> & TaskFields & { kind: Kind; id?: RequestId | null };

/** A recent line the other side could not read; its (null-id) error answer links back to it. */
interface Unreadable {
  seq: number;
  time: number;
  id?: RequestId;
  linked: boolean;
}

const MAX_UNREADABLE = 64;
const MAX_EXCHANGES = 1000;

const other = (s: Side): Side => (s === 'client' ? 'server' : 'client');

/** Milliseconds from `start` to `end`, to the microsecond (times are fractional epoch ms). */
const since = (start: number, end: number): number => Math.round((end - start) * 1000) / 1000;

/** Adds a note to a record or batch element. */
export function addNote(slot: { notes?: Note[] }, note: Note): void {
  if (slot.notes) slot.notes.push(note);
  else slot.notes = [note];
}

/** The per-message rules of one session, with the state they keep. */
export class MessageRules {
  readonly tables: Record<Side, RequestTable>;
  /** Progress tokens, by the side that sent the request. */
  private readonly tokens: Record<Side, ProgressTable>;
  private readonly unreadable: Record<Side, Unreadable[]> = { client: [], server: [] };
  readonly lc = new Lifecycle();
  private readonly exchanges = new Exchanges(MAX_EXCHANGES);
  readonly tasks: Tasks;
  private readonly overflowNoted: Record<Side, boolean> = { client: false, server: false };
  /** A message completed the handshake or discovery: the session writes a lifecycle record after it. */
  lifecycleDue = false;
  /** HTTP mode: the routing headers of the POST whose body is being analysed. */
  routing: RoutingHeaders | undefined;

  /** `cap`: pending requests (and tokens, tasks) kept per side. */
  constructor(cap: number) {
    this.tables = { client: new RequestTable(cap), server: new RequestTable(cap) };
    this.tokens = { client: new ProgressTable(cap), server: new ProgressTable(cap) };
    // a task's progress token stays active until the task ends
    this.tasks = new Tasks(cap, (task) => {
      const call = task.call;
      if (call.token !== undefined) this.tokens[task.from].release(call.token, call);
    });
  }

  /** One message (a line, or a batch element) → kind, pairing, lifecycle, findings, written into `t`. */
  message(from: Side, value: unknown, t: Slot, seq: number, time: number): void {
    this.classified(from, classify(value), t, seq, time);
  }

  /**
   * The fast path's envelope is enough unless the answer completes a request whose result the lifecycle
   * reads whole (initialize, server/discover).
   */
  fastPathFits(from: Side, c: Classified): boolean {
    if (c.kind !== 'response') return c.method === undefined || !readsTaskParams(c.method);
    const e = this.tables[other(from)].peek(c.id!);
    if (e === undefined) return true;
    const m = e.method;
    return m !== 'initialize' && m !== 'server/discover' && e.task === undefined;
  }

  classified(from: Side, c: Classified, t: Slot, seq: number, time: number): void {
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
  rememberUnreadable(from: Side, seq: number, time: number, id: RequestId | undefined): void {
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
