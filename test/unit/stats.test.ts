/**
 * `mcp-tap stats` numbers on a fixture with known latencies (test/fixtures/logs/stats.jsonl, written by
 * test/fixtures/golden/generate-logs.mjs), checked number by number, and the nearest-rank percentile.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadTokenizer } from '../../src/lens/context/tokenizer.js';
import type { LogRecord } from '../../src/log/record.js';
import { computeStats, percentile, renderTextStats, StatsBuilder, type MethodStats } from '../../src/transcript/stats.js';

const records = readFileSync(new URL('../fixtures/logs/stats.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LogRecord);

describe('percentile (nearest rank)', () => {
  it.each<[number[], number, number | undefined]>([
    [[], 50, undefined],
    [[7], 50, 7],
    [[7], 99, 7],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 10],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90, 9],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0, 1],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 100, 10],
    [[3, 7], 50, 3],
    [[3, 7], 51, 7],
    [Array.from({ length: 100 }, (_, i) => i + 1), 99, 99],
    [Array.from({ length: 100 }, (_, i) => i + 1), 95, 95],
  ])('%j p%d → %s', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });
});

describe('stats of the fixture session', () => {
  const st = computeStats(records);
  const row = (method: string, from: 'client' | 'server' = 'client', kind: 'request' | 'notification' = 'request'): MethodStats => {
    const r = st.methods.find((m) => m.method === method && m.from === from && m.kind === kind);
    if (!r) throw new Error(`no row for ${method}`);
    return r;
  };
  const tool = (name: string): MethodStats => {
    const r = st.tools.find((m) => m.tool === name);
    if (!r) throw new Error(`no row for tool ${name}`);
    return r;
  };

  it('session and duration', () => {
    expect(st.sessions).toEqual([{ session: 'fixture-stats', name: 'stats-server', start: Date.UTC(2026, 0, 2, 3, 4, 5), durationMs: 1060, ended: true }]);
    expect(st.durationMs).toBe(1060);
  });

  it('tools/call: 14 calls, 13 answered, 1 isError; latencies 1…10, 100, 200, 300 ms', () => {
    expect(row('tools/call')).toEqual({
      method: 'tools/call',
      from: 'client',
      kind: 'request',
      count: 14,
      answered: 13,
      errors: 0,
      refused: 0,
      isError: 1,
      latency: { n: 13, p50: 7, p95: 300, p99: 300, max: 300 },
      bytesIn: 1002 + 285 + 87,
      bytesOut: 752 + 264,
    });
  });

  it('per tool', () => {
    expect(tool('echo')).toMatchObject({ count: 10, answered: 10, errors: 0, isError: 0, latency: { n: 10, p50: 5, p95: 10, p99: 10, max: 10 }, bytesIn: 1002, bytesOut: 752 });
    expect(tool('slow')).toMatchObject({ count: 3, answered: 3, isError: 1, latency: { n: 3, p50: 200, p95: 300, p99: 300, max: 300 }, bytesIn: 285, bytesOut: 264 });
    expect(tool('hang')).toMatchObject({ count: 1, answered: 0, latency: null, bytesIn: 87, bytesOut: 0 });
    expect(st.tools.map((t) => t.tool)).toEqual(['echo', 'hang', 'slow']);
  });

  it('other methods, both directions', () => {
    expect(row('initialize')).toMatchObject({ count: 1, answered: 1, latency: { n: 1, p50: 20, p95: 20, p99: 20, max: 20 } });
    expect(row('resources/read')).toMatchObject({ count: 2, answered: 2, errors: 1, isError: 0, latency: { n: 2, p50: 3, p95: 7, p99: 7, max: 7 }, bytesIn: 174, bytesOut: 164 });
    // a server → client request: the server sends the request (out) and receives the answer (in)
    expect(row('ping', 'server')).toMatchObject({ count: 1, answered: 1, latency: { n: 1, p50: 0.5, p95: 0.5, p99: 0.5, max: 0.5 }, bytesIn: 42, bytesOut: 46 });
    expect(row('notifications/message', 'server', 'notification')).toMatchObject({ count: 2, latency: null, bytesIn: 0, bytesOut: 180 });
    expect(row('notifications/initialized', 'client', 'notification')).toMatchObject({ count: 1 });
    expect(st.methods.map((m) => `${m.kind} ${m.from} ${m.method}`)).toEqual([
      'request client initialize',
      'request client resources/read',
      'request client tools/call',
      'request server ping',
      'notification client notifications/initialized',
      'notification server notifications/message',
    ]);
  });

  it('unanswered requests, findings by code, unpaired answers, totals', () => {
    expect(st.unanswered).toEqual({ count: 1, requests: [{ from: 'client', id: 16, method: 'tools/call', seq: 44, session: 'fixture-stats' }] });
    expect(st.findings).toEqual([
      { code: 'stdout-not-json', count: 1 },
      { code: 'unknown-id', count: 1 },
    ]);
    expect(st.unpairedAnswers).toBe(1);
    expect(st.totals).toEqual({ records: 47, messages: 40, invalid: 1, stderr: 1, bytesIn: 1816, bytesOut: 1645 });
  });

  it('text report: one row per method and tool, numbers formatted, names escaped by the caller', () => {
    const text = renderTextStats(st);
    expect(text).toMatch(/^tools\/call\s+client\s+14\s+0\s+1\s+7\.0 ms\s+300\.0 ms\s+300\.0 ms\s+300\.0 ms\s+1\.3 KiB\s+1016 B$/m);
    expect(text).toMatch(/^ {2}echo\s+client\s+10\s+0\s+0\s+5\.0 ms\s+10\.0 ms\s+10\.0 ms\s+10\.0 ms\s+1002 B\s+752 B$/m);
    expect(text).toContain('unanswered requests: 1');
    expect(text).toMatch(/^stats-server: session fixture-stats, 1\.06 s$/m);
    const hostile = computeStats([{ ...records[0]!, seq: 1 }, { v: 1, time: 1, session: 'fixture-stats', seq: 2, from: 'client', kind: 'request', id: 1, method: 'evil\u001b[2J' }]);
    expect(renderTextStats(hostile, (s) => s.replace(/\u001b/g, '\\x1b'))).toContain('evil\\x1b[2J');
  });

  it('is the example in docs/export.md (with the token figures `stats` prints)', async () => {
    const doc = readFileSync(new URL('../../docs/export.md', import.meta.url), 'utf8');
    const example = /Example \(test\/fixtures\/logs\/stats\.jsonl\):\n\n```text\n([\s\S]*?)```/.exec(doc);
    const b = new StatsBuilder({ tokenizer: await loadTokenizer() });
    for (const r of records) b.add(r);
    expect(example?.[1]).toBe(renderTextStats(b.finish()));
  });

  it('pools latencies over several sessions', () => {
    const again = records.map((r) => ({ ...r, session: 'fixture-stats-2' }));
    const both = computeStats([...records, ...again]);
    expect(both.sessions).toHaveLength(2);
    expect(both.durationMs).toBe(2120);
    expect(both.tools.find((t) => t.tool === 'echo')).toMatchObject({ count: 20, latency: { n: 20, p50: 5, p95: 10, max: 10 } });
    expect(both.unanswered.count).toBe(2);
  });
});
