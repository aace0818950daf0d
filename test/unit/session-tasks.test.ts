/**
 * Tasks are exchanges (issue 28 §3): the call, its CreateTaskResult, every tasks/* request and status
 * notification for its taskId and the final result are linked (`taskId`, `taskOf`), the record that ends
 * the task carries `taskStatus` and `taskMs` (from the call), and a task session has no finding. Shapes
 * as in schema/2025-11-25/schema.ts and the tasks extension (SEP-2663, experimental-ext-tasks schema).
 */
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { err, handshake, harness, meta2026, note, req, res, type Harness } from './helpers/session-harness.js';

const TASK = 'a1b2c3';
const task = (status: string, extra: Record<string, unknown> = {}) => ({
  taskId: TASK,
  status,
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:30:00Z',
  ttl: 60000,
  pollInterval: 100,
  ...extra,
});
const related = { 'io.modelcontextprotocol/related-task': { taskId: TASK } };

/** The members the task tracker writes, of every record. */
const taskMembers = (rs: LogRecord[]) =>
  rs.map((r) => ({ seq: r.seq, method: r.method, ...Object.fromEntries(Object.entries(r).filter(([k]) => k.startsWith('task') || k === 'isError')) }));

/** A 2025-11-25 task-augmented tools/call through to its final result, with an elicitation inside. */
function clientTask(h: Harness): Record<string, LogRecord> {
  const call = h.send('client', req(1, 'tools/call', { name: 'research', arguments: {}, task: { ttl: 60000 } }), 100);
  const ack = h.send('server', res(1, { task: task('working') }), 101);
  const get1 = h.send('client', req(2, 'tasks/get', { taskId: TASK }), 200);
  const got1 = h.send('server', res(2, task('working')), 201);
  const inputNote = h.send('server', note('notifications/tasks/status', task('input_required')), 250);
  const result = h.send('client', req(3, 'tasks/result', { taskId: TASK }), 300);
  const elicit = h.send('server', req(7, 'elicitation/create', { message: 'Which one?', requestedSchema: { type: 'object', properties: {} }, _meta: related }), 301);
  const elicited = h.send('client', res(7, { action: 'accept', content: {}, _meta: related }), 900);
  const doneNote = h.send('server', note('notifications/tasks/status', task('completed')), 4100);
  const final = h.send('server', res(3, { content: [{ type: 'text', text: 'report' }], _meta: related }), 4102);
  return { call, ack, get1, got1, inputNote, result, elicit, elicited, doneNote, final };
}

describe('tasks (2025-11-25)', () => {
  it('links every record of a task to its call; the first terminal status ends it with the task duration', () => {
    const h = handshake(harness());
    const r = clientTask(h);
    const c = r.call!.seq;
    expect(r.ack).toMatchObject({ reqSeq: c, ms: 1, taskId: TASK, taskStatus: 'working' });
    expect(r.ack!.taskOf).toBeUndefined();
    expect(r.ack!.taskMs).toBeUndefined();
    for (const k of ['get1', 'got1', 'inputNote', 'result', 'elicit', 'elicited', 'doneNote', 'final']) {
      expect({ k, taskId: r[k]!.taskId, taskOf: r[k]!.taskOf }).toEqual({ k, taskId: TASK, taskOf: c });
    }
    expect(r.got1).toMatchObject({ taskStatus: 'working' });
    expect(r.inputNote).toMatchObject({ taskStatus: 'input_required' });
    expect(r.inputNote!.taskMs).toBeUndefined();
    expect(r.doneNote).toMatchObject({ taskStatus: 'completed', taskMs: 4000 });
    // the final result after the terminal status: linked, not a second end
    expect(r.final!.taskMs).toBeUndefined();
    expect(r.final!.taskStatus).toBeUndefined();
    expect(h.codes()).toEqual([]);
    expect(h.finish()['openTasks']).toBeUndefined();
  });

  it('a final result that comes before any terminal status ends the task (isError kept)', () => {
    const h = handshake(harness());
    const call = h.send('client', req(1, 'tools/call', { name: 'slow', task: {} }), 0);
    h.send('server', res(1, { task: task('working') }), 1);
    h.send('client', req(2, 'tasks/result', { taskId: TASK }), 2);
    const final = h.send('server', res(2, { content: [], isError: true, _meta: related }), 2500);
    expect(final).toMatchObject({ method: 'tasks/result', ms: 2498, taskOf: call.seq, taskStatus: 'completed', taskMs: 2500, isError: true, level: 40 });
  });

  it('a task that fails (status, or an error as the final result) ends failed, at warn level', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/call', { name: 'slow', task: {} }), 0);
    h.send('server', res(1, { task: task('working') }), 1);
    h.send('client', req(2, 'tasks/get', { taskId: TASK }), 10);
    const failed = h.send('server', res(2, task('failed', { statusMessage: 'boom' })), 30);
    expect(failed).toMatchObject({ taskStatus: 'failed', taskMs: 30, level: 40 });

    const h2 = handshake(harness());
    const call = h2.send('client', req(1, 'tools/call', { name: 'slow', task: {} }), 0);
    h2.send('server', res(1, { task: task('working') }), 1);
    h2.send('client', req(2, 'tasks/result', { taskId: TASK }), 10);
    const error = h2.send('server', err(2, -32603, 'Internal error'), 40);
    expect(error).toMatchObject({ kind: 'error', taskOf: call.seq, taskStatus: 'failed', taskMs: 40 });
    expect(h2.codes()).toEqual([]);
  });

  it('tasks/cancel answered with the cancelled task ends it cancelled', () => {
    const h = handshake(harness());
    const call = h.send('client', req(1, 'tools/call', { name: 'slow', task: {} }), 0);
    h.send('server', res(1, { task: task('working') }), 1);
    h.send('client', req(2, 'tasks/cancel', { taskId: TASK }), 10);
    expect(h.send('server', res(2, task('cancelled')), 12)).toMatchObject({ taskOf: call.seq, taskStatus: 'cancelled', taskMs: 12 });
  });

  it('a task still working at the end is listed as open in the end record', () => {
    const h = handshake(harness());
    const call = h.send('client', req(1, 'tools/call', { name: 'slow', task: {} }), 0);
    h.send('server', res(1, { task: task('working') }), 1);
    h.send('client', req(2, 'tasks/get', { taskId: TASK }), 10);
    h.send('server', res(2, task('input_required')), 12);
    const end = h.finish(20);
    expect(end).toMatchObject({ pendingCount: 0, openTaskCount: 1, openTasks: [{ from: 'client', id: 1, method: 'tools/call', seq: call.seq, taskId: TASK, status: 'input_required' }] });
  });

  it('server-side tasks (a task-augmented sampling request the client runs) are linked the same way', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/call', { name: 'ask-later' }), 0);
    const ask = h.send('server', req(0, 'sampling/createMessage', { task: { ttl: 1000 }, messages: [], maxTokens: 5 }), 1);
    const ack = h.send('client', res(0, { task: task('working') }), 2);
    const poll = h.send('server', req(1, 'tasks/get', { taskId: TASK }), 30);
    const polled = h.send('client', res(1, task('working')), 31);
    const status = h.send('client', note('notifications/tasks/status', task('completed')), 150);
    h.send('server', req(2, 'tasks/result', { taskId: TASK }), 160);
    const final = h.send('client', res(2, { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm', _meta: related }), 161);
    expect(ack).toMatchObject({ from: 'client', method: 'sampling/createMessage', reqSeq: ask.seq, taskId: TASK, taskStatus: 'working' });
    for (const r of [poll, polled, status, final]) expect(r).toMatchObject({ taskId: TASK, taskOf: ask.seq });
    expect(status).toMatchObject({ taskStatus: 'completed', taskMs: 149 });
    expect(h.codes()).toEqual([]);
  });

  it('keeps the call progress token active for the task and releases it when the task ends', () => {
    const h = handshake(harness());
    const call = h.send('client', req(1, 'tools/call', { name: 'slow', task: {}, _meta: { progressToken: 'p' } }), 0);
    h.send('server', res(1, { task: task('working') }), 1);
    expect(h.send('server', note('notifications/progress', { progressToken: 'p', progress: 1 }), 5)).toMatchObject({ reqSeq: call.seq });
    h.send('server', note('notifications/tasks/status', task('completed')), 9);
    const late = h.send('server', note('notifications/progress', { progressToken: 'p', progress: 2 }), 10);
    expect(late.notes?.map((n) => n.code)).toEqual(['progress-unknown-token']);
  });

  it('does not link tasks/* for an unknown taskId (and notes nothing: task ids outlive sessions)', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/call', { name: 'slow', task: {} }), 0);
    h.send('server', res(1, { task: task('working') }), 1);
    const other = h.send('client', req(2, 'tasks/get', { taskId: 'from-yesterday' }), 2);
    const ans = h.send('server', res(2, task('completed', { taskId: 'from-yesterday' })), 3);
    expect(other.taskOf).toBeUndefined();
    expect(ans.taskOf).toBeUndefined();
    expect(ans.taskMs).toBeUndefined();
    expect(h.codes()).toEqual([]);
  });

  it('bounds the open tasks per side: the oldest are evicted, counted, and still linked while remembered', () => {
    const h = handshake(harness({ maxPending: 4 }));
    const calls: LogRecord[] = [];
    for (let i = 1; i <= 6; i++) {
      calls.push(h.send('client', req(i, 'tools/call', { name: 'slow', task: {} }), i));
      h.send('server', res(i, { task: task('working', { taskId: `t${i}` }) }), i);
    }
    const first = h.send('server', note('notifications/tasks/status', task('completed', { taskId: 't1' })), 100);
    expect(first).toMatchObject({ taskOf: calls[0]!.seq, taskStatus: 'completed', taskMs: 99 });
    const end = h.finish(200);
    expect(end['openTaskCount']).toBe(4);
    expect((end['openTasks'] as Array<{ taskId: string }>).map((t) => t.taskId)).toEqual(['t3', 't4', 't5', 't6']);
    expect(end['tasksEvicted']).toBe(2);
  });

  it('makes the same records on the fast path and the general path', () => {
    const a = handshake(harness({ fastPath: true }));
    const b = handshake(harness({ fastPath: false }));
    clientTask(a);
    clientTask(b);
    a.finish(5000);
    b.finish(5000);
    expect(a.lines).toEqual(b.lines);
    expect(taskMembers(a.records).filter((x) => Object.keys(x).length > 2).length).toBe(9);
  });
});

describe('tasks extension (2026-07-28)', () => {
  const ext = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
  const flat = (status: string, extra: Record<string, unknown> = {}) => {
    const { ttl: _ttl, pollInterval: _p, ...rest } = task(status);
    return { ...rest, ttlMs: 60000, pollIntervalMs: 100, ...extra };
  };

  it('links the flat CreateTaskResult, tasks/get, tasks/update and notifications/tasks/status; the inline result ends the task', () => {
    const h = harness();
    const call = h.send('client', req(1, 'tools/call', { name: 'deploy', arguments: {}, _meta: meta2026(ext) }), 0);
    const ack = h.send('server', res(1, { resultType: 'task', ...flat('working') }), 2);
    h.send('client', req(2, 'tasks/get', { taskId: TASK, _meta: meta2026(ext) }), 100);
    const asks = h.send('server', res(2, { resultType: 'complete', ...flat('input_required', { inputRequests: { name: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object' } } } } }) }), 101);
    const update = h.send('client', req(3, 'tasks/update', { taskId: TASK, inputResponses: { name: { action: 'accept', content: { name: 'x' } } }, _meta: meta2026(ext) }), 200);
    h.send('server', res(3, { resultType: 'complete' }), 201);
    const pushed = h.send('server', note('notifications/tasks/status', flat('working')), 300);
    h.send('client', req(4, 'tasks/get', { taskId: TASK, _meta: meta2026(ext) }), 900);
    const done = h.send('server', res(4, { resultType: 'complete', ...flat('completed', { result: { content: [], isError: true } }) }), 903);
    expect(ack).toMatchObject({ reqSeq: call.seq, taskId: TASK, taskStatus: 'working' });
    expect(asks).toMatchObject({ taskOf: call.seq, taskStatus: 'input_required' });
    expect(update).toMatchObject({ taskOf: call.seq });
    expect(pushed).toMatchObject({ taskOf: call.seq, taskStatus: 'working' });
    expect(done).toMatchObject({ taskOf: call.seq, taskStatus: 'completed', taskMs: 903, isError: true });
    expect(h.codes()).toEqual([]);
  });

  it('keeps the progress token of a call answered with the flat CreateTaskResult', () => {
    const h = harness();
    const call = h.send('client', req(1, 'tools/call', { name: 'deploy', _meta: meta2026({ ...ext, progressToken: 9 }) }), 0);
    h.send('server', res(1, { resultType: 'task', ...flat('working') }), 2);
    const p = h.send('server', note('notifications/progress', { progressToken: 9, progress: 1 }), 3);
    expect(p.notes).toBeUndefined();
    expect(p.reqSeq).toBe(call.seq);
  });
});
