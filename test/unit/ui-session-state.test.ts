/**
 * The live UI's pure folds: session cards (state, counts, latencies) from records, and the page's
 * session rows (outcomes from answers, history and live rows merged without duplicates, filters).
 */
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { LATENCY_POINTS, SessionCards } from '../../src/ui/session-cards.js';
import { toRow } from '../../src/session-view/to-row.js';
import { SessionFold } from '../../src/session-view/fold.js';
import { filterRows, NO_FILTER } from '../../src/session-view/filter.js';
import { rowRedactor } from '../../src/ui/row-redact.js';

/** A record as the live UI streams it: times from 1000 ms, strings redacted. */
const toLiveRow = (r: LogRecord) => toRow(r, 1000, rowRedactor());

let seq = 0;
function rec(session: string, fields: Partial<LogRecord>): LogRecord {
  return { v: 1, time: 1000 + seq, session, seq: ++seq, from: 'proxy', kind: 'event', ...fields } as LogRecord;
}

describe('session cards', () => {
  it('say running until the end record, then exited with the code, or died by a signal', () => {
    const cards = new SessionCards();
    cards.add(0, 'a.jsonrpc.log', rec('s1', { event: 'start', name: 'alpha' }));
    cards.add(0, 'a.jsonrpc.log', rec('s1', { from: 'client', kind: 'request', id: 1, method: 'tools/call' }));
    cards.add(0, 'a.jsonrpc.log', rec('s1', { from: 'server', kind: 'response', id: 1, reqSeq: 2, ms: 12.5, isError: true }));
    expect(cards.all()[0]).toMatchObject({ server: 'alpha', state: 'running', requests: 1, errors: 1, latency: [12.5] });
    cards.add(0, 'a.jsonrpc.log', rec('s1', { event: 'exit', code: 3, signal: null }));
    cards.add(0, 'a.jsonrpc.log', rec('s1', { event: 'end', pending: [] }));
    expect(cards.all()[0]).toMatchObject({ state: 'exited', exitCode: 3 });
    cards.add(1, 'b.jsonrpc.log', rec('s2', { event: 'start', name: 'beta' }));
    cards.add(1, 'b.jsonrpc.log', rec('s2', { event: 'exit', code: null, signal: 'SIGKILL' }));
    cards.add(1, 'b.jsonrpc.log', rec('s2', { event: 'end', pending: [] }));
    expect(cards.all().map((c) => [c.server, c.state, c.exitSignal ?? null])).toEqual([
      ['beta', 'died', 'SIGKILL'],
      ['alpha', 'exited', null],
    ]);
  });

  it('mark a session without an end record as died once a newer one starts in the same log', () => {
    const cards = new SessionCards();
    cards.add(0, 'a.jsonrpc.log', rec('old', { event: 'start', name: 'alpha' }));
    expect(cards.takeChanged().map((c) => c.state)).toEqual(['running']);
    cards.add(0, 'a.jsonrpc.log', rec('new', { event: 'start', name: 'alpha' }));
    expect(cards.all().map((c) => [c.session, c.state])).toEqual([
      ['new', 'running'],
      ['old', 'died'],
    ]);
    // both changed: the page hears about the old one too
    expect(cards.takeChanged().map((c) => c.session).sort()).toEqual(['new', 'old']);
    expect(cards.takeChanged()).toEqual([]);
  });

  it('mark a running session whose mcp-tap is gone (killed: no end record will come) as died, killed', () => {
    const cards = new SessionCards();
    cards.add(0, 'a.jsonrpc.log', rec('live', { event: 'start', name: 'alpha', pid: 4242 }));
    cards.add(1, 'b.jsonrpc.log', rec('gone', { event: 'start', name: 'beta', pid: 4343 }));
    cards.takeChanged();
    const asked: number[] = [];
    cards.reap((pid) => (asked.push(pid), pid === 4242));
    expect(asked.sort()).toEqual([4242, 4343]);
    expect(cards.all().map((c) => [c.session, c.state, c.killed ?? false])).toEqual([
      ['gone', 'died', true],
      ['live', 'running', false],
    ]);
    expect(cards.takeChanged().map((c) => c.session)).toEqual(['gone']);
    cards.reap(() => false);
    expect(cards.all().map((c) => c.state)).toEqual(['died', 'died']);
  });

  it(`keep only the last ${LATENCY_POINTS} latencies`, () => {
    const cards = new SessionCards();
    for (let i = 0; i < LATENCY_POINTS + 5; i++) cards.add(0, 'a', rec('s', { from: 'server', kind: 'response', ms: i }));
    expect(cards.all()[0]!.latency).toEqual(Array.from({ length: LATENCY_POINTS }, (_, i) => i + 5));
  });
});

describe('session rows (the view\'s fold, as the live page feeds it)', () => {
  const s = 'x';
  const rows = [
    rec(s, { event: 'start' }),
    rec(s, { from: 'client', kind: 'request', id: 1, method: 'tools/call', target: 'echo' }),
    rec(s, { from: 'client', kind: 'request', id: 2, method: 'tools/call', target: 'boom' }),
    rec(s, { from: 'server', kind: 'response', id: 1, method: 'tools/call', target: 'echo', reqSeq: 0, ms: 5 }),
    rec(s, { from: 'server', kind: 'error', id: 2, method: 'tools/call', target: 'boom', reqSeq: 0, notes: [{ code: 'bad-error-code', text: 'x' }] }),
    rec(s, { from: 'client', kind: 'request', id: 3, method: 'tools/list' }),
  ];
  rows[3]!.reqSeq = rows[1]!.seq;
  rows[4]!.reqSeq = rows[2]!.seq;
  const live = rows.map((r) => toLiveRow(r));

  it('give each request the outcome of its answer, and skip rows already held', () => {
    const data = new SessionFold();
    expect(data.addNew(live.slice(0, 4))).toBe(4);
    expect(data.addNew(live.slice(2))).toBe(2); // history and live overlap: no row twice
    expect(data.rows.map((r) => r.s)).toEqual(rows.map((r) => r.seq));
    expect(data.wf.bars.map((b) => [b.target ?? b.method, b.outcome])).toEqual([
      ['echo', 'ok'],
      ['boom', 'error'],
      ['tools/list', 'unanswered'],
    ]);
  });

  it('filter by method and tool, direction, outcome and finding', () => {
    const data = new SessionFold();
    data.addNew(live);
    const seqs = (f: Partial<typeof NO_FILTER>) => filterRows(data, { ...NO_FILTER, ...f }).map((i) => data.rows[i]!.s);
    const [start, q1, q2, a1, a2, q3] = rows.map((r) => r.seq);
    expect(seqs({})).toEqual([start, q1, q2, a1, a2, q3]);
    expect(seqs({ method: 'tools/call' })).toEqual([q1, q2, a1, a2]);
    expect(seqs({ method: 'tools/call\u0000echo' })).toEqual([q1, a1]);
    expect(seqs({ dir: 's' })).toEqual([a1, a2]);
    expect(seqs({ outcome: 'error' })).toEqual([q2, a2]);
    expect(seqs({ outcome: 'unanswered' })).toEqual([q3]);
    expect(seqs({ finding: '*' })).toEqual([a2]);
    expect(seqs({ finding: 'other-code' })).toEqual([]);
  });
});

describe('a refused discovery probe (the client falls back to initialize)', () => {
  const probe = rec('p1', { from: 'client', kind: 'request', id: 0, method: 'server/discover' });
  const refused = rec('p1', { from: 'server', kind: 'error', id: 0, method: 'server/discover', reqSeq: probe.seq, ms: 1, msg: { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Method not found' } } });
  const failed = rec('p1', { from: 'server', kind: 'error', id: 1, method: 'tools/call', reqSeq: probe.seq + 9, ms: 1, msg: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } } });
  const inBatch = rec('p1', {
    from: 'server',
    kind: 'batch',
    items: [{ kind: 'error', id: 2, method: 'server/discover', reqSeq: probe.seq }],
    msg: [{ jsonrpc: '2.0', id: 2, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } } }],
  } as Partial<LogRecord>);

  it('is not counted among a session card\'s errors (a failed call is)', () => {
    const cards = new SessionCards();
    for (const r of [probe, refused, inBatch]) cards.add(0, 'p.jsonrpc.log', r);
    expect(cards.all()[0]).toMatchObject({ requests: 1, errors: 0 });
    cards.add(0, 'p.jsonrpc.log', failed);
    expect(cards.all()[0]).toMatchObject({ errors: 1 });
  });

  it('is a refused probe in the page, not an error', () => {
    const data = new SessionFold();
    data.addNew([probe, refused, failed].map((r) => toLiveRow(r)));
    expect(data.wf.bars.map((b) => [b.method, b.outcome])).toEqual([['server/discover', 'refused']]);
    expect(data.outcomeOf(toLiveRow(refused))).toBe('refused');
    expect(data.outcomeOf(toLiveRow(failed))).toBe('error');
  });
});
