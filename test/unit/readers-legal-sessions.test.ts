/**
 * The readers show legal protocol behaviour as legal: a refused discovery probe is a `refused` bar (not an
 * error), a cancel that arrives after the answer leaves the request answered (the cancel still linked),
 * an `input_required` answer is marked in tail, and an empty client or server version leaves no stray
 * spaces. Records are written by hand here, independent of the session analysis.
 */
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { foldRecords as buildSessionModel } from '../helpers/session-fold.js';
import { renderRecord } from '../../src/view/render-line.js';
import { isProblem } from '../../src/view/filters.js';
import { summarizeSession } from '../../src/transcript/summary.js';
import { computeStats } from '../../src/transcript/stats.js';
import { renderMarkdown } from '../../src/transcript/markdown.js';

type Rec = Partial<LogRecord> & { from: LogRecord['from']; kind: LogRecord['kind'] };
const recs = (list: Rec[]): LogRecord[] => list.map((r, i) => ({ v: 1, time: 1000 + i * 10, session: 's', seq: i + 1, ...r }) as LogRecord);

const PROBE = recs([
  { from: 'client', kind: 'request', id: 0, method: 'server/discover', msg: { jsonrpc: '2.0', id: 0, method: 'server/discover' } },
  { from: 'server', kind: 'error', id: 0, method: 'server/discover', reqSeq: 1, ms: 10, msg: { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Method not found' } } },
  { from: 'client', kind: 'request', id: 1, method: 'initialize', msg: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } } },
  { from: 'server', kind: 'response', id: 1, method: 'initialize', reqSeq: 3, ms: 10, msg: { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'old', version: '' } } } },
  { from: 'proxy', kind: 'event', event: 'lifecycle', era: 'handshake', protocolVersion: '2025-06-18', offeredVersion: '2025-11-25', clientInfo: { name: 'c', version: '' }, serverInfo: { name: 'old', version: '' } },
]);

describe('a refused discovery probe', () => {
  it('is a refused bar in the waterfall, not an error, and the summary counts no error', () => {
    const m = buildSessionModel(PROBE);
    expect(m.bars.map((b) => `${b.method} ${b.outcome}`)).toEqual(['server/discover refused', 'initialize ok']);
    const s = summarizeSession(PROBE);
    expect(s.errors).toBe(0);
    expect(s.refusedProbes).toBe(1);
    expect(s.slowest.find((c) => c.method === 'server/discover')?.outcome).toBe('refused');
  });

  it('is no problem for tail --errors and reads "refused probe" in tail, in gray, not as ✗ error', () => {
    const answer = PROBE[1]!;
    expect(isProblem(answer)).toBe(false);
    const line = renderRecord(answer, { color: false, full: false });
    expect(line).toContain('· refused probe -32601 Method not found: the client falls back to initialize');
    expect(line).not.toContain('✗');
    const other = { ...answer, msg: { jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'boom' } } } as LogRecord;
    expect(isProblem(other)).toBe(true);
    expect(renderRecord(other, { color: false, full: false })).toContain('✗ error -32603 boom');
  });

  it('stats count it as refused, not as an error', () => {
    const st = computeStats(PROBE);
    expect(st.methods.find((m) => m.method === 'server/discover')).toMatchObject({ count: 1, answered: 1, errors: 0, refused: 1 });
  });
});

describe('a cancel that arrives after the answer', () => {
  const CANCEL_LATE = recs([
    { from: 'client', kind: 'request', id: 5, method: 'tools/call', target: 'slow' },
    { from: 'server', kind: 'response', id: 5, method: 'tools/call', reqSeq: 1, ms: 10, msg: { jsonrpc: '2.0', id: 5, result: { content: [] } } },
    { from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq: 1, ms: 20, msg: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } } },
  ]);
  it('leaves the bar ok, keeps its end at the answer and links the cancel', () => {
    const m = buildSessionModel(CANCEL_LATE);
    expect(m.bars).toHaveLength(1);
    expect(m.bars[0]).toMatchObject({ outcome: 'ok', answerSeq: 2, start: 0, end: 10, cancelAt: 20 });
  });
  it('a cancel before the answer still makes it cancelled', () => {
    const early = recs([
      { from: 'client', kind: 'request', id: 5, method: 'tools/call', target: 'slow' },
      { from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq: 1, msg: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } } },
    ]);
    expect(buildSessionModel(early).bars[0]).toMatchObject({ outcome: 'cancelled', cancelAt: 10 });
  });
});

describe('stateless sessions and empty versions', () => {
  it('tail marks the input_required answer itself, not only the retry', () => {
    const [answer] = recs([{ from: 'server', kind: 'response', id: 2, method: 'tools/call', reqSeq: 1, ms: 3, inputRequired: true, msg: { jsonrpc: '2.0', id: 2, result: { resultType: 'input_required', inputRequests: {} } } }]);
    expect(renderRecord(answer!, { color: false, full: false })).toContain('input required');
  });

  it('an empty client or server version leaves no double or trailing space in tail and the Markdown export', () => {
    const lifecycle = renderRecord(PROBE[4]!, { color: false, full: false });
    expect(lifecycle).toContain('client c · server old');
    expect(lifecycle).not.toMatch(/ {2}·|· {2}| $/);
    const md = renderMarkdown(PROBE, {});
    expect(md).toContain('| Server | `old` |');
    expect(md).toContain('| Client | `c` |');
    for (const line of md.split('\n').filter((l) => !l.startsWith('|'))) {
      expect(line, JSON.stringify(line)).not.toMatch(/\S {2,}\S| $/);
    }
  });
});
