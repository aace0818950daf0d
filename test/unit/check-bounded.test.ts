/**
 * Bounded gathering (check on a long session): with only the first `listed` requests kept whole and the
 * passing rest counted, evaluate reaches the same verdict, summary, results and assertion outcomes as
 * with every request kept; the report lists the first requests and every one that did not pass. Listed
 * requests still waiting (unanswered, or their task running) use up the room of their reason; at most
 * 20,000 failing requests are kept in all, however many error codes share them.
 */
import { describe, expect, it } from 'vitest';
import type { Assertions } from '../../src/check/assertions.js';
import { evaluate } from '../../src/check/evaluate.js';
import { SessionGatherer } from '../../src/check/gather.js';
import type { GatherBound } from '../../src/check/facts.js';
import type { CheckReport } from '../../src/check/report.js';
import type { LogRecord } from '../../src/log/record.js';

type Rec = Partial<LogRecord> & { from: LogRecord['from']; kind: LogRecord['kind'] };

/** initialize, a refused probe, then 40 tools/call: #7 errors, #13 isError, #20 slow, #25 calls "bad", #31 cancelled unanswered, #33 unanswered. */
function session(): Rec[] {
  const recs: Rec[] = [
    { from: 'proxy', kind: 'event', event: 'start', name: 'demo', command: 'node', args: [], pid: 7 },
    { from: 'client', kind: 'request', id: 0, method: 'initialize' },
    { from: 'server', kind: 'response', id: 0, method: 'initialize', reqSeq: 2, ms: 3, msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'demo', version: '1' } } } },
  ];
  for (let i = 1; i <= 40; i++) {
    const reqSeq = recs.length + 1;
    recs.push({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: i === 25 ? 'bad' : 'echo' });
    if (i === 31) {
      recs.push({ from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq });
      continue;
    }
    if (i === 33) continue;
    const ms = i === 20 ? 900 : 1 + (i % 5);
    if (i === 7) recs.push({ from: 'server', kind: 'error', id: i, reqSeq, ms, msg: { jsonrpc: '2.0', id: i, error: { code: -32603, message: 'boom' } } });
    else recs.push({ from: 'server', kind: 'response', id: i, reqSeq, ms, ...(i === 13 ? { isError: true } : {}) });
  }
  recs.push({ from: 'proxy', kind: 'event', event: 'stdin-closed' }, { from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null }, { from: 'proxy', kind: 'event', event: 'end', pending: [] });
  return recs;
}

const ASSERT: Assertions = { maxMs: [{ key: 'tools/call', ms: 500 }, { key: 'tools/call', ms: 500 }, { key: 'echo', ms: 4.5 }, { key: '*', ms: 1000 }], expectTools: [], forbidTools: ['bad'] };

function check(bound?: GatherBound): CheckReport {
  const g = new SessionGatherer('x.log', 's', bound);
  session().forEach((r, i) => g.add({ record: { v: 1, time: 1000 + i, session: 's', seq: i + 1, ...r } as LogRecord, line: i + 1 }));
  return evaluate(g.finish(), { assertions: ASSERT });
}

/** Results with the request they concern named by its seq (indexes differ between the two lists). */
const results = (r: CheckReport) => r.problems.map((p) => ({ ...p, request: p.request !== undefined ? r.requests[p.request]!.seq : undefined }));

describe('bounded gathering', () => {
  const whole = check();
  const bounded = check({ listed: 5, maxMs: ASSERT.maxMs, forbidTools: ASSERT.forbidTools });

  it('reaches the same verdict, summary, results and assertion outcomes', () => {
    expect(bounded.passed).toBe(false);
    expect(bounded.failed).toEqual(whole.failed);
    expect(bounded.summary).toEqual(whole.summary);
    expect(results(bounded)).toEqual(results(whole));
    expect(bounded.assertions).toEqual(whole.assertions);
    expect(bounded.summary).toMatchObject({ requests: 41, answered: 39, errors: 1, isError: 1, unanswered: 1, cancelled: 1 });
  });

  it('lists the first requests and every one that did not pass, in log order, and counts the rest', () => {
    const ids = bounded.requests.map((q) => q.id);
    // first 5 (initialize, 1-4); then errored 7, isError 13, the 4.5 ms breaks (9, 14, 19, 24...), slow 20, forbidden 25, cancelled 31, unanswered 33
    const over = (i: number) => 1 + (i % 5) > 4.5;
    const expected = [0, 1, 2, 3, 4, ...Array.from({ length: 36 }, (_, k) => k + 5).filter((i) => [7, 13, 20, 25, 31, 33].includes(i) || over(i))];
    expect(ids).toEqual(expected);
    expect(bounded.omittedRequests).toBe(41 - expected.length);
    expect(whole.omittedRequests).toBe(0);
    expect(whole.requests).toHaveLength(41);
    expect(bounded.requests).toEqual(whole.requests.filter((q) => expected.includes(q.id as number)));
  });
});

describe('bounded gathering: how the listed requests share the room of their reasons', () => {
  /** A session of `recs`, gathered with `bound`, judged. */
  function judge(recs: Rec[], bound: GatherBound): CheckReport {
    const g = new SessionGatherer('x.log', 's', bound);
    recs.forEach((r, i) => g.add({ record: { v: 1, time: 1000 + i, session: 's', seq: i + 1, ...r } as LogRecord, line: i + 1 }));
    return evaluate(g.finish(), { assertions: { maxMs: [], expectTools: [], forbidTools: [] } });
  }
  const none = { maxMs: [], forbidTools: [] };
  const start: Rec = { from: 'proxy', kind: 'event', event: 'start', name: 'd', command: 'node', args: [], pid: 1 };

  it('listed requests left unanswered use up the room of unanswered ones: later ones are only counted', () => {
    const recs: Rec[] = [start];
    for (let i = 1; i <= 5; i++) recs.push({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: 'echo' });
    const r = judge(recs, { listed: 3, perRule: 2, ...none });
    expect(r.requests.map((q) => q.id)).toEqual([1, 2, 3]);
    expect(r.omittedRequests).toBe(2);
    expect(r.summary).toMatchObject({ requests: 5, unanswered: 5 });
  });

  it('listed task calls whose tasks still run use up the room of running tasks: later ones are only counted', () => {
    const recs: Rec[] = [start];
    for (let i = 1; i <= 4; i++) {
      recs.push({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: 'slow' });
      recs.push({ from: 'server', kind: 'response', id: i, method: 'tools/call', reqSeq: recs.length, ms: 1, taskId: `T${i}`, taskStatus: 'working' });
    }
    const r = judge(recs, { listed: 2, perRule: 2, ...none });
    expect(r.requests.map((q) => [q.id, q.status])).toEqual([
      [1, 'task-running'],
      [2, 'task-running'],
    ]);
    expect(r.omittedRequests).toBe(2);
  });

  it('keeps at most 20,000 failing requests in all, however many error codes share them', () => {
    const recs: Rec[] = [start];
    for (let i = 0; i < 22_000; i++) {
      const code = -32000 - Math.floor(i / 1000);
      recs.push({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: 'echo' });
      recs.push({ from: 'server', kind: 'error', id: i, reqSeq: recs.length, ms: 1, msg: { jsonrpc: '2.0', id: i, error: { code, message: 'no' } } });
    }
    const r = judge(recs, { listed: 1000, ...none });
    expect(r.requests).toHaveLength(20_000);
    expect(r.omittedRequests).toBe(2000);
    expect(r.summary).toMatchObject({ requests: 22_000, errors: 22_000 });
    // the first twenty codes fill the room in log order; the last two are counted only
    expect(new Set(r.requests.map((q) => q.error?.code)).size).toBe(20);
  });
});
