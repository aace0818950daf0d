import { describe, expect, it } from 'vitest';
import { RecordQueue, unwrittenOf } from '../../src/log/record-queue.js';

const line = (i: number): string => `{"seq":${i}}\n`;

describe('RecordQueue', () => {
  it('keeps every record boundary when an arena holds thousands of small records', () => {
    const q = new RecordQueue();
    const n = 5000;
    for (let i = 0; i < n; i++) q.appendText(line(i), undefined, i % 7 === 0 ? 1 : 0);
    // the last one is taken back: the boundary before it is the arena's end again
    expect(q.dropLast()).toBe(0);
    expect(q.count).toBe(n - 1);
    const job = q.take(undefined, false)!;
    expect(job.records).toBe(n - 1);
    expect(job.ends).toHaveLength(n - 1);
    const text = job.buf.subarray(job.start, job.end).toString('latin1');
    expect(text).toBe(Array.from({ length: n - 1 }, (_, i) => line(i)).join(''));
    // each end is the byte after a record's line end, in order
    let at = job.start;
    for (let i = 0; i < n - 1; i++) {
      at += line(i).length;
      expect(job.ends[i]).toBe(at);
    }
    expect(job.carries).toBe(Math.ceil((n - 1) / 7));
    // a write that stopped in the middle lost the records after the point, with what they carried
    const mid = job.ends[2999]! + 3;
    const lost = unwrittenOf(job, mid);
    expect(lost.records).toBe(n - 1 - 3000);
    expect(lost.torn).toBe(true);
    let carried = 0;
    for (let i = 3000; i < n - 1; i++) carried += i % 7 === 0 ? 1 : 0;
    expect(lost.carries).toBe(carried);
    // a write that stopped just before a record's line end kept that record (and what it carried): the
    // file holds it whole, and the next write ends its line
    const endless = unwrittenOf(job, job.ends[2999]! - 1);
    expect(endless.records).toBe(n - 1 - 3000);
    expect(endless.torn).toBe(true);
    expect(endless.carries).toBe(carried);
    // one byte earlier the record is torn, and lost
    expect(unwrittenOf(job, job.ends[2999]! - 2).records).toBe(n - 1 - 2999);
  });

  it('reuses a released arena with its columns for the next records', () => {
    const q = new RecordQueue();
    for (let i = 0; i < 3000; i++) q.appendText(line(i), undefined, 0);
    const first = q.take(undefined, false)!;
    q.release(first);
    for (let i = 0; i < 10; i++) q.appendText(line(i), undefined, 2);
    const second = q.take(undefined, false)!;
    expect(second.buf).toBe(first.buf);
    expect(second.records).toBe(10);
    expect(second.carries).toBe(20);
    expect(second.buf.subarray(second.start, second.end).toString('latin1')).toBe(Array.from({ length: 10 }, (_, i) => line(i)).join(''));
  });
});
