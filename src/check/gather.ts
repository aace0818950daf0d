/**
 * One pass over a session's records (with their line numbers) → the facts check and baseline judge
 * (facts.ts): requests and their answers and tasks, notes, and through server-facts.ts the listings, the
 * lifecycle and how the server ended; bounded by kept-requests.ts for a long session. Streaming: it keeps
 * small facts per request, never the records themselves.
 */
import { KeepFirst } from '../log/keep-first.js';
import type { RecordItem } from '../log/read-log.js';
import type { JsonRpcId, LogRecord } from '../log/record.js';
import { TASK_CALLS, TaskCalls, taskFacts, type TaskFacts } from '../log/task-records.js';
import { RESULTS_PER_RULE, type AnswerFact, type GatherBound, type Located, type RequestFact, type SessionFacts, type TaskFact } from './facts.js';
import { KEPT_IN_ALL, KeptRequests } from './kept-requests.js';
import { LatencyMedians } from './latency-medians.js';
import type { JudgedRequest } from './request-results.js';
import { isListing, ServerFacts } from './server-facts.js';

/**
 * A task call the bounded gatherer only counts: its request waited compactly (waiting.ts), so it is
 * never listed, but its outcome is its task's, known when the task ends (or the session does).
 */
interface CountedTask extends JudgedRequest {
  counted: true;
  answer: AnswerFact;
  task: TaskFact;
}

/** The task an answer creates (a CreateTaskResult: a taskId, not the record of an existing task), if any. */
function createdTask(r: LogRecord, a: AnswerFact): TaskFact | undefined {
  if (typeof r.taskId !== 'string' || typeof r.taskOf === 'number') return undefined;
  return { taskId: r.taskId, status: typeof r.taskStatus === 'string' ? r.taskStatus : 'working', ended: false, callTime: r.time - (a.ms ?? 0) };
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
const sameId = (a: JsonRpcId | undefined, b: JsonRpcId | undefined): boolean => a === b;

/**
 * Which records the gatherer needs whole (see ReadOptions.needsBody): batches, error answers, listing
 * requests (their cursor) and the answers to listings and initialize. The rest are read as envelopes.
 */
export function gatherNeedsBody(head: LogRecord): boolean {
  if (head.kind === 'batch' || head.kind === 'error') return true;
  if (head.kind !== 'request' && head.kind !== 'response') return false;
  return head.method === 'initialize' || (typeof head.method === 'string' && isListing(head.method));
}

/** Feeds on one session's records in file order; `finish()` returns the facts. */
export class SessionGatherer {
  private readonly facts: SessionFacts;
  private readonly bySeq = new Map<number, RequestFact[]>();
  private readonly server: ServerFacts;
  private firstTime?: number;
  private lastTime?: number;
  /** One copy of each method and target string (every record's parse makes its own). */
  private readonly names = new Map<string, string>();
  /** Bounded: the requests kept, and what the others count for. */
  private readonly keeper?: KeptRequests;
  /** Requests answered with a task, until it ends (bounded; a counted one dropped is counted as running). */
  private readonly taskCalls = new TaskCalls<RequestFact | CountedTask>(TASK_CALLS, (q) => {
    this.timed(q, q.answer?.ms); // its task's end is looked for no more: timed by its answer
    if ('counted' in q) this.keeper!.count(q);
  });
  /** Latencies of the client's requests, per method and per tool, streamed (SessionFacts.latency). */
  private readonly methodMs = new LatencyMedians();
  private readonly toolMs = new LatencyMedians();
  /** Bounded: notes per code. */
  private readonly noteQuota: KeepFirst;

  constructor(path: string, session: string, bound?: GatherBound) {
    this.noteQuota = bound ? new KeepFirst({ perKey: bound.perRule ?? RESULTS_PER_RULE, maxTotal: KEPT_IN_ALL }) : new KeepFirst({ perKey: Infinity, maxTotal: Infinity });
    this.facts = {
      path,
      session,
      records: 0,
      requests: [],
      notes: [],
      tools: null,
      resources: null,
      resourceTemplates: null,
      prompts: null,
      ended: false,
      omittedNotes: [],
      latency: { methods: new Map(), tools: new Map() },
    };
    this.server = new ServerFacts(this.facts);
    if (bound) {
      this.keeper = new KeptRequests(bound);
      this.facts.omitted = this.keeper.omitted;
    }
  }

  add(item: RecordItem): void {
    const r = item.record;
    const at: Located = { seq: r.seq, line: item.line };
    this.facts.records++;
    this.facts.first ??= at;
    if (typeof r.time === 'number' && Number.isFinite(r.time)) {
      this.firstTime ??= r.time;
      this.lastTime = r.time;
    }
    this.notesOf(r.notes, r, at);
    switch (r.kind) {
      case 'request':
        this.request(r, at, r.id, r.method, r.target, r.msg, false);
        break;
      case 'response':
      case 'error':
        this.answer(r, at, r.kind, r.id, r.reqSeq, r.ms, r.isError === true, r.msg);
        break;
      case 'notification':
        if (r.method === 'notifications/cancelled' && typeof r.reqSeq === 'number') {
          for (const q of this.bySeq.get(r.reqSeq) ?? []) if (q.from === r.from) q.cancelled = true;
          this.keeper?.cancel(r.reqSeq, r.from);
        }
        break;
      case 'batch':
        this.batch(r, at);
        break;
      case 'event':
        this.server.event(r, at);
        break;
      default:
        break;
    }
    if (typeof r.taskId === 'string') {
      const tf = taskFacts(r);
      if (tf) this.taskRecord(tf, at);
    }
  }

  /** A record of a task: the one that ends it makes it the request's answer, with the task's duration. */
  private taskRecord(tf: TaskFacts, at: Located): void {
    const q = this.taskCalls.get(this.facts.session, tf.callSeq);
    const t = q?.task;
    if (!q?.answer || !t) return;
    if (tf.isError) q.answer.isError = true;
    if (tf.status !== undefined && !t.ended) t.status = tf.status;
    if (tf.endMs === undefined || t.ended) return;
    t.ended = true;
    q.answer = { ...q.answer, seq: at.seq, line: at.line, ms: tf.endMs };
    this.timed(q, tf.endMs);
    this.taskCalls.delete(this.facts.session, tf.callSeq);
    if ('counted' in q) this.keeper!.count(q);
    else this.keeper?.settle(q);
  }

  finish(): SessionFacts {
    const f = this.facts;
    for (const q of this.taskCalls.values()) {
      if (q.task && !q.task.ended && this.lastTime !== undefined) q.task.runningMs = Math.max(0, this.lastTime - q.task.callTime);
      this.timed(q, q.answer?.ms); // still running: timed by its answer
      if ('counted' in q) this.keeper!.count(q);
    }
    f.latency = { methods: this.methodMs.stats(), tools: this.toolMs.stats() };
    this.server.finish();
    if (this.firstTime !== undefined) f.startTime = this.firstTime;
    if (this.firstTime !== undefined && this.lastTime !== undefined) f.durationMs = this.lastTime - this.firstTime;
    if (this.keeper) f.requests = this.keeper.finish();
    f.omittedNotes = this.noteQuota.omitted();
    return f;
  }

  /** A client request is done (answered; a task call when its task ended or is no more followed): its latency counts. */
  private timed(q: JudgedRequest, ms: number | undefined): void {
    if (q.from !== 'client' || ms === undefined) return;
    this.methodMs.add(q.method, ms);
    if (q.method === 'tools/call' && q.target !== undefined) this.toolMs.add(q.target, ms);
  }

  private intern(s: string): string {
    const known = this.names.get(s);
    if (known !== undefined) return known;
    if (this.names.size < 10_000) this.names.set(s, s);
    return s;
  }

  private notesOf(notes: unknown, r: LogRecord, at: Located): void {
    if (!Array.isArray(notes)) return;
    for (const n of notes) {
      if (!isObj(n) || typeof n['code'] !== 'string') continue;
      if (!this.noteQuota.take(n['code'])) continue;
      this.facts.notes.push({
        ...at,
        code: n['code'],
        text: str(n['text']) ?? n['code'],
        from: r.from,
        kind: r.kind,
        ...(typeof r.method === 'string' ? { method: r.method } : {}),
      });
    }
  }

  private request(r: LogRecord, at: Located, id: unknown, method: unknown, target: unknown, msg: unknown, inBatch: boolean): void {
    if (r.from !== 'client' && r.from !== 'server') return;
    if (typeof method !== 'string') return;
    const params = isObj(msg) ? msg['params'] : undefined;
    const q: RequestFact = {
      seq: at.seq,
      line: at.line,
      from: r.from,
      id: (id ?? null) as JsonRpcId,
      method: this.intern(method),
      ...(typeof target === 'string' ? { target: this.intern(target) } : {}),
      inBatch,
      cursor: isObj(params) && params['cursor'] !== undefined,
      cancelled: false,
    };
    if (!this.keeper) this.facts.requests.push(q);
    else if (!this.keeper.add(at.seq, q, inBatch)) return;
    const list = this.bySeq.get(at.seq);
    if (list) list.push(q);
    else this.bySeq.set(at.seq, [q]);
  }

  private answer(
    r: LogRecord,
    at: Located,
    kind: 'response' | 'error',
    id: unknown,
    reqSeq: unknown,
    ms: unknown,
    isError: boolean,
    msg: unknown,
  ): void {
    if (typeof reqSeq !== 'number') return;
    const candidates = (this.bySeq.get(reqSeq) ?? []).filter((q) => q.from !== r.from && !q.answer);
    const q = candidates.find((c) => sameId(c.id, id as JsonRpcId)) ?? candidates[0];
    const waiting = q ? undefined : this.keeper?.takeWaiting(reqSeq, r.from);
    if (!q && !waiting) return;
    const a: AnswerFact = { seq: at.seq, line: at.line, kind, isError };
    if (typeof ms === 'number' && Number.isFinite(ms)) a.ms = ms;
    if (kind === 'error' && isObj(msg) && isObj(msg['error'])) {
      const e = msg['error'];
      a.error = {
        ...(typeof e['code'] === 'number' ? { code: e['code'] } : {}),
        ...(typeof e['message'] === 'string' ? { message: e['message'] } : {}),
      };
    }
    const task = createdTask(r, a);
    if (!task) this.timed(q ?? waiting!, a.ms);
    if (!q) {
      // a request kept compact: counted once it is done, with its task when it made one
      if (task) this.taskCalls.set(this.facts.session, reqSeq, { ...waiting!, counted: true, answer: a, task });
      else this.keeper!.count({ ...waiting!, answer: a });
      return;
    }
    q.answer = a;
    if (task) {
      // a CreateTaskResult: the request waits for its task (taskRecord settles it)
      q.task = task;
      this.taskCalls.set(this.facts.session, q.seq, q);
    } else this.keeper?.settle(q);
    // a seq whose requests are all answered is looked up no more (a late cancel changes no status)
    if ((this.bySeq.get(reqSeq) ?? []).every((x) => x.answer !== undefined)) this.bySeq.delete(reqSeq);
    if (kind === 'response' && isObj(msg)) this.server.result(q, msg['result'], at, r.truncated === true);
  }

  private batch(r: LogRecord, at: Located): void {
    if (!Array.isArray(r.items)) return;
    const msgs = Array.isArray(r.msg) ? (r.msg as unknown[]) : [];
    r.items.forEach((it, i) => {
      if (!isObj(it)) return;
      this.notesOf(it['notes'], r, at);
      const kind = it['kind'];
      if (kind === 'request') this.request(r, at, it['id'], it['method'], it['target'], msgs[i], true);
      else if (kind === 'response' || kind === 'error') {
        this.answer(r, at, kind, it['id'], it['reqSeq'], it['ms'], it['isError'] === true, msgs[i]);
      }
    });
  }
}

/** All facts of a sequence of record items (tests and small inputs). */
export function gatherSession(path: string, session: string, items: Iterable<RecordItem>): SessionFacts {
  const g = new SessionGatherer(path, session);
  for (const it of items) g.add(it);
  return g.finish();
}
