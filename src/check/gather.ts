/**
 * One pass over a session's records (with their line numbers) → the facts check and baseline judge:
 * requests and their answers, notes, the latest tool/resource/prompt listings, the negotiated lifecycle
 * and how the server ended. Streaming: it keeps small facts per request, never the records themselves.
 */
import type { ContextCost } from '../lens/context/context-cost.js';
import type { RecordItem } from '../log/read-log.js';
import type { JsonRpcId, LogRecord } from '../log/record.js';
import { TaskCalls, taskFacts, type TaskFacts } from '../log/task-records.js';

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
  /** Bounded gathering (GatherBound): the passing requests left out of `requests`. */
  omitted?: OmittedRequests;
  /** What the session costs the model's context, when a token budget asked for it. */
  context?: ContextCost;
  /** seq → line of the tools/call answers over --max-result-tokens (where those results are located). */
  lines?: Map<number, number>;
}

/**
 * What check keeps of a long session: the first `listed` requests whole, and beyond them only the ones
 * that matter (not plainly answered, initialize and listings, a --max-ms limit exceeded, a --forbid-tool
 * called); the passing rest are counted. Memory then grows with the failures, not with the session.
 */
export interface GatherBound {
  listed: number;
  /** The --max-ms limits (key, ms) and --forbid-tool names the check will judge. */
  maxMs: ReadonlyArray<{ key: string; ms: number }>;
  forbidTools: readonly string[];
}

/** How many requests check lists whole before it keeps only those that matter (docs/check.md). */
export const LISTED_REQUESTS = 1000;

/** Passing requests not in SessionFacts.requests: how many, and how many each --max-ms limit matched. */
export interface OmittedRequests {
  requests: number;
  /** By `${key}=${ms}`, as the --max-ms flag reads. */
  maxMsMatched: Map<string, number>;
}

/** The request got a plain answer: no error (a refused probe is one), no isError, no task that failed or was cancelled. */
export const answeredOk = (q: RequestFact): boolean =>
  q.answer !== undefined && q.answer.kind === 'response' && !q.answer.isError && (q.task === undefined || q.task.status === 'completed');

/** Whether a --max-ms key applies to a request (client requests, by method, target or `*`). */
export const maxMsMatches = (key: string, q: { from: string; method: string; target?: string }): boolean =>
  q.from === 'client' && (key === '*' || q.method === key || (q.target !== undefined && q.target === key));

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
  /** Requests answered with a task, until it ends (bounded). */
  private readonly taskCalls = new TaskCalls<RequestFact>();

  constructor(
    path: string,
    session: string,
    private readonly bound?: GatherBound,
  ) {
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
    };
    if (bound) this.facts.omitted = { requests: 0, maxMsMatched: new Map(bound.maxMs.map((l) => [`${l.key}=${l.ms}`, 0])) };
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
    this.settle(q);
  }

  finish(): SessionFacts {
    const f = this.facts;
    for (const q of this.taskCalls.values()) {
      if (q.task && !q.task.ended && this.lastTime !== undefined) q.task.runningMs = Math.max(0, this.lastTime - q.task.callTime);
    }
    for (const [method, map] of this.listings) {
      const slot = LISTINGS[method]!.slot;
      f[slot] = [...map.values()];
    }
    if (this.firstTime !== undefined) f.startTime = this.firstTime;
    if (this.firstTime !== undefined && this.lastTime !== undefined) f.durationMs = this.lastTime - this.firstTime;
    if (this.bound) {
      // the kept requests and those still waiting for an answer, in log order
      const order = this.ordinal;
      const waiting = [...order.keys()].filter((q) => !this.kept.has(q));
      for (const q of waiting) this.kept.add(q);
      f.requests = [...f.requests, ...waiting].sort((a, b) => order.get(a)! - order.get(b)!);
    }
    return f;
  }

  private keep(q: RequestFact): void {
    this.kept.add(q);
    this.facts.requests.push(q);
  }

  /** Bounded gathering: a request past the listed ones stays only while it waits and when it matters. */
  private settle(q: RequestFact): void {
    const b = this.bound;
    if (!b || !this.ordinal.has(q)) return;
    if (this.kept.has(q)) return;
    // as the report rounds it (evaluate.ts), so a limit judges the same number here and there
    const ms = q.answer?.ms !== undefined ? Math.round(q.answer.ms * 1000) / 1000 : undefined;
    const matters =
      !answeredOk(q) ||
      q.method === 'initialize' ||
      Object.hasOwn(LISTINGS, q.method) ||
      b.forbidTools.some((t) => q.method === 'tools/call' && q.target === t) ||
      b.maxMs.some((l) => maxMsMatches(l.key, q) && ms !== undefined && ms > l.ms);
    if (matters) {
      this.keep(q);
      return;
    }
    this.ordinal.delete(q);
    const o = this.facts.omitted!;
    o.requests++;
    if (b.maxMs.length === 0) return;
    // one count per flag, even when the same flag is given twice
    for (const flag of new Set(b.maxMs.filter((l) => maxMsMatches(l.key, q)).map((l) => `${l.key}=${l.ms}`))) {
      o.maxMsMatched.set(flag, (o.maxMsMatched.get(flag) ?? 0) + 1);
    }
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
    if (!q) return;
    const a: AnswerFact = { seq: at.seq, line: at.line, kind, isError };
    if (typeof ms === 'number' && Number.isFinite(ms)) a.ms = ms;
    if (kind === 'error' && isObj(msg) && isObj(msg['error'])) {
      const e = msg['error'];
      a.error = {
        ...(typeof e['code'] === 'number' ? { code: e['code'] } : {}),
        ...(typeof e['message'] === 'string' ? { message: e['message'] } : {}),
      };
    }
    q.answer = a;
    if (typeof r.taskId === 'string' && typeof r.taskOf !== 'number') {
      // a CreateTaskResult: the request waits for its task (taskRecord settles it)
      q.task = { taskId: r.taskId, status: typeof r.taskStatus === 'string' ? r.taskStatus : 'working', ended: false, callTime: r.time - (a.ms ?? 0) };
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
