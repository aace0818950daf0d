/**
 * The waterfall both front-ends draw, folded from the rows of a session's records: one bar per request
 * with the right outcome and extent (ok, error, isError, cancelled, unanswered to the session end; batch
 * elements; server→client requests), progress marks on the bar of their request, and ticks on the
 * notification, stderr and other lanes; and what the report embeds of a session (origin, duration).
 */
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { validateRecord } from '../../src/log/validate-record.js';
import type { Bar } from '../../src/session-view/bars.js';
import { errorTextOf, isErrorTextOf } from '../../src/session-view/to-row.js';
import { readRecords } from '../helpers/log.js';
import { foldRecords as buildSessionModel } from '../helpers/session-fold.js';

const FIXTURE = new URL('../fixtures/logs/report-basic.jsonl', import.meta.url);

const load = (path: string | URL): LogRecord[] => readRecords(path) as unknown as LogRecord[];

const records = load(FIXTURE);
const model = buildSessionModel(records);
const bar = (seq: number, item?: number): Bar => {
  const b = model.bars.find((x) => x.seq === seq && x.item === item);
  if (!b) throw new Error(`no bar for #${seq}${item === undefined ? '' : `.${item}`}`);
  return b;
};

describe('report fixture', () => {
  it('is a valid log (every record passes the contract validator)', () => {
    for (const r of records) expect(validateRecord(r), `#${r.seq}`).toEqual([]);
  });
});

describe('buildSessionModel', () => {
  it('has one bar per request, batch elements included, in start order', () => {
    const requests = records.filter((r) => r.kind === 'request').length;
    const inBatches = records.filter((r) => r.kind === 'batch').flatMap((r) => r.items ?? []).filter((i) => i.kind === 'request').length;
    expect(model.bars).toHaveLength(requests + inBatches);
    expect(model.bars.map((b) => b.start)).toEqual([...model.bars.map((b) => b.start)].sort((a, b) => a - b));
  });

  it('times are ms since the start event, and the session lasts to its last record', () => {
    expect(model.origin).toBe(records[0]!.time);
    expect(model.duration).toBe(1961);
    expect(model.name).toBe('report-fixture');
    expect(model.id).toBe('rep-basic-1');
  });

  it('classifies outcomes: ok, isError, error, cancelled, unanswered', () => {
    const byTarget = (t: string) => model.bars.filter((b) => b.target === t);
    const echo = byTarget('echo')[0]!;
    expect(echo.outcome).toBe('ok');
    expect([echo.start, echo.end, echo.ms]).toEqual([80, 83, 3]);
    const sum = byTarget('get-sum')[0]!;
    expect(sum.outcome).toBe('isError');
    expect(sum.errorText).toBe('missing argument: b');
    const read = byTarget('demo://missing')[0]!;
    expect(read.outcome).toBe('error');
    expect(read.errorText).toBe('-32002 Resource not found');
    expect(read.end - read.start).toBe(70);
    const [cancelled, unanswered] = byTarget('slow');
    expect(cancelled!.outcome).toBe('cancelled');
    expect(cancelled!.cancelAt).toBe(1500);
    expect(cancelled!.end).toBe(1500);
    expect(cancelled!.answerSeq).toBeUndefined();
    expect(unanswered!.outcome).toBe('unanswered');
    expect(unanswered!.end).toBe(model.duration);
  });

  it('puts progress marks on the bar of their request', () => {
    const long = model.bars.find((b) => b.target === 'trigger-long-running-operation')!;
    expect(long.progress).toEqual([540, 870, 1200]);
    expect(long.outcome).toBe('ok');
    expect(model.bars.filter((b) => b !== long).every((b) => b.progress.length === 0)).toBe(true);
  });

  it('pairs server→client requests with the client answer', () => {
    const s = model.bars.find((b) => b.method === 'sampling/createMessage')!;
    expect(s.from).toBe('server');
    expect(s.outcome).toBe('ok');
    expect(s.end - s.start).toBe(40);
  });

  it('pairs batch elements by id inside the batch answer', () => {
    const batch = records.find((r) => r.kind === 'batch' && r.from === 'client')!;
    expect(bar(batch.seq, 0).outcome).toBe('ok');
    expect(bar(batch.seq, 0).method).toBe('ping');
    expect(bar(batch.seq, 1).outcome).toBe('error');
    expect(bar(batch.seq, 1).ms).toBe(6);
  });

  it('puts notifications, stderr and the rest on their own lanes', () => {
    expect(model.notifications.map((t) => t.tag)).toEqual(['c', 's', 's', 's', 's', 'c']);
    expect(model.stderr.map((t) => t.t)).toEqual([30, 600, 1700]);
    const tags = model.other.map((t) => t.tag);
    expect(tags).toContain('invalid');
    expect(tags).toContain('exit');
    expect(tags).not.toContain('batch'); // batches with requests are bars
  });

  it('an answer whose request is not in the log goes to the other lane', () => {
    const m = buildSessionModel([
      { v: 1, time: 10, session: 'x', seq: 1, from: 'server', kind: 'response', id: 99, bytes: 30, msg: { jsonrpc: '2.0', id: 99, result: {} }, notes: [{ code: 'unknown-id', text: '…' }] },
    ]);
    expect(m.bars).toEqual([]);
    expect(m.other).toEqual([{ t: 0, seq: 1, tag: 'response' }]);
  });

  it('a cancel that comes before a late answer keeps the bar cancelled and ends it at the answer', () => {
    const base = { v: 1, session: 'x', bytes: 1 } as const;
    const m = buildSessionModel([
      { ...base, time: 0, seq: 1, from: 'client', kind: 'request', id: 1, method: 'tools/call', target: 'slow' },
      { ...base, time: 5, seq: 2, from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq: 1, ms: 5 },
      { ...base, time: 9, seq: 3, from: 'server', kind: 'response', id: 1, method: 'tools/call', reqSeq: 1, ms: 9, cancelled: true },
    ]);
    expect(m.bars[0]).toMatchObject({ outcome: 'cancelled', cancelAt: 5, end: 9, answerSeq: 3 });
  });

  it('ids compare with their type when pairing inside a batch', () => {
    const base = { v: 1, session: 'x', bytes: 1 } as const;
    const m = buildSessionModel([
      { ...base, time: 0, seq: 1, from: 'client', kind: 'batch', items: [{ kind: 'request', id: 1, method: 'a' }, { kind: 'request', id: '1', method: 'b' }] },
      { ...base, time: 4, seq: 2, from: 'server', kind: 'batch', items: [{ kind: 'error', id: '1', method: 'b', reqSeq: 1, ms: 4 }, { kind: 'response', id: 1, method: 'a', reqSeq: 1, ms: 4 }] },
    ]);
    expect(m.bars.map((b) => [b.method, b.outcome])).toEqual([
      ['a', 'ok'],
      ['b', 'error'],
    ]);
  });

  it('reads error and isError texts', () => {
    expect(errorTextOf({ error: { code: -1, message: 'x' } })).toBe('-1 x');
    expect(errorTextOf({ result: {} })).toBeUndefined();
    expect(isErrorTextOf({ result: { content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }], isError: true } })).toBe('a b');
    expect(errorTextOf({ error: { code: 1, message: 'y'.repeat(1000) } })!.length).toBeLessThanOrEqual(240);
  });

  it('copes with an empty session', () => {
    const m = buildSessionModel([]);
    expect(m.bars).toEqual([]);
    expect(m.duration).toBe(0);
  });
});
