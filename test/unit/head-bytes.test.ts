/**
 * The log's byte writer for record heads must produce exactly what JSON.stringify (serializeHead) does,
 * for every record a session can make and for odd values too; and the record queue must keep records
 * whole and in order whatever way they are taken out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordQueue } from '../../src/log/record-queue.js';
import type { LogRecord } from '../../src/log/record.js';
import { serializeHead } from '../../src/log/serialize.js';
import { findTemplate, headFromWasm } from '../../src/log/head-templates.js';
import { head, millis, number, templateHeadCases } from '../helpers/head-records.js';

const value = fc.oneof(number, fc.string({ unit: 'binary' }), fc.string(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }));
const record = fc
  .tuple(
    fc.record({ v: fc.constant(1), time: millis, session: fc.string({ maxLength: 20 }), seq: fc.nat(), from: fc.constantFrom('client', 'server', 'proxy'), kind: fc.constantFrom('request', 'response', 'event') }),
    fc.dictionary(fc.oneof(fc.constantFrom('id', 'method', 'target', 'reqSeq', 'ms', 'bytes', 'notes', 'isError'), fc.string({ maxLength: 6 })), value, { maxKeys: 8 }),
  )
  .map(([base, extra]) => ({ ...base, ...extra }) as LogRecord);

describe('record heads as bytes', () => {
  it('match serializeHead byte for byte', () => {
    fc.assert(
      // 64 KiB of room: every one of these heads fits, so none may come back unwritten
      fc.property(record, (rec) => {
        expect(head(rec)).toBe(serializeHead(rec));
      }),
      { numRuns: 5000 },
    );
  });

  it('write the common records without falling back', () => {
    const req = { v: 1, time: 1796040539259.597, session: 's-1', seq: 12, from: 'client', kind: 'request', id: 5, method: 'tools/call', target: 'échо', bytes: 1100 } as LogRecord;
    expect(head(req)).toBe(serializeHead(req));
    const res = { v: 1, time: 1796040539260, session: 's-1', seq: 13, from: 'server', kind: 'response', id: 'x"y', method: 'tools/call', reqSeq: 12, ms: 0.403, bytes: 9, notes: [{ code: 'c', text: 't\n' }] } as LogRecord;
    expect(head(res)).toBe(serializeHead(res));
    expect(head({} as LogRecord)).toBe('{"msg":');
  });

  it('write every digit count of seq and of integer members (each side of each power of ten)', () => {
    for (let k = 0; k <= 9; k++) {
      for (const n of [10 ** k - 1, 10 ** k, 10 ** k + 1, 2 * 10 ** k - 1]) {
        if (n < 0 || n >= 2 ** 31) continue;
        const rec = { v: 1, time: 1796040539259.5, session: 's', seq: n, from: 'server', kind: 'response', id: n, reqSeq: n, bytes: n } as LogRecord;
        expect(head(rec)).toBe(serializeHead(rec));
      }
    }
  });

  it('says when a head may not fit, instead of writing past the room it was given', () => {
    const rec = { v: 1, time: 1, session: 'x'.repeat(500), seq: 1, from: 'client', kind: 'request' } as LogRecord;
    expect(head(rec, 100)).toBeNull();
    expect(head(rec, 2000)).toBe(serializeHead(rec));
  });
});

describe('record queue', () => {
  const body = (n: number): Buffer => Buffer.from(JSON.stringify({ n, pad: 'p'.repeat(n % 300) }));
  const rec = (seq: number): LogRecord => ({ v: 1, time: 1, session: 's', seq, from: 'client', kind: 'request' }) as LogRecord;

  it('keeps every record whole and in order, across arenas and partial takes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.option(fc.integer({ min: 1, max: 5000 }))), { minLength: 1, maxLength: 60 }), fc.boolean(), (ops, big) => {
        const q = new RecordQueue();
        const written: string[] = [];
        let seq = 0;
        for (const [n, room] of ops) {
          for (let i = 0; i < n % 7; i++) {
            seq++;
            if (seq % 3 === 0) q.appendText(`{"seq":${seq}}\n`, undefined, 0);
            else q.appendRecord(rec(seq), big && seq % 5 === 0 ? Buffer.from(JSON.stringify({ seq, pad: 'x'.repeat(1_200_000) })) : body(seq), 0);
          }
          const job = q.take(room ?? undefined, false);
          if (job) {
            written.push(job.buf.toString('utf8', job.start, job.end));
            q.release(job);
          }
        }
        for (let job = q.take(undefined, false); job; job = q.take(undefined, false)) written.push(job.buf.toString('utf8', job.start, job.end));
        expect(q.count).toBe(0);
        expect(q.bytes).toBe(0);
        const lines = written.join('').split('\n').slice(0, -1);
        expect(lines).toHaveLength(seq);
        lines.forEach((l, i) => expect((JSON.parse(l) as { seq: number }).seq).toBe(i + 1));
      }),
      { numRuns: 200 },
    );
  });

  it('takes back the last record, and counts what it drops', () => {
    const q = new RecordQueue();
    q.appendText('{"a":1}\n', undefined, 0);
    const size = q.appendText('{"b":2}\n', undefined, 4);
    expect(size).toBe(8);
    q.dropLast();
    expect(q.count).toBe(1);
    q.appendRecord(rec(3), Buffer.from('{}'), 2);
    expect(q.dropAll()).toEqual({ records: 2, carries: 2 });
    expect(q.take(undefined, false)).toBeNull();
  });

  it('starts a write with a line end when asked (a torn line in the file)', () => {
    const q = new RecordQueue();
    q.appendText('{"a":1}\n', undefined, 0);
    q.appendText('{"b":2}\n', undefined, 0);
    const first = q.take(8, true)!;
    expect(first.buf.toString('utf8', first.start, first.end)).toBe('\n{"a":1}\n');
    const second = q.take(undefined, true)!;
    expect(second.buf.toString('utf8', second.start, second.end)).toBe('\n{"b":2}\n');
  });
});

describe('record heads from templates (the WebAssembly writer where it applies)', () => templateHeadCases());

describe('the WebAssembly head writer, through the templates', () => {
  it('writes the heads of the common records once their templates are learnt', () => {
    const req = (i: number) =>
      ({ v: 1, time: 1796040539259.5 + i / 8, session: 's-w', seq: 2 * i + 1, from: 'client', kind: 'request', id: i, method: 'tools/call', target: 'echo', bytes: 1100 + i, level: 30 }) as LogRecord;
    const res = (i: number) =>
      ({ v: 1, time: 1796040539260 + i / 8, session: 's-w', seq: 2 * i + 2, from: 'server', kind: 'response', id: i, method: 'tools/call', target: 'echo', reqSeq: 2 * i + 1, ms: i / 1000, bytes: 900 + i, level: 30 }) as LogRecord;
    // written through writeHead first: the member path teaches each shape its template (other tests here
    // may have filled the list; a new template is then learnt after 16 records written member by member)
    for (let i = 0; i < 40; i++) for (const rec of [req(i), res(i)]) expect(head(rec)).toBe(serializeHead(rec));
    for (let i = 40; i < 80; i++) {
      for (const rec of [req(i), res(i)]) {
        const tpl = findTemplate(rec);
        expect(tpl?.slot).toBeGreaterThanOrEqual(0);
        const out = Buffer.alloc(4096);
        const end = headFromWasm(rec, tpl!, out, 5, 4000);
        expect(end).toBeGreaterThan(5);
        expect(out.toString('utf8', 5, end)).toBe(serializeHead(rec));
      }
    }
  });
});
