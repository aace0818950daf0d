/**
 * The replay as a state machine with its edges injected: lines from the server go in (`onLine`), lines
 * for the server come out, the clock is a function and deadlines are polled (`nextDeadline`/`onTick`),
 * so unit tests drive a whole replay in memory. run-replay.ts connects it to a real server.
 *
 * Ids: client requests go out with their recorded ids (a server bug may depend on an id's type or
 * value); only an id that is still awaiting its answer in this replay gets a fresh one of the same type,
 * and a recorded `notifications/cancelled` follows the remapping. The server's requests are answered
 * under the ids the live server chose (server-requests.ts). Answers are compared without their ids.
 *
 * Memory stays bounded whatever the session holds: the plan's lines are made as they are sent, a request
 * is held only until its answer is in and compared (or given up on), and the report keeps only its first
 * entries, counting the rest (report-rows.ts). Requests the replay no longer waits for but an answer may
 * still come to (given up on, or unanswered in the recording) count toward MAX_OUTSTANDING.
 */
import type { JsonRpcId } from '../log/record.js';
import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { compareMessages, type CompareOptions } from './compare.js';
import { idKey, type RecMsg } from './recorded.js';
import type { PlanStep, ReplayPlan, SendUnit } from './plan.js';
import { ReportRows } from './report-rows.js';
import { entryFields, type ReplayEntry, type ReplayResult } from './result.js';
import { ServerRequests } from './server-requests.js';
import { NO_MESSAGE, recordLargerAdvice } from './shortened.js';

export interface EngineOptions {
  /** How long to wait for an answer; a request that took long in the recording gets twice its recorded time. */
  timeoutMs: number;
  compare: Omit<CompareOptions, 'shortened'>;
  now: () => number;
}

interface Pending {
  rec: RecMsg;
  liveId: JsonRpcId;
  sentAt: number;
  deadline: number;
  expected: RecMsg | undefined;
  settled: boolean;
  entry: ReplayEntry;
  /** Where the entry sorts among entries of the same seq (a batch's). */
  ticket: number;
}

const MAX_SAMPLES = 3;
/**
 * Requests sent and not done with (awaiting their answer, or kept for one that may still come): at most
 * this many (a few hundred bytes each). A session that pipelined more waits for room: answers, requests
 * given up on, and requests the recording has no answer to either, dropped (as unanswered) once they
 * waited --timeout.
 */
export const MAX_OUTSTANDING = 10_000;

function shortText(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export class ReplayEngine {
  private readonly steps: Iterator<PlanStep>;
  /** The next line to send; undefined: not made yet; null: none left. */
  private upcoming: SendUnit | null | undefined;
  private readonly live = new Map<string, Pending>();
  /** Requests sent and not settled (answered, given up on). */
  private readonly inFlight = new Map<RecMsg, Pending>();
  /** Requests cancelled in the recording: the id each went out with, for the cancel. */
  private readonly cancelIds = new Map<RecMsg, JsonRpcId>();
  /** Pendings kept only for an answer that may still come, oldest first. */
  private readonly lingering = new Set<Pending>();
  private readonly requestState = new Map<string, string>();
  private readonly serverRequests: ServerRequests;
  private readonly rows = new ReportRows();
  private readonly notifications: Record<string, number> = {};
  private readonly noiseSamples: string[] = [];
  private noise = 0;
  private stray = 0;
  private fresh = 0;
  private readonly maxNumericId: number;
  private exited: { code: number | null; signal: string | null } | undefined;
  private endWaitUntil: number | undefined;
  private lastOrder = 0;
  private heard = false;

  constructor(
    private readonly plan: ReplayPlan,
    private readonly opts: EngineOptions,
  ) {
    this.serverRequests = new ServerRequests(plan, opts.compare);
    let max = 0;
    for (const m of plan.session.messages) if (typeof m.id === 'number' && m.id > max) max = m.id;
    this.maxNumericId = Math.floor(max);
    this.steps = plan.steps();
  }

  private add(entry: ReplayEntry, order: number, ticket?: number): void {
    this.rows.add(entry, order, ticket);
  }

  private notReplayed(m: RecMsg): void {
    this.add(
      {
        type: m.kind === 'request' ? 'answer' : 'notification',
        status: 'not-replayed',
        failed: false,
        seq: m.seq,
        ...entryFields(m),
        notes: [
          m.truncated
            ? `not replayed: the log holds only a shortened copy of this ${m.kind === 'invalid' ? 'line' : m.kind}${m.bytes !== undefined ? ` (${m.bytes} bytes on the wire)` : ''}, so it cannot be sent as it was; ${recordLargerAdvice(m.bytes)}`
            : `not replayed: the log's record of this ${m.kind === 'invalid' ? 'line' : m.kind} ${NO_MESSAGE}`,
        ],
      },
      m.seq,
    );
  }

  /** The next line to send, made from the plan (lines the log shortened are reported on the way); undefined when none is left. */
  private peek(): SendUnit | undefined {
    while (this.upcoming === undefined) {
      const r = this.steps.next();
      if (r.done) this.upcoming = null;
      else if ('send' in r.value) this.upcoming = r.value.send;
      else for (const m of r.value.notReplayed) this.notReplayed(m);
    }
    return this.upcoming ?? undefined;
  }

  /** A request's entry is final: reported, and the request forgotten. */
  private done(p: Pending): void {
    this.live.delete(idKey(p.liveId));
    this.lingering.delete(p);
    this.inFlight.delete(p.rec);
    this.add(p.entry, p.rec.seq, p.ticket);
  }

  /** Keeps `p` for a late answer (the oldest such requests go first when room is needed). */
  private linger(p: Pending): void {
    this.lingering.add(p);
  }

  private outstanding(): number {
    return this.inFlight.size + this.lingering.size;
  }

  /**
   * Whether another request may go out: below MAX_OUTSTANDING, after forgetting requests given up on and
   * (from `now` on, when given) those unanswered in the recording that waited the timeout.
   */
  private room(now?: number): boolean {
    if (this.outstanding() < MAX_OUTSTANDING) return true;
    for (const p of this.lingering) {
      if (!p.settled) {
        if (now === undefined || p.sentAt + this.opts.timeoutMs > now) continue;
        this.markUnanswered(p);
      }
      this.done(p);
      if (this.outstanding() < MAX_OUTSTANDING) return true;
    }
    return false;
  }

  /** When the oldest request unanswered in the recording may be forgotten to make room. */
  private roomDeadline(): number | undefined {
    let d: number | undefined;
    for (const p of this.lingering) if (!p.settled && (d === undefined || p.sentAt + this.opts.timeoutMs < d)) d = p.sentAt + this.opts.timeoutMs;
    return d;
  }

  private markUnanswered(p: Pending): void {
    p.entry.status = 'unanswered';
    p.entry.failed = false;
    p.entry.notes.push('no answer, as in the recording');
  }

  /** Lines to send now (the first lines of the session). */
  start(): string[] {
    return this.pump();
  }

  private settledFor(r: RecMsg): boolean {
    return !this.inFlight.has(r);
  }

  private pump(now?: number): string[] {
    const out: string[] = [];
    for (let u = this.peek(); u !== undefined && this.exited === undefined; u = this.peek()) {
      if (!u.waitFor.every((r) => this.settledFor(r))) break;
      if (u.items.some((m) => m.kind === 'request') && !this.room(now)) break;
      this.upcoming = undefined;
      out.push(this.send(u));
    }
    this.checkEnd();
    return out;
  }

  private chooseId(id: JsonRpcId): JsonRpcId {
    if (!this.live.has(idKey(id))) return id;
    this.fresh++;
    return typeof id === 'number' ? this.maxNumericId + 1000 + this.fresh : `${String(id)}~replay-${this.fresh}`;
  }

  private send(u: SendUnit): string {
    const now = this.opts.now();
    const msgs: unknown[] = [];
    for (const m of u.items) {
      this.lastOrder = m.seq;
      if (m.kind === 'invalid') {
        if (!u.batch && m.raw !== undefined) return m.raw;
        msgs.push(m.msg);
        continue;
      }
      const msg = structuredClone(m.msg) as JsonObject;
      if (m.kind === 'request') {
        const liveId = this.chooseId(m.id ?? null);
        msg['id'] = liveId;
        this.swapRequestState(msg);
        const expected = this.plan.session.answerOf(m);
        const allowed = Math.max(this.opts.timeoutMs, 2 * (expected?.ms ?? 0));
        const entry: ReplayEntry = {
          type: 'answer',
          status: 'missing',
          failed: false,
          seq: m.seq,
          ...entryFields(m),
          liveId,
          notes: [],
        };
        if (expected) {
          entry.answerSeq = expected.seq;
          if (expected.ms !== undefined) entry.recordedMs = expected.ms;
        }
        if (liveId !== m.id) entry.notes.push(`sent with id ${JSON.stringify(liveId)}: id ${JSON.stringify(m.id)} was still awaiting its answer`);
        if (this.plan.session.cancelled.has(m)) entry.notes.push('the client cancelled this request in the recording; its outcome does not count');
        const p: Pending = { rec: m, liveId, sentAt: now, deadline: now + allowed, expected, settled: false, entry, ticket: this.rows.ticket() };
        this.live.set(idKey(liveId), p);
        if (expected) this.inFlight.set(m, p);
        else this.linger(p); // not waited for
        if (this.plan.session.cancelled.has(m)) this.cancelIds.set(m, liveId);
      } else if (m.method === 'notifications/cancelled') {
        // the cancel goes to the id its request went out with
        const params = msg['params'];
        const target = this.plan.session.cancelTarget(m);
        const to = target ? this.cancelIds.get(target) : undefined;
        if (isObject(params) && to !== undefined) params['requestId'] = to;
      }
      msgs.push(msg);
    }
    return JSON.stringify(u.batch ? msgs : msgs[0]);
  }

  /** 2026-07-28 retries echo the server's opaque requestState: send the one this server handed out. */
  private swapRequestState(msg: JsonObject): void {
    const params = msg['params'];
    if (!isObject(params) || typeof params['requestState'] !== 'string') return;
    const to = this.requestState.get(params['requestState']);
    if (to !== undefined) params['requestState'] = to;
  }

  /** One line the server wrote on stdout; returns the lines to send in reaction. */
  onLine(text: string): string[] {
    this.heard = true;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.noiseLine(text);
      return this.pump();
    }
    const out: string[] = [];
    for (const el of Array.isArray(value) ? value : [value]) {
      const line = this.onMessage(el, text);
      if (line !== undefined) out.push(line);
    }
    out.push(...this.pump());
    return out;
  }

  /** A line longer than the replay keeps: the answer it carries (found in its shortened copy) is not compared. */
  onOversized(shortened: unknown, bytes: number): string[] {
    this.heard = true;
    if (isObject(shortened) && ('result' in shortened || 'error' in shortened)) {
      const p = this.live.get(idKey(shortened['id']));
      if (p && !p.settled) {
        this.settle(p);
        p.entry.status = 'different';
        p.entry.failed = !this.plan.session.cancelled.has(p.rec);
        p.entry.notes.push(`the answer was ${bytes} bytes, more than the replay holds; not compared`);
        this.linger(p); // as before: a later answer with this id still counts as its answer
      }
    } else this.noiseLine(`(a line of ${bytes} bytes)`);
    return this.pump();
  }

  private noiseLine(text: string): void {
    this.noise++;
    if (this.noiseSamples.length < MAX_SAMPLES) this.noiseSamples.push(shortText(text));
  }

  private onMessage(el: unknown, text: string): string | undefined {
    if (!isObject(el)) {
      this.noiseLine(text);
      return undefined;
    }
    if (typeof el['method'] === 'string') {
      if ('id' in el && el['id'] !== undefined) {
        const { reply, row } = this.serverRequests.onRequest(el, el['method'], this.lastOrder + 0.5);
        if (row) this.add(row.entry, row.order);
        return reply;
      }
      this.notifications[el['method']] = (this.notifications[el['method']] ?? 0) + 1;
      return undefined;
    }
    if ('result' in el || 'error' in el) {
      this.answer(el);
      return undefined;
    }
    this.noiseLine(text);
    return undefined;
  }

  private settle(p: Pending): void {
    p.settled = true;
    this.inFlight.delete(p.rec);
    p.entry.ms = Math.round((this.opts.now() - p.sentAt) * 1000) / 1000;
  }

  private answer(el: JsonObject): void {
    const p = this.live.get(idKey(el['id']));
    if (!p) {
      this.stray++;
      return;
    }
    this.judge(p, el);
    this.done(p);
  }

  /** Sets the entry of `p` from its answer `el`. */
  private judge(p: Pending, el: JsonObject): void {
    const late = p.settled;
    this.settle(p);
    const e = p.entry;
    if (late) e.notes.push(`answered after ${e.ms} ms, past the ${p.deadline - p.sentAt} ms the replay waited`);
    const counts = !this.plan.session.cancelled.has(p.rec);
    const exp = p.expected;
    if (!exp) {
      e.status = 'answered';
      e.failed = false;
      e.notes.push('the recording has no answer to this request');
      return;
    }
    if (exp.msg === undefined) {
      e.status = 'different';
      e.failed = counts;
      e.notes.push('the recorded answer was not JSON; nothing to compare with');
      return;
    }
    const cmp = compareMessages(exp.msg, el, { ...this.opts.compare, shortened: exp.truncated });
    e.status = cmp.differences.length === 0 ? 'same' : 'different';
    e.failed = counts && cmp.differences.length > 0;
    if (cmp.differences.length > 0) e.differences = cmp.differences;
    if (cmp.ignored > 0) e.ignored = cmp.ignored;
    if (cmp.partial) {
      e.partial = true;
      e.notes.push(`compared as far as the log shows: it holds a shortened copy of the recorded answer${exp.bytes !== undefined ? ` (${exp.bytes} bytes)` : ''}; ${recordLargerAdvice(exp.bytes)}`);
    }
    // a 2026-07-28 input_required answer hands out a requestState the retry must echo
    const rs = isObject(exp.msg) && isObject(exp.msg['result']) ? exp.msg['result']['requestState'] : undefined;
    const live = isObject(el['result']) ? el['result']['requestState'] : undefined;
    if (typeof rs === 'string' && typeof live === 'string') this.requestState.set(rs, live);
  }

  /** Deadlines that passed: answers given up on. Returns lines that may now be sent. */
  onTick(): string[] {
    const now = this.opts.now();
    for (const p of this.inFlight.values()) {
      if (p.deadline > now) continue;
      this.settle(p);
      p.entry.status = 'missing';
      p.entry.failed = !this.plan.session.cancelled.has(p.rec);
      p.entry.notes.push(`no answer within ${p.deadline - p.sentAt} ms`);
      this.linger(p);
    }
    return this.pump(now);
  }

  /** The server (mcp-tap in front of it) exited: nothing more will come. */
  onExit(code: number | null, signal: string | null): void {
    this.exited = { code, signal };
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    for (const p of this.live.values()) {
      if (p.settled || p.expected === undefined) continue;
      this.settle(p);
      p.entry.status = 'missing';
      p.entry.failed = !this.plan.session.cancelled.has(p.rec);
      p.entry.notes.push(`the server ${how} before answering`);
    }
    for (let u = this.peek(); u !== undefined; this.upcoming = undefined, u = this.peek()) {
      for (const m of u.items) {
        if (m.kind !== 'request') continue;
        const expected = this.plan.session.answerOf(m);
        this.add(
          {
            type: 'answer',
            status: expected ? 'missing' : 'unanswered',
            failed: expected !== undefined && !this.plan.session.cancelled.has(m),
            seq: m.seq,
            ...entryFields(m),
            notes: [`not sent: the server ${how} earlier`],
          },
          m.seq,
        );
      }
    }
  }

  private waitingForAnswers(): boolean {
    return this.inFlight.size > 0;
  }

  private checkEnd(): void {
    if (this.exited || this.endWaitUntil !== undefined) return;
    if (this.peek() !== undefined || this.waitingForAnswers()) return;
    if (this.serverRequests.missing().length > 0) this.endWaitUntil = this.opts.now() + this.opts.timeoutMs;
  }

  /** True when the replay has nothing left to send or wait for. */
  get finished(): boolean {
    if (this.exited) return true;
    if (this.peek() !== undefined || this.waitingForAnswers()) return false;
    if (this.serverRequests.missing().length === 0) return true;
    return this.endWaitUntil !== undefined && this.opts.now() >= this.endWaitUntil;
  }

  /** When onTick should run next (epoch ms of the clock), or undefined when nothing is timed. */
  nextDeadline(): number | undefined {
    let d: number | undefined;
    for (const p of this.inFlight.values()) {
      if (d === undefined || p.deadline < d) d = p.deadline;
    }
    if (this.endWaitUntil !== undefined && (d === undefined || this.endWaitUntil < d)) d = this.endWaitUntil;
    if (this.upcoming && this.outstanding() >= MAX_OUTSTANDING) {
      const r = this.roomDeadline();
      if (r !== undefined && (d === undefined || r < d)) d = r;
    }
    return d;
  }

  /** Whether anything came from the server at all (to tell a server that never started from one that broke). */
  get heardFromServer(): boolean {
    return this.heard;
  }

  /** The result so far; call when finished (and after the server's exit is known, if it is). */
  result(serverExit?: { code: number | null; signal: string | null }): ReplayResult {
    const rows = this.rows.copy();
    for (const p of this.live.values()) {
      if (!p.settled && p.expected === undefined) this.markUnanswered(p);
      rows.add(p.entry, p.rec.seq, p.ticket);
    }
    if (this.plan.mode === 'all' || this.plan.expectedServerRequests.length > 0) {
      for (const m of this.serverRequests.missing()) {
        rows.add(
          {
            type: 'server-request',
            status: 'missing',
            failed: true,
            seq: m.seq,
            ...entryFields(m),
            notes: ['the server did not make this request in the replay'],
          },
          m.seq,
        );
      }
    }
    if (this.noise > this.plan.recordedStdoutNoise) {
      rows.add(
        {
          type: 'stdout',
          status: 'different',
          failed: true,
          notes: [
            `the server wrote ${this.noise} line(s) on stdout that are not JSON-RPC (the recording has ${this.plan.recordedStdoutNoise}); hosts reject them. First: ${this.noiseSamples.map((s) => JSON.stringify(s)).join(', ')}`,
          ],
        },
        Number.MAX_SAFE_INTEGER,
      );
    }
    const { entries, summary, notListed, failed } = rows.report();
    const exit = serverExit ?? this.exited;
    const result: ReplayResult = {
      session: this.plan.session.id,
      mode: this.plan.mode,
      entries,
      summary,
      ...(notListed ? { notListed } : {}),
      notifications: { recorded: this.plan.recordedNotifications, replayed: { ...this.notifications } },
      stdoutNoise: { recorded: this.plan.recordedStdoutNoise, replayed: this.noise, samples: [...this.noiseSamples] },
      strayAnswers: this.stray,
      serverPings: this.serverRequests.pings,
      failed,
    };
    if (exit) result.serverExit = { ...exit, early: this.exited !== undefined };
    return result;
  }
}
