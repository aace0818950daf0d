/**
 * Issue 28 §1 meets §3: a bounded check of a session of task calls counts what it leaves out by the
 * task's outcome. A call answered with a CreateTaskResult is done when its task ends: `task-failed`
 * (its own rule, category errors) when the task fails, `cancelled` when it is cancelled, `is-error` when
 * its final result is, `task-running` when the session ends first, and --max-ms judges the task's
 * duration (a running task once it has run longer than the limit). With far more failed tasks than the
 * per-rule bound, the bounded check lists the first of each and reaches the summary (tasks,
 * tasksRunning, errors with task-failed, answered), verdict, assertion outcomes and per-rule counts of
 * an unbounded one — also when the calls wait compactly (waiting.ts) and when more tasks are open at
 * once than readers keep state for (TaskCalls drops the oldest the same way in both). Records from the
 * real Session (test/unit/helpers/session-harness.ts), but for the last case, written by hand to the
 * log format's Tasks section.
 */
import { describe, expect, it } from 'vitest';
import type { Assertions } from '../../src/check/assertions.js';
import { evaluate } from '../../src/check/evaluate.js';
import { SessionGatherer } from '../../src/check/gather.js';
import type { GatherBound } from '../../src/check/facts.js';
import { renderText } from '../../src/check/render-text.js';
import type { CheckReport } from '../../src/check/report.js';
import type { LogRecord } from '../../src/log/record.js';
import { TASK_CALLS } from '../../src/log/task-records.js';
import { err, handshake, harness, note, req, res } from './helpers/session-harness.js';

const task = (taskId: string, status: string) => ({ taskId, status, createdAt: '2025-11-25T10:30:00Z', lastUpdatedAt: '2025-11-25T10:30:00Z', ttl: 60000, pollInterval: 100 });
const related = (taskId: string) => ({ _meta: { 'io.modelcontextprotocol/related-task': { taskId } } });

type Outcome = 'error' | 'running' | 'cancelled' | 'is-error' | 'completed' | 'failed';

/** What call `i` comes to: mostly failed tasks, then the other outcomes spread over the session. */
function outcomeOf(i: number): Outcome {
  if (i % 17 === 0) return 'error'; // a plain JSON-RPC error, no task
  if (i % 13 === 0) return 'running';
  if (i % 7 === 0) return 'cancelled';
  if (i % 5 === 0) return 'is-error';
  if (i % 4 === 0) return 'completed';
  return 'failed';
}

/** Ends call `i`'s task (or answers it with an error) at `t`, after `dur` ms of task. */
function end(h: ReturnType<typeof harness>, i: number, t: number, dur: number): void {
  const id = `T${i}`;
  switch (outcomeOf(i)) {
    case 'running':
      return;
    case 'cancelled':
      h.send('server', note('notifications/tasks/status', task(id, 'cancelled')), t + dur);
      return;
    case 'is-error':
      h.send('client', req(200_000 + i, 'tasks/result', { taskId: id }), t + dur - 1);
      h.send('server', res(200_000 + i, { content: [{ type: 'text', text: 'no' }], isError: true, ...related(id) }), t + dur);
      return;
    default:
      h.send('server', note('notifications/tasks/status', task(id, outcomeOf(i))), t + dur);
  }
}

/** The answer to call `i`: a CreateTaskResult, or for an `error` call a JSON-RPC error. */
function answer(h: ReturnType<typeof harness>, i: number, t: number): void {
  if (outcomeOf(i) === 'error') h.send('server', err(i, -32603, 'boom'), t);
  else h.send('server', res(i, { task: task(`T${i}`, 'working') }), t);
}

const call = (i: number) => req(i, 'tools/call', { name: i % 11 === 0 ? 'bad' : 'work', arguments: {}, task: { ttl: 60000 } });

/** N task calls one after the other; each fifth polled with tasks/get; task durations 2–9 ms. */
function sequential(n: number): LogRecord[] {
  const h = handshake(harness());
  for (let i = 1; i <= n; i++) {
    const t = i * 20;
    h.send('client', call(i), t);
    answer(h, i, t + 1);
    if (outcomeOf(i) === 'error') continue;
    if (i % 5 === 0) {
      h.send('client', req(100_000 + i, 'tasks/get', { taskId: `T${i}` }), t + 1.5);
      h.send('server', res(100_000 + i, task(`T${i}`, 'working')), t + 1.6);
    }
    end(h, i, t, 2 + (i % 8));
  }
  h.finish(n * 20 + 50);
  return h.records;
}

/** N task calls sent before any answer; answers in reverse order; then the tasks end, oldest first. */
function flood(n: number): LogRecord[] {
  const h = handshake(harness());
  for (let i = 1; i <= n; i++) h.send('client', call(i), i);
  for (let i = n; i >= 1; i--) answer(h, i, 2 * n - i);
  for (let i = 1; i <= n; i++) if (outcomeOf(i) !== 'error') end(h, i, 2 * n, 1 + (i % 8));
  h.finish(3 * n + 100);
  return h.records;
}

const ASSERT: Assertions = { maxMs: [{ key: 'tools/call', ms: 5 }], expectTools: [], forbidTools: ['bad'] };
const PER = 20;

function check(records: readonly LogRecord[], bound?: Partial<GatherBound>): CheckReport {
  const g = new SessionGatherer('tasks.log', records[0]!.session, bound ? { listed: 50, maxMs: ASSERT.maxMs, forbidTools: ASSERT.forbidTools, perRule: PER, ...bound } : undefined);
  records.forEach((record, i) => g.add({ record, line: i + 1 }));
  return evaluate(g.finish(), { assertions: ASSERT, perRule: bound ? PER : Infinity });
}

/** Results per key (the rule, with the error code for jsonrpc-error): listed plus counted. */
function perKey(r: CheckReport): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of r.problems) {
    const k = p.ruleId === 'jsonrpc-error' ? `${p.ruleId} ${r.requests[p.request!]!.error?.code}` : p.ruleId;
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  for (const o of r.omittedResults) {
    const k = o.ruleId + (o.errorCode !== undefined ? ` ${o.errorCode}` : '');
    m.set(k, (m.get(k) ?? 0) + o.count);
  }
  return m;
}

/** Requests by status: listed plus those left out. */
function byStatus(r: CheckReport): Map<string, number> {
  const m = new Map<string, number>();
  for (const q of r.requests) m.set(q.status, (m.get(q.status) ?? 0) + 1);
  for (const [s, n] of Object.entries(r.omittedRequestsByStatus)) m.set(s, (m.get(s) ?? 0) + n!);
  return m;
}

/** How many of calls 1..n come to `o`. */
const calls = (n: number, o: Outcome): number => Array.from({ length: n }, (_, i) => outcomeOf(i + 1)).filter((x) => x === o).length;

function expectSameVerdict(bounded: CheckReport, whole: CheckReport): void {
  expect(whole.omittedResults).toEqual([]);
  expect(bounded.summary).toEqual(whole.summary);
  expect(bounded.failed).toEqual(whole.failed);
  expect(bounded.assertions).toEqual(whole.assertions);
  expect(perKey(bounded)).toEqual(perKey(whole));
  expect(byStatus(bounded)).toEqual(byStatus(whole));
}

describe('bounded check of a session of failing task calls', () => {
  const N = 3000;
  const records = sequential(N);
  const whole = check(records);
  const bounded = check(records, {});

  it('judges every call by its task, in the unbounded check', () => {
    const st = byStatus(whole);
    expect(st.get('task-failed')).toBe(calls(N, 'failed'));
    expect(st.get('task-running')).toBe(calls(N, 'running'));
    // the call, and the tasks/result request whose answer carried the isError result
    expect(st.get('is-error')).toBe(2 * calls(N, 'is-error'));
    expect(st.get('error')).toBe(calls(N, 'error'));
    // cancelled tasks; ok: completed tasks, the tasks/get and tasks/result calls and initialize
    expect(st.get('cancelled')).toBe(calls(N, 'cancelled'));
    expect(whole.summary).toMatchObject({
      tasks: N - calls(N, 'error'),
      tasksRunning: calls(N, 'running'),
      errors: calls(N, 'failed') + calls(N, 'error'),
    });
  });

  it('lists the first failed tasks and reaches the summary, verdict and assertions of the unbounded check', () => {
    expectSameVerdict(bounded, whole);
    expect(bounded.problems.filter((p) => p.ruleId === 'task-failed')).toHaveLength(PER);
    expect(bounded.omittedResults.find((o) => o.ruleId === 'task-failed')).toEqual({ ruleId: 'task-failed', category: 'errors', count: calls(N, 'failed') - PER });
    expect(bounded.requests.length).toBeLessThan(50 + 10 * PER);
    expect(bounded.omittedRequestsByStatus['task-failed']).toBeGreaterThan(calls(N, 'failed') - 2 * PER);
    // --max-ms on the tasks' durations: the slow failed and completed ones, and every running one
    const maxMs = perKey(whole).get('max-ms-exceeded')!;
    expect(maxMs).toBeGreaterThan(calls(N, 'running'));
    expect(bounded.assertions[0]).toMatchObject({ flag: '--max-ms tools/call=5', failures: maxMs, passed: false });
  });

  it('says in text how many task-failed results it counted but did not list', () => {
    expect(renderText(bounded)).toContain(`… and ${(calls(N, 'failed') - PER).toLocaleString('en-US')} more task-failed results`);
  });
});

describe('bounded check of task calls that wait compactly', () => {
  it('counts each call once its task ends, or as running at the end: the same verdict as unbounded', () => {
    const N = 3000;
    const records = flood(N);
    const whole = check(records);
    const bounded = check(records, { waitingWhole: 100 });
    expectSameVerdict(bounded, whole);
    expect(whole.summary.tasks).toBe(N - calls(N, 'error'));
    expect(whole.summary.tasksRunning).toBe(calls(N, 'running'));
    expect(bounded.requests.length).toBeLessThan(50 + 100 + 10 * PER);
  });
});

describe('more task calls open at once than readers keep state for', () => {
  /** Hand-written records (docs/log-format.md, Tasks): N calls, N CreateTaskResults, then N failed statuses. */
  function manyOpen(n: number): LogRecord[] {
    const recs: LogRecord[] = [];
    const add = (r: Partial<LogRecord>) => recs.push({ v: 1, time: 1000 + recs.length, session: 'm', seq: recs.length + 1, ...r } as LogRecord);
    add({ from: 'proxy', kind: 'event', event: 'start', name: 'many', command: 'node', args: [] });
    const seqOf: number[] = [];
    for (let i = 1; i <= n; i++) {
      seqOf[i] = recs.length + 1;
      add({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: 'work' });
    }
    for (let i = 1; i <= n; i++) add({ from: 'server', kind: 'response', id: i, method: 'tools/call', reqSeq: seqOf[i]!, ms: 1, taskId: `T${i}`, taskStatus: 'working' });
    for (let i = 1; i <= n; i++) {
      const status = i % 3 === 0 ? 'completed' : 'failed';
      add({ from: 'server', kind: 'notification', method: 'notifications/tasks/status', taskId: `T${i}`, taskOf: seqOf[i]!, taskStatus: status, taskMs: 2 * n + 10 });
    }
    add({ from: 'proxy', kind: 'event', event: 'end', pending: [] });
    return recs;
  }

  it('forgets the same oldest tasks as an unbounded check and counts them as running', () => {
    const n = TASK_CALLS + 1500;
    const records = manyOpen(n);
    const whole = check(records);
    const bounded = check(records, { waitingWhole: 100 });
    expectSameVerdict(bounded, whole);
    // the 1,500 oldest were forgotten before their status came: still running, as far as a reader knows
    expect(whole.summary.tasksRunning).toBe(1500);
    expect(whole.summary.tasks).toBe(n);
  });
});
