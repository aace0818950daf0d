/**
 * A small hand-written twin of the generated fixtures (test/fixtures/logs/twin-stats.jsonl): every record,
 * its pairing (reqSeq), latency (ms) and the counts below are written by hand, so these tests do not
 * take their expectations from the code under test. The session analysis, stats and check must agree.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/check/evaluate.js';
import { gatherSession } from '../../src/check/gather.js';
import type { LogRecord } from '../../src/log/record.js';
import { validateRecord } from '../../src/log/validate-record.js';
import { computeStats } from '../../src/transcript/stats.js';
import { readRecords } from '../helpers/log.js';
import { harness } from './helpers/session-harness.js';

const TWIN = readRecords(new URL('../fixtures/logs/twin-stats.jsonl', import.meta.url)) as unknown as LogRecord[];
const T0 = 1767323045000;

describe('hand-written twin fixture', () => {
  it('is a valid log', () => {
    for (const r of TWIN) expect(validateRecord(r), `#${r.seq}`).toEqual([]);
  });

  it('the session analysis pairs its messages exactly as written by hand', () => {
    const h = harness({ id: 'twin-stats' });
    for (const r of TWIN) {
      if (r.kind === 'event' || (r.from !== 'client' && r.from !== 'server')) continue;
      h.send(r.from, r.msg, r.time - T0);
    }
    const wire = (list: readonly LogRecord[]) =>
      list
        .filter((r) => r.kind !== 'event')
        .map((r) => ({ kind: r.kind, id: r.id, method: r.method, target: r.target, reqSeq: r.reqSeq, ms: r.ms, isError: r.isError, bytes: r.bytes }));
    // the harness has no start event: its seqs are one lower than the file's
    const shifted = wire(h.records).map((r) => ({ ...r, reqSeq: r.reqSeq === undefined ? undefined : r.reqSeq + 1 }));
    expect(shifted).toEqual(wire(TWIN));
  });

  it('stats: counts, errors and nearest-rank latencies computed by hand', () => {
    const st = computeStats(TWIN);
    const row = (method: string) => st.methods.find((m) => m.method === method && m.kind === 'request');
    expect(row('initialize')).toMatchObject({ count: 1, answered: 1, errors: 0, isError: 0, latency: { n: 1, p50: 5, max: 5 } });
    // tools/call latencies 3, 100, 7 → sorted 3, 7, 100: p50 = 2nd, p95 = p99 = max = 3rd
    expect(row('tools/call')).toMatchObject({ count: 3, answered: 3, errors: 1, isError: 1, latency: { n: 3, p50: 7, p95: 100, p99: 100, max: 100 } });
    expect(row('resources/read')).toMatchObject({ count: 1, answered: 0, latency: null });
    const tool = (name: string) => st.tools.find((t) => t.tool === name);
    expect(tool('echo')).toMatchObject({ count: 2, answered: 2, errors: 0, isError: 1, latency: { n: 2, p50: 3, max: 7 } });
    expect(tool('slow')).toMatchObject({ count: 1, answered: 1, errors: 1, latency: { n: 1, p50: 100, max: 100 } });
    expect(st.unanswered.count).toBe(1);
    expect(st.sessions[0]).toMatchObject({ session: 'twin-stats', durationMs: 202, ended: true });
  });

  it('check: one error, one isError, one unanswered request; fails on unanswered by default', () => {
    const facts = gatherSession('twin.log', 'twin-stats', TWIN.map((record, i) => ({ record, line: i + 1 })));
    const r = evaluate(facts);
    expect(r.problems.map((p) => `${p.ruleId}@${p.line}`)).toEqual(['jsonrpc-error@9', 'tool-is-error@11', 'unanswered-request@12']);
    expect(r.summary).toMatchObject({ requests: 5, answered: 4, errors: 1, isError: 1, unanswered: 1, initializeMs: 5, durationMs: 202 });
    expect(r.failed).toEqual(['unanswered']);
  });
});
