/**
 * One pass over a session's records (with their line numbers) → the facts check and baseline judge:
 * requests and their answers, notes, the latest tool/resource/prompt listings, the negotiated lifecycle
 * and how the server ended. Streaming: it keeps small facts per request, never the records themselves.
 */
import type { ContextCost } from '../lens/context/context-cost.js';
import { KeepFirst, type Omitted } from '../log/keep-first.js';
import type { RecordItem } from '../log/read-log.js';
import type { JsonRpcId, LogRecord } from '../log/record.js';
import { TASK_CALLS, TaskCalls, taskFacts, type TaskFacts } from '../log/task-records.js';
import { countOmitted, noneOmitted, type OmittedRequests } from './omitted.js';
import { maxMsMatches, reasonsToKeep, type JudgedRequest } from './request-results.js';
import { CompactWaiting } from './waiting.js';

/** Where a fact sits in the log: the record's seq and its 1-based line in the file. */
export interface Located {
  seq: number;
  line: number;
}

/** The answer a request got. */
export interface AnswerFact extends Located {
  kind: 'response' | 'error';
  ms?: number;
  isError: boolean;
  error?: { code?: number; message?: string };
}

/** A request of either side, and how it ended. */
export interface RequestFact extends Located {
  from: 'client' | 'server';
  id: JsonRpcId;
  method: string;
  /** tools/call: the tool; resources/read: the uri; prompts/get: the prompt. */
  target?: string;
  inBatch: boolean;
  /** The request carried params.cursor (a listing's next page, not a fresh listing). */
  cursor: boolean;
  answer?: AnswerFact;
  /** A notifications/cancelled referred to it. */
  cancelled: boolean;
  /**
   * The answer was a CreateTaskResult: the request is done when its task ends, and `answer` then holds
   * the record that ended it, with the task's duration as `ms`.
   */
  task?: TaskFact;
}

/** A request's task, as far as the log shows it. */
export interface TaskFact {
  taskId: string;
  /** The last status seen. */
  status: string;
  /** A terminal status or the final result was seen. */
  ended: boolean;
  /** Still running: ms from the call to the session's last record. */
  runningMs?: number;
  /** Epoch ms of the call. */
  callTime: number;
}

/** A note (finding) of a record, with where it is. */
export interface NoteFact extends Located {
  code: string;
  text: string;
  from: string;
  kind: string;
  method?: string;
}

/** One tool, resource, template or prompt definition as the server listed it. */
export interface ListedItem {
  key: string;
  def: Record<string, unknown>;
  /** The answer record that listed it. */
  at: Located;
  truncated: boolean;
}

/** Everything check and baseline need to know about one session. */
export interface SessionFacts {
  path: string;
  session: string;
  records: number;
  /** The session's first record (the start event when there is one). */
  first?: Located;
  start?: { name?: string; command?: string; args?: string[]; pid?: number };
  protocolVersion?: string;
  era?: 'handshake' | 'stateless';
  serverInfo?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  requests: RequestFact[];
  notes: NoteFact[];
  /** null: the session has no answer to that listing method. */
  tools: ListedItem[] | null;
  resources: ListedItem[] | null;
  resourceTemplates: ListedItem[] | null;
  prompts: ListedItem[] | null;
  /** afterShutdown: the client closed stdin (or a signal came) before; signalled: mcp-tap forwarded a signal or killed it. */
  exit?: Located & { code: number | null; signal: string | null; afterShutdown: boolean; signalled: boolean; sentSignals: string[] };
  spawnError?: Located & { error: string };
  /** The session has its end event. */
  ended: boolean;
  /** Epoch ms of the session's first record. */
  startTime?: number;
  durationMs?: number;
  /** Bounded gathering (GatherBound): the requests left out of `requests`, and what they count for. */
  omitted?: OmittedRequests;
  /** Notes left out of `notes` (past the first `perRule` of their code), by code. */
  omittedNotes: Omitted[];
  /** What the session costs the model's context, when a token budget asked for it. */
  context?: ContextCost;
  /** seq → line of the tools/call answers over --max-result-tokens (where those results are located). */
  lines?: Map<number, number>;
}

/**
 * What check keeps of a long session: the first `listed` requests whole, and beyond them only the ones
 * that matter (not plainly answered, initialize and listings, a --max-ms limit exceeded, a --forbid-tool
 * called), each only while its reason — its error code, its rule, its method — has had fewer than
 * `perRule`; the rest are counted (omitted.ts). Notes likewise: the first `perRule` of each code. Memory
 * then grows with neither the session nor its failures.
 */
export interface GatherBound {
  listed: number;
  /** The --max-ms limits (key, ms) and --forbid-tool names the check will judge. */
  maxMs: ReadonlyArray<{ key: string; ms: number }>;
  forbidTools: readonly string[];
  /** Requests and notes kept per reason; default RESULTS_PER_RULE. */
  perRule?: number;
  /** Requests waiting for an answer kept whole past the listed ones; default WAITING_WHOLE. */
  waitingWhole?: number;
}

/** How many requests check lists whole before it keeps only those that matter (docs/check.md). */
export const LISTED_REQUESTS = 1000;

/** Results check keeps whole per rule (and per error code); the rest are counted (docs/check.md). */
export const RESULTS_PER_RULE = 1000;

/** However many rules and error codes occur, check keeps at most this many failing requests, and notes. */
const KEPT_IN_ALL = 20 * RESULTS_PER_RULE;

/** Past the listed ones, requests waiting for an answer kept whole; further ones are kept compact (waiting.ts). */
const WAITING_WHOLE = 20_000;

export { maxMsMatches };

/**
 * A task call the bounded gatherer only counts: its request waited compactly (waiting.ts), so it is
 * never listed, but its outcome is its task's, known when the task ends (or the session does).
 */
interface CountedTask extends JudgedRequest {
  counted: true;
  answer: AnswerFact;
  task: TaskFact;
}

/** A request answered (or, unbounded or listed, to be listed) and, when it is a task call, its task ended. */
const done = (q: RequestFact): boolean => q.answer !== undefined && (q.task === undefined || q.task.ended);

/** The task an answer creates (a CreateTaskResult: a taskId, not the record of an existing task), if any. */
function createdTask(r: LogRecord, a: AnswerFact): TaskFact | undefined {
  if (typeof r.taskId !== 'string' || typeof r.taskOf === 'number') return undefined;
  return { taskId: r.taskId, status: typeof r.taskStatus === 'string' ? r.taskStatus : 'working', ended: false, callTime: r.time - (a.ms ?? 0) };
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
const sameId = (a: JsonRpcId | undefined, b: JsonRpcId | undefined): boolean => a === b;

const LISTINGS: Record<string, { field: string; key: string; slot: 'tools' | 'resources' | 'resourceTemplates' | 'prompts' }> = {
  'tools/list': { field: 'tools', key: 'name', slot: 'tools' },
  'resources/list': { field: 'resources', key: 'uri', slot: 'resources' },
  'resources/templates/list': { field: 'resourceTemplates', key: 'uriTemplate', slot: 'resourceTemplates' },
  'prompts/list': { field: 'prompts', key: 'name', slot: 'prompts' },
};

/**
 * Which records the gatherer needs whole (see ReadOptions.needsBody): batches, error answers, listing
 * requests (their cursor) and the answers to listings and initialize. The rest are read as envelopes.
 */
export function gatherNeedsBody(head: LogRecord): boolean {
  if (head.kind === 'batch' || head.kind === 'error') return true;
  if (head.kind !== 'request' && head.kind !== 'response') return false;
  return head.method === 'initialize' || (typeof head.method === 'string' && Object.hasOwn(LISTINGS, head.method));
}

/** Events after which the server's exit is expected: the client (or a signal) ended the session. */
const SHUTDOWN_EVENTS = new Set(['stdin-closed', 'signal', 'kill', 'host-gone']);

/** Feeds on one session's records in file order; `finish()` returns the facts. */
export class SessionGatherer {
  private readonly facts: SessionFacts;
  private readonly bySeq = new Map<number, RequestFact[]>();
  private readonly listings = new Map<string, Map<string, ListedItem>>();
  private shutdownStarted = false;
  private signalled = false;
  private readonly sentSignals: string[] = [];
  private firstTime?: number;
  private lastTime?: number;
  private lifecycleSeen = false;
  /** One copy of each method and target string (every record's parse makes its own). */
  private readonly names = new Map<string, string>();
  /** Bounded: each request's place in the session while it may still be listed. */
  private readonly ordinal = new Map<RequestFact, number>();
  private nextOrdinal = 0;
  private readonly kept = new Set<RequestFact>();
  /** Requests answered with a task, until it ends (bounded; a counted one dropped is counted as running). */
  private readonly taskCalls = new TaskCalls<RequestFact | CountedTask>(TASK_CALLS, (q) => {
    if ('counted' in q) countOmitted(this.facts.omitted!, q, this.bound!);
  });
  /** Bounded: kept requests per reason, and notes per code. */
  private readonly reasons: KeepFirst;
  /** Bounded: requests waiting past WAITING_WHOLE, a number each. */
  private readonly compact = new CompactWaiting();
  private readonly noteQuota: KeepFirst;

  constructor(
    path: string,
    session: string,
    private readonly bound?: GatherBound,
  ) {
    const perKey = bound ? (bound.perRule ?? RESULTS_PER_RULE) : Infinity;
    const maxTotal = bound ? KEPT_IN_ALL : Infinity;
    this.reasons = new KeepFirst({ perKey, maxTotal });
    this.noteQuota = new KeepFirst({ perKey, maxTotal });
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
    };
    if (bound) this.facts.omitted = noneOmitted(bound);
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
          this.compact.cancel(r.reqSeq, r.from);
        }
        break;
      case 'batch':
        this.batch(r, at);
        break;
      case 'event':
        this.event(r, at);
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
    this.taskCalls.delete(this.facts.session, tf.callSeq);
    if ('counted' in q) countOmitted(this.facts.omitted!, q, this.bound!);
    else this.settle(q);
  }

  finish(): SessionFacts {
    const f = this.facts;
    for (const q of this.taskCalls.values()) {
      if (q.task && !q.task.ended && this.lastTime !== undefined) q.task.runningMs = Math.max(0, this.lastTime - q.task.callTime);
      if ('counted' in q) countOmitted(f.omitted!, q, this.bound!);
    }
    for (const [method, map] of this.listings) {
      const slot = LISTINGS[method]!.slot;
      f[slot] = [...map.values()];
    }
    if (this.firstTime !== undefined) f.startTime = this.firstTime;
    if (this.firstTime !== undefined && this.lastTime !== undefined) f.durationMs = this.lastTime - this.firstTime;
    if (this.bound) {
      // the kept requests and those still waiting for an answer (as far as their reasons have room), in log order
      const order = this.ordinal;
      // listed requests still waiting use up their reasons' room first (they come first in the log)
      for (const q of this.kept) if (!done(q)) for (const k of this.reasonsOf(q)) this.reasons.take(k);
      const waiting = [...order.keys()].filter((q) => !this.kept.has(q));
      const shown: RequestFact[] = [];
      for (const q of waiting) {
        if (this.admit(q)) {
          this.kept.add(q);
          shown.push(q);
        } else {
          order.delete(q);
          countOmitted(f.omitted!, q, this.bound);
        }
      }
      f.requests = [...f.requests, ...shown].sort((a, b) => order.get(a)! - order.get(b)!);
      const bound = this.bound;
      this.compact.forEachRest((w) => countOmitted(f.omitted!, w, bound));
    }
    f.omittedNotes = this.noteQuota.omitted();
    return f;
  }

  private reasonsOf(q: RequestFact): string[] {
    return reasonsToKeep(q, this.bound!, q.method === 'initialize' || Object.hasOwn(LISTINGS, q.method));
  }

  /** Takes a request's reasons from their quotas; true when one of them still had room. */
  private admit(q: RequestFact): boolean {
    const reasons = this.reasonsOf(q);
    const room = reasons.some((k) => this.reasons.hasRoom(k));
    if (room) for (const k of reasons) if (this.reasons.hasRoom(k)) this.reasons.take(k);
    return room;
  }

  private keep(q: RequestFact): void {
    this.kept.add(q);
    this.facts.requests.push(q);
  }

  /**
   * Bounded gathering, once a request is answered: past the listed ones it stays when it matters and its
   * reason has room; a listed one uses up its reason's room too.
   */
  private settle(q: RequestFact): void {
    const b = this.bound;
    if (!b || !this.ordinal.has(q)) return;
    if (this.kept.has(q)) {
      for (const k of this.reasonsOf(q)) this.reasons.take(k);
      return;
    }
    if (this.reasonsOf(q).length > 0 && this.admit(q)) {
      this.keep(q);
      return;
    }
    this.ordinal.delete(q);
    countOmitted(this.facts.omitted!, q, b);
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
    if (!this.bound) this.facts.requests.push(q);
    else {
      // a session that leaves very many requests open: the further ones wait as one number each
      const plain = !inBatch && q.method !== 'initialize' && !Object.hasOwn(LISTINGS, q.method);
      if (plain && this.nextOrdinal >= this.bound.listed && this.ordinal.size - this.kept.size >= (this.bound.waitingWhole ?? WAITING_WHOLE) && this.compact.add(at.seq, q)) {
        this.nextOrdinal++;
        return;
      }
      this.ordinal.set(q, this.nextOrdinal++);
      if (this.nextOrdinal <= this.bound.listed) this.keep(q);
    }
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
    const waiting = q ? undefined : this.compact.take(reqSeq, r.from);
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
    if (!q) {
      // a request kept compact: counted once it is done, with its task when it made one
      if (task) this.taskCalls.set(this.facts.session, reqSeq, { ...waiting!, counted: true, answer: a, task });
      else countOmitted(this.facts.omitted!, { ...waiting!, answer: a }, this.bound!);
      return;
    }
    q.answer = a;
    if (task) {
      // a CreateTaskResult: the request waits for its task (taskRecord settles it)
      q.task = task;
      this.taskCalls.set(this.facts.session, q.seq, q);
    } else this.settle(q);
    // a seq whose requests are all answered is looked up no more (a late cancel changes no status)
    if ((this.bySeq.get(reqSeq) ?? []).every((x) => x.answer !== undefined)) this.bySeq.delete(reqSeq);
    if (kind === 'response' && isObj(msg)) this.result(q, msg['result'], at, r.truncated === true);
  }

  /** Remembers listings, and the lifecycle from an initialize answer when no lifecycle event says more. */
  private result(q: RequestFact, result: unknown, at: Located, truncated: boolean): void {
    if (!isObj(result)) return;
    if (q.method === 'initialize' && !this.lifecycleSeen) {
      if (typeof result['protocolVersion'] === 'string') this.facts.protocolVersion = result['protocolVersion'];
      if (isObj(result['serverInfo'])) this.facts.serverInfo = result['serverInfo'];
      if (isObj(result['capabilities'])) this.facts.capabilities = result['capabilities'];
      return;
    }
    const spec = LISTINGS[q.method];
    if (!spec || q.from !== 'client') return;
    const items = result[spec.field];
    if (!Array.isArray(items)) return;
    let map = this.listings.get(q.method);
    // a listing without a cursor starts over (a refresh after list_changed); a cursor continues it
    if (!map || !q.cursor) {
      map = new Map();
      this.listings.set(q.method, map);
    }
    for (const def of items) {
      if (!isObj(def)) continue;
      const key = def[spec.key];
      if (typeof key !== 'string') continue;
      map.set(key, { key, def, at, truncated });
    }
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

  private event(r: LogRecord, at: Located): void {
    const ev = r.event;
    if (ev === undefined) return;
    if (SHUTDOWN_EVENTS.has(ev)) this.shutdownStarted = true;
    if (ev === 'signal' || ev === 'kill') {
      this.signalled = true;
      if (typeof r['signal'] === 'string') this.sentSignals.push(r['signal']);
    }
    switch (ev) {
      case 'start':
        this.facts.start = {
          ...(typeof r['name'] === 'string' ? { name: r['name'] } : {}),
          ...(typeof r['command'] === 'string' ? { command: r['command'] } : {}),
          ...(Array.isArray(r['args']) ? { args: (r['args'] as unknown[]).map(String) } : {}),
          ...(typeof r['pid'] === 'number' ? { pid: r['pid'] } : {}),
        };
        break;
      case 'lifecycle':
        this.lifecycleSeen = true;
        if (typeof r['protocolVersion'] === 'string') this.facts.protocolVersion = r['protocolVersion'];
        if (r['era'] === 'handshake' || r['era'] === 'stateless') this.facts.era = r['era'];
        if (isObj(r['serverInfo'])) this.facts.serverInfo = r['serverInfo'];
        if (isObj(r['serverCapabilities'])) this.facts.capabilities = r['serverCapabilities'];
        break;
      case 'exit':
        this.facts.exit = {
          ...at,
          code: typeof r['code'] === 'number' ? r['code'] : null,
          signal: typeof r['signal'] === 'string' ? r['signal'] : null,
          afterShutdown: this.shutdownStarted,
          signalled: this.signalled,
          sentSignals: [...this.sentSignals],
        };
        break;
      case 'spawn-error':
        this.facts.spawnError = { ...at, error: str(r['error']) ?? 'the server could not be started' };
        break;
      case 'end':
        this.facts.ended = true;
        break;
      default:
        break;
    }
  }
}

/** All facts of a sequence of record items (tests and small inputs). */
export function gatherSession(path: string, session: string, items: Iterable<RecordItem>): SessionFacts {
  const g = new SessionGatherer(path, session);
  for (const it of items) g.add(it);
  return g.finish();
}
