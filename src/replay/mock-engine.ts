/**
 * The server side of a recorded session, as a state machine: client lines in, server lines (and
 * explanations for stderr) out, clock and deadlines injected. run-mock.ts connects it to stdio.
 *
 * - Requests are answered from the recording (answer-book.ts: exact params, then same tool/prompt/uri or
 *   same method, in recorded order) under the live request's id; ping is always answered; anything else
 *   gets -32601 and a line on stderr saying why.
 * - The server's own recorded messages (notifications, and requests such as roots/list or
 *   sampling/createMessage) are sent where they happened in the recording: each is anchored to the
 *   message it followed — a client request (sent when that request arrives, before its answer), a client
 *   notification, the client's answer to one of the mock's requests, or one of the mock's answers (sent
 *   right after it). Each is sent once; progress notifications are sent for every matching request whose
 *   `_meta.progressToken` they then carry.
 * - Where the recorded server waited for the client's answer to its request before answering, the mock
 *   waits too (up to a deadline). An answer that follows messages its request made the mock send is sent
 *   a moment later (ANSWER_GAP_MS), not in the same write: clients such as the TypeScript SDK handle
 *   notifications a tick later than answers, and drop progress that arrives together with the answer.
 * - A message the log shortened is served as the log holds it, and stderr says so.
 * - A client of the other protocol era is met as the recorded server would meet it (mock-era.ts): a
 *   handshake-era recording refuses `server/discover`; a stateless one answers `initialize` from its
 *   recorded `server/discover` result, and then its results without `resultType`.
 */
import type { JsonRpcId } from '../log/record.js';
import { isObject, metaOf, type JsonObject } from '../protocol/jsonrpc.js';
import { AnswerBook } from './answer-book.js';
import { deepEqual } from './compare.js';
import { eraNote, initializeFromDiscover, legacyResult, METHOD_NOT_FOUND, recordedEra, type RecordedEra } from './mock-era.js';
import { idKey, paramsOf, targetOf, type RecMsg, type RecordedSession } from './recorded.js';
import { recordLargerAdvice } from './shortened.js';

export interface MockOptions {
  now: () => number;
  /** How long an answer waits for the client's answer to a request the mock sent first. */
  answerWaitMs: number;
}

/** A line for stdout (JSON-RPC) or an explanation for stderr. */
export type MockOut = { stdout: string } | { stderr: string };

interface Deferred {
  liveId: JsonRpcId;
  answer: RecMsg;
  waitingFor: Set<string>;
  deadline: number;
  label: string;
}

type Anchor = RecMsg | 'start';

/** Delay of an answer after the notifications (or requests) sent ahead of it. */
export const ANSWER_GAP_MS = 10;

const isProgress = (m: RecMsg): boolean => m.method === 'notifications/progress';

function describeRequest(method: string, params: unknown): string {
  const t = targetOf(method, params);
  return t !== undefined ? `${method} ${JSON.stringify(t)}` : method;
}

export class MockEngine {
  private readonly book: AnswerBook;
  private readonly anchored = new Map<Anchor, RecMsg[]>();
  private readonly fired = new Set<Anchor>();
  private readonly clientNotes: RecMsg[];
  private readonly usedNotes = new Set<RecMsg>();
  /** Requests the mock sent, by live id: the recorded request. */
  private readonly outstanding = new Map<string, RecMsg>();
  private readonly deferred: Deferred[] = [];
  private readonly warnedShort = new Set<RecMsg>();
  private fresh = 0;
  private readonly era: RecordedEra;
  /** A handshake-era client is served from a stateless recording: results lose `resultType`. */
  private legacyClient = false;

  constructor(
    private readonly session: RecordedSession,
    private readonly opts: MockOptions,
  ) {
    const entries = session.messages
      .filter((m) => m.from === 'client' && m.kind === 'request' && session.answerOf(m) !== undefined)
      .map((request) => ({ request, answer: session.answerOf(request), used: 0 }));
    this.book = new AnswerBook(entries, { byTarget: true });
    this.era = recordedEra(session);
    this.clientNotes = session.messages.filter((m) => m.from === 'client' && m.kind === 'notification');
    const requestsBySeq = new Map<number, RecMsg>();
    let last: Anchor = 'start';
    for (const m of session.messages) {
      if (m.from === 'client') {
        if (m.kind === 'request') requestsBySeq.set(m.seq, m);
        if (m.kind === 'request' || m.kind === 'notification' || m.kind === 'response' || m.kind === 'error') last = m;
        continue;
      }
      if (m.kind === 'response' || m.kind === 'error') {
        last = m;
        continue;
      }
      if (m.kind !== 'notification' && m.kind !== 'request') continue;
      const linked = isProgress(m) && m.reqSeq !== undefined ? requestsBySeq.get(m.reqSeq) : undefined;
      const anchor = linked ?? last;
      const list = this.anchored.get(anchor) ?? [];
      list.push(m);
      this.anchored.set(anchor, list);
    }
  }

  /** What was recorded before the client said anything. */
  start(): MockOut[] {
    return this.fire('start', undefined);
  }

  /** Server messages anchored to `anchor`; progress ones carry `token` (and are skipped without one). */
  private fire(anchor: Anchor, token: unknown): MockOut[] {
    const list = this.anchored.get(anchor);
    if (!list) return [];
    const first = !this.fired.has(anchor);
    this.fired.add(anchor);
    const out: MockOut[] = [];
    for (const m of list) {
      const progress = isProgress(m) && anchor !== 'start' && anchor.kind === 'request' && anchor.from === 'client';
      if (progress) {
        if (token === undefined || !isObject(m.msg)) continue;
        const msg = structuredClone(m.msg);
        const params = msg['params'];
        if (isObject(params)) params['progressToken'] = token;
        out.push({ stdout: JSON.stringify(msg) });
        continue;
      }
      if (!first || !isObject(m.msg)) continue;
      out.push(...this.shortNote(m, `${m.kind} ${m.method ?? ''}`.trim()));
      if (m.kind === 'request') {
        const msg = structuredClone(m.msg);
        let id = m.id ?? null;
        if (this.outstanding.has(idKey(id))) id = `mock-${++this.fresh}`;
        msg['id'] = id;
        this.outstanding.set(idKey(id), m);
        out.push({ stdout: JSON.stringify(msg) });
      } else out.push({ stdout: JSON.stringify(m.msg) });
    }
    return out;
  }

  private shortNote(m: RecMsg, what: string): MockOut[] {
    if (!m.truncated || this.warnedShort.has(m)) return [];
    this.warnedShort.add(m);
    return [
      {
        stderr: `the ${what} recorded as #${m.seq} is served as the log holds it, a shortened copy${m.bytes !== undefined ? ` of ${m.bytes} bytes` : ''} (strings cut, marked "…[truncated: N bytes]"); ${recordLargerAdvice(m.bytes)}`,
      },
    ];
  }

  /** One line from the client. */
  onLine(text: string): MockOut[] {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const shown = text.length > 60 ? `${text.slice(0, 59)}…` : text;
      return [
        { stderr: `a line from the client is not JSON (${JSON.stringify(shown)}); answered with a parse error` },
        { stdout: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }) },
      ];
    }
    if (!Array.isArray(value)) return this.onMessage(value).map((o) => ('answer' in o ? { stdout: o.stdout } : o));
    if (value.length === 0) return [{ stdout: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: empty batch' } }) }];
    // a batch: answers go back together in one array line, after whatever the elements made the mock send
    const outs: MockOut[] = [];
    const answers: unknown[] = [];
    for (const el of value) {
      for (const o of this.onMessage(el)) {
        if ('answer' in o) answers.push(JSON.parse(o.stdout));
        else outs.push(o);
      }
    }
    if (answers.length > 0) outs.push({ stdout: JSON.stringify(answers) });
    return outs;
  }

  private onMessage(el: unknown): Array<MockOut | { stdout: string; answer: true }> {
    if (!isObject(el)) return [{ stdout: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }), answer: true }];
    const method = el['method'];
    const hasId = 'id' in el && el['id'] !== undefined;
    if (typeof method === 'string' && hasId) return this.onRequest(el, method, el['id'] as JsonRpcId);
    if (typeof method === 'string') return this.onNotification(el, method);
    if (hasId && ('result' in el || 'error' in el)) return this.onClientAnswer(el['id']);
    return [{ stdout: JSON.stringify({ jsonrpc: '2.0', id: hasId ? el['id'] : null, error: { code: -32600, message: 'Invalid Request' } }), answer: true }];
  }

  private answerLine(id: JsonRpcId, answer: RecMsg): string {
    const reply: JsonObject = { jsonrpc: '2.0', id };
    const msg = isObject(answer.msg) ? answer.msg : {};
    if ('error' in msg) reply['error'] = msg['error'];
    else reply['result'] = this.legacyClient ? legacyResult(msg['result'] ?? {}) : (msg['result'] ?? {});
    return JSON.stringify(reply);
  }

  /** A request of the other era that the recording has no answer for, met as the recorded server would. */
  private otherEra(method: string, params: unknown, id: JsonRpcId): Array<MockOut | { stdout: string; answer: true }> | undefined {
    if (this.book.entries(method).length > 0) return undefined;
    if (method === 'server/discover' && this.era.era === 'handshake') {
      const v = this.era.answeredVersion;
      return [
        { stderr: `server/discover refused with -32601, as the recorded server (handshake era${v !== undefined ? `, ${v}` : ''}) refuses it: the client falls back to initialize` },
        { stdout: JSON.stringify({ jsonrpc: '2.0', id, error: METHOD_NOT_FOUND }), answer: true },
      ];
    }
    if (method === 'initialize' && this.era.era === 'stateless') {
      const a = initializeFromDiscover(this.era, params, this.session.server.name);
      if (a.result) this.legacyClient = true;
      const reply = a.result ? { jsonrpc: '2.0', id, result: a.result } : { jsonrpc: '2.0', id, error: a.error };
      return [{ stderr: a.say }, { stdout: JSON.stringify(reply), answer: true }];
    }
    return undefined;
  }

  private onRequest(el: JsonObject, method: string, id: JsonRpcId): Array<MockOut | { stdout: string; answer: true }> {
    const params = el['params'];
    const crossed = this.otherEra(method, params, id);
    if (crossed) return crossed;
    const match = this.book.match(method, params);
    if (!match) {
      if (method === 'ping') return [{ stdout: JSON.stringify({ jsonrpc: '2.0', id, result: {} }), answer: true }];
      return [
        { stderr: this.explainUnknown(method, params) },
        {
          stdout: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `mcp-tap mock: no recorded answer for ${describeRequest(method, params)}` } }),
          answer: true,
        },
      ];
    }
    const q = match.entry.request;
    const a = match.entry.answer!;
    const token = metaOf(params)?.['progressToken'];
    const before = this.outstanding.size;
    const out: Array<MockOut | { stdout: string; answer: true }> = this.fire(q, token);
    // the mock's requests sent just now that the recorded server saw answered before it answered
    const waitingFor = new Set<string>();
    if (this.outstanding.size > before) {
      for (const [k, r] of this.outstanding) {
        const ans = this.session.answerOf(r);
        if (ans && ans.seq < a.seq && (this.anchored.get(q) ?? []).includes(r)) waitingFor.add(k);
      }
    }
    const label = describeRequest(method, params);
    if (waitingFor.size > 0 || out.some((o) => 'stdout' in o)) {
      const wait = waitingFor.size > 0 ? this.opts.answerWaitMs : ANSWER_GAP_MS;
      this.deferred.push({ liveId: id, answer: a, waitingFor, deadline: this.opts.now() + wait, label });
      return out;
    }
    out.push(...this.shortNote(a, `answer to ${label}`));
    out.push({ stdout: this.answerLine(id, a), answer: true });
    out.push(...this.fire(a, undefined));
    return out;
  }

  private explainUnknown(method: string, params: unknown): string {
    const same = this.book.entries(method);
    const unanswered = this.session.messages.find(
      (m) => m.from === 'client' && m.kind === 'request' && m.method === method && this.session.answerOf(m) === undefined,
    );
    const what = describeRequest(method, params);
    if (same.length > 0) {
      const targets = [...new Set(same.map((e) => e.request.target).filter((t): t is string => t !== undefined))];
      return `no recorded answer for ${what}; the session recorded ${method} only for ${targets.map((t) => JSON.stringify(t)).join(', ')}; answered -32601`;
    }
    if (unanswered) return `no recorded answer for ${what}: the recorded request #${unanswered.seq} was never answered; answered -32601`;
    const known = this.book.known();
    return `no recorded answer for ${what}: the session never saw this request (it has answers for ${known.length > 0 ? known.slice(0, 8).join('; ') : 'nothing'}); answered -32601`;
  }

  private onNotification(el: JsonObject, method: string): MockOut[] {
    if (method === 'notifications/cancelled') {
      const p = el['params'];
      const rid = isObject(p) ? p['requestId'] : undefined;
      const at = this.deferred.findIndex((d) => idKey(d.liveId) === idKey(rid));
      if (at >= 0) this.deferred.splice(at, 1);
    }
    const params = el['params'];
    const same = this.clientNotes.filter((m) => m.method === method && !this.usedNotes.has(m));
    const rec = same.find((m) => deepEqual(paramsOf(m.msg), params)) ?? same[0];
    if (!rec) return [];
    this.usedNotes.add(rec);
    return this.fire(rec, undefined);
  }

  private onClientAnswer(id: unknown): MockOut[] {
    const k = idKey(id);
    const req = this.outstanding.get(k);
    if (!req) return [];
    this.outstanding.delete(k);
    const out: MockOut[] = [];
    const recordedAnswer = this.session.answerOf(req);
    if (recordedAnswer) out.push(...this.fire(recordedAnswer, undefined));
    for (const d of [...this.deferred]) {
      d.waitingFor.delete(k);
      if (d.waitingFor.size === 0) out.push(...this.release(d));
    }
    return out;
  }

  private release(d: Deferred): MockOut[] {
    const at = this.deferred.indexOf(d);
    if (at >= 0) this.deferred.splice(at, 1);
    return [...this.shortNote(d.answer, `answer to ${d.label}`), { stdout: this.answerLine(d.liveId, d.answer) }, ...this.fire(d.answer, undefined)];
  }

  /** Answers whose wait for the client ran out are sent anyway. */
  onTick(): MockOut[] {
    const now = this.opts.now();
    const out: MockOut[] = [];
    for (const d of [...this.deferred]) {
      if (d.deadline > now) continue;
      if (d.waitingFor.size > 0) {
        out.push({ stderr: `the client did not answer the mock's request(s) within ${this.opts.answerWaitMs} ms; sending the recorded answer to ${d.label} anyway` });
      }
      out.push(...this.release(d));
    }
    return out;
  }

  /** When onTick should run next, or undefined. */
  nextDeadline(): number | undefined {
    let d: number | undefined;
    for (const x of this.deferred) if (d === undefined || x.deadline < d) d = x.deadline;
    return d;
  }

  /** The start-up line about the recorded server's era and clients of the other one, if any. */
  eraNote(): ReturnType<typeof eraNote> {
    return eraNote(this.era);
  }

  /** What the mock can answer, for the start-up line on stderr. */
  describe(): string {
    const known = this.book.known();
    return known.length > 0 ? known.join('; ') : 'no requests';
  }
}
