/**
 * The latency medians baseline and diff compare, streamed in bounded memory (src/check/latency-medians.ts):
 * exact nearest-rank medians while the latencies held stay within EXACT_LATENCIES, then the methods or
 * tools with the most answers in a log-bucket histogram, their medians within 1 % of the exact ones;
 * never more than EXACT_LATENCIES latencies held, nor more than MAX_KEYS keys. The gatherer times every
 * request as the baseline did when it kept them all — a task call by its task — whether it keeps the
 * request (check) or not (BASELINE_BOUND), so every fixture log's baseline is what it was.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBaseline } from '../../src/check/baseline.js';
import { BASELINE_BOUND, type GatherBound, type SessionFacts } from '../../src/check/facts.js';
import { SessionGatherer } from '../../src/check/gather.js';
import { EXACT_LATENCIES, LATENCY_RELATIVE_ERROR, LatencyMedians, LogHistogram } from '../../src/check/latency-medians.js';
import { readFacts } from '../../src/check/read-facts.js';
import { MAX_KEYS } from '../../src/log/keep-first.js';
import type { LogRecord } from '../../src/log/record.js';
import { TASK_CALLS } from '../../src/log/task-records.js';
import { percentile } from '../../src/transcript/stats.js';
import { ROOT } from '../helpers/paths.js';
import { taskSession } from './helpers/task-session.js';

const nearestRankMedian = (values: readonly number[]): number => percentile([...values].sort((a, b) => a - b), 50)!;
const relErr = (got: number, want: number): number => Math.abs(got - want) / want;

describe('LogHistogram', () => {
  it('a median within 1 % of the exact nearest-rank one, and within the latencies seen', () => {
    const ms = fc.double({ min: 0.001, max: 1e9, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(fc.array(ms, { minLength: 1, maxLength: 400 }), (values) => {
        const h = new LogHistogram();
        for (const v of values) h.add(v);
        const m = h.median()!;
        expect(h.n).toBe(values.length);
        expect(relErr(m, nearestRankMedian(values))).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR + 1e-9);
        expect(m).toBeGreaterThanOrEqual(Math.min(...values));
        expect(m).toBeLessThanOrEqual(Math.max(...values));
      }),
      { numRuns: 300 },
    );
  });

  it('exact when every latency is the same; below 1 µs counts as 0; empty has none', () => {
    const h = new LogHistogram();
    for (let i = 0; i < 1000; i++) h.add(12.345);
    expect(h.median()).toBe(12.345);
    const z = new LogHistogram();
    for (const v of [0, 0, 0.0004, 5]) z.add(v);
    expect(z.median()).toBe(0);
    expect(new LogHistogram().median()).toBeUndefined();
  });
});

describe('LatencyMedians', () => {
  it('exact nearest-rank medians while the latencies fit', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.double({ min: 0, max: 1e6, noNaN: true })), { maxLength: 300 }), (pairs) => {
        const m = new LatencyMedians(300);
        for (const [k, v] of pairs) m.add(k, v);
        const want = new Map<string, number[]>();
        for (const [k, v] of pairs) want.set(k, [...(want.get(k) ?? []), v]);
        expect(new Map([...m.stats()].map(([k, s]) => [k, s]))).toEqual(new Map([...want].map(([k, vs]) => [k, { n: vs.length, median: nearestRankMedian(vs) }])));
      }),
    );
  });

  it('holds at most EXACT_LATENCIES latencies: the busiest key spills into a histogram, the quiet ones stay exact', () => {
    const m = new LatencyMedians();
    const busy: number[] = [];
    let most = 0;
    for (let i = 1; i <= 3 * EXACT_LATENCIES; i++) {
      const v = 0.05 + ((i * 7919) % 1000) / 100;
      busy.push(v);
      m.add('tools/call', v);
      if (i % 50_000 === 0) m.add('initialize', i / 1000);
      most = Math.max(most, m.exact);
    }
    expect(most).toBeLessThanOrEqual(EXACT_LATENCIES);
    const stats = m.stats();
    expect(stats.get('initialize')).toEqual({ n: 6, median: 150 }); // nearest rank: 3rd of 50 100 150 200 250 300
    const call = stats.get('tools/call')!;
    expect(call.n).toBe(3 * EXACT_LATENCIES);
    expect(relErr(call.median, nearestRankMedian(busy))).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
  });

  it('times the first MAX_KEYS keys only', () => {
    const m = new LatencyMedians();
    for (let k = 0; k < MAX_KEYS + 50; k++) m.add(`tool-${k}`, k);
    const stats = m.stats();
    expect(stats.size).toBe(MAX_KEYS);
    expect(stats.has(`tool-${MAX_KEYS - 1}`)).toBe(true);
    expect(stats.has(`tool-${MAX_KEYS}`)).toBe(false);
  });
});

/** The latencies as the baseline computed them from every request it kept (before they were streamed). */
function fromRequests(f: SessionFacts): { methods: Map<string, { n: number; median: number }>; tools: Map<string, { n: number; median: number }> } {
  const methods = new Map<string, number[]>();
  const tools = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, v: number) => m.set(k, [...(m.get(k) ?? []), v]);
  for (const q of f.requests) {
    if (q.from !== 'client' || q.answer?.ms === undefined) continue;
    add(methods, q.method, q.answer.ms);
    if (q.method === 'tools/call' && q.target !== undefined) add(tools, q.target, q.answer.ms);
  }
  const stats = (m: Map<string, number[]>) => new Map([...m].map(([k, vs]) => [k, { n: vs.length, median: nearestRankMedian(vs) }]));
  return { methods: stats(methods), tools: stats(tools) };
}

function gather(records: readonly LogRecord[], bound?: GatherBound): SessionFacts {
  const g = new SessionGatherer('x.log', records[0]!.session, bound);
  records.forEach((record, i) => g.add({ record, line: i + 1 }));
  return g.finish();
}

/** Hand-written (docs/log-format.md, Tasks): n task calls open at once, answered, then ended with durations 2n + i % 7. */
function manyOpenTasks(n: number): LogRecord[] {
  const recs: LogRecord[] = [];
  const add = (r: Partial<LogRecord>) => recs.push({ v: 1, time: 1000 + recs.length, session: 'm', seq: recs.length + 1, ...r } as LogRecord);
  add({ from: 'proxy', kind: 'event', event: 'start', name: 'many', command: 'node', args: [] });
  const seqOf: number[] = [];
  for (let i = 1; i <= n; i++) {
    seqOf[i] = recs.length + 1;
    add({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: i % 2 ? 'odd' : 'even' });
  }
  for (let i = 1; i <= n; i++) add({ from: 'server', kind: 'response', id: i, method: 'tools/call', reqSeq: seqOf[i]!, ms: 1 + (i % 3), taskId: `T${i}`, taskStatus: 'working' });
  for (let i = 1; i <= n; i++) add({ from: 'server', kind: 'notification', method: 'notifications/tasks/status', taskId: `T${i}`, taskOf: seqOf[i]!, taskStatus: 'completed', taskMs: 2 * n + (i % 7) });
  add({ from: 'proxy', kind: 'event', event: 'end', pending: [] });
  return recs;
}

/** n calls sent before any answer (so a bounded gatherer keeps most of them compact), answered in reverse order. */
function openThenAnswered(n: number): LogRecord[] {
  const recs: LogRecord[] = [];
  const add = (r: Partial<LogRecord>) => recs.push({ v: 1, time: 1000 + recs.length, session: 'w', seq: recs.length + 1, ...r } as LogRecord);
  for (let i = 1; i <= n; i++) add({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: `t${i % 4}` });
  for (let i = n; i >= 1; i--) add({ from: 'server', kind: i % 5 ? 'response' : 'error', id: i, reqSeq: i, ms: (i * 37) % 101 });
  return recs;
}

describe('the gatherer times every request, kept or not', () => {
  const cases: Array<[string, LogRecord[]]> = [
    ['tasks (ended, failed, running, server-side)', taskSession().records],
    [`more task calls open than TASK_CALLS (${TASK_CALLS}): the oldest timed by their answer`, manyOpenTasks(TASK_CALLS + 700)],
    ['requests waiting compactly', openThenAnswered(3000)],
  ];
  for (const [name, records] of cases) {
    it(name, () => {
      const whole = gather(records);
      expect(whole.latency).toEqual(fromRequests(whole));
      expect(whole.latency.methods.size).toBeGreaterThan(0);
      for (const bound of [BASELINE_BOUND, { ...BASELINE_BOUND, waitingWhole: 10 }]) {
        const bounded = gather(records, bound);
        expect(bounded.requests.length).toBeLessThan(whole.requests.length);
        expect(bounded.latency).toEqual(whole.latency);
      }
    });
  }

  it('every fixture log: the bounded baseline is the one of every request kept', async () => {
    const logs = join(ROOT, 'test', 'fixtures', 'logs');
    for (const file of readdirSync(logs).filter((f) => f.endsWith('.jsonl'))) {
      const whole = await readFacts(join(logs, file));
      expect(whole.latency, file).toEqual(fromRequests(whole));
      expect(buildBaseline(await readFacts(join(logs, file), { bound: BASELINE_BOUND })), file).toEqual(buildBaseline(whole));
    }
  });

  it('past EXACT_LATENCIES answers: n exact, the median within 1 %', () => {
    const n = EXACT_LATENCIES + 20_000;
    const g = new SessionGatherer('x.log', 's', BASELINE_BOUND);
    const items = (function* () {
      for (let i = 1; i <= n; i++) {
        yield { record: { v: 1, time: i, session: 's', seq: 2 * i - 1, from: 'client', kind: 'request', id: i, method: 'tools/call', target: 'echo' } as LogRecord, line: 2 * i - 1 };
        yield { record: { v: 1, time: i, session: 's', seq: 2 * i, from: 'server', kind: 'response', id: i, reqSeq: 2 * i - 1, ms: 0.05 + ((i * 7919) % 1000) / 100 } as LogRecord, line: 2 * i };
      }
    })();
    const want = nearestRankMedian(Array.from({ length: n }, (_, k) => 0.05 + (((k + 1) * 7919) % 1000) / 100));
    for (const it of items) g.add(it);
    const f = g.finish();
    const stat = f.latency.tools.get('echo')!;
    expect(stat.n).toBe(n);
    expect(relErr(stat.median, want)).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
  });
});
