import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/session/bounded-map.js';
import { Exchanges } from '../../src/session/exchanges.js';
import { RequestTable, type PendingEntry } from '../../src/session/pairing.js';

const entry = (id: string | number, seq: number): PendingEntry => ({ id, method: 'm', seq, time: seq });

describe('BoundedMap', () => {
  it('keeps at most its capacity and the most recent half at least', () => {
    const m = new BoundedMap<number, number>(100);
    for (let i = 0; i < 10_000; i++) m.set(i, i);
    expect(m.size).toBeLessThanOrEqual(100);
    for (let i = 9_950; i < 10_000; i++) expect(m.get(i)).toBe(i);
    expect(m.get(0)).toBeUndefined();
    expect(m.evicted).toBe(10_000 - m.size);
  });

  it('compares keys with their type and refreshes re-set keys', () => {
    const m = new BoundedMap<string | number, string>(4);
    m.set(1, 'num');
    m.set('1', 'str');
    expect(m.get(1)).toBe('num');
    expect(m.get('1')).toBe('str');
    m.set(1, 'again'); // moved to the young generation
    m.set('a', 'x');
    m.set('b', 'y');
    expect(m.get(1)).toBe('again');
    expect(m.delete(1)).toBe(true);
    expect(m.has(1)).toBe(false);
  });

  it('deletes from whichever generation holds the key, its last entry too, and both copies of a re-set key', () => {
    const m = new BoundedMap<number, string>(4); // a generation turns old at 2 entries
    m.set(1, 'a');
    expect(m.delete(1)).toBe(true);
    expect(m.delete(1)).toBe(false);
    expect(m.size).toBe(0);
    m.set(1, 'a');
    m.set(2, 'b'); // old: 1, 2
    m.set(3, 'c'); // young: 3
    expect(m.delete(1)).toBe(true);
    expect(m.delete(2)).toBe(true); // the old generation's last entry
    expect(m.delete(3)).toBe(true); // the young generation's only entry
    expect(m.size).toBe(0);
    m.set(4, 'd');
    m.set(5, 'e'); // old: 4, 5
    m.set(4, 'D'); // young: 4 (the old copy stays until its generation goes)
    expect(m.delete(4)).toBe(true);
    expect(m.has(4)).toBe(false);
    expect(m.get(5)).toBe('e');
  });
});

describe('RequestTable', () => {
  it('pairs first in, first out per id', () => {
    const t = new RequestTable(10);
    t.add(entry(1, 1));
    t.add(entry(1, 2));
    t.add(entry('1', 3));
    expect(t.pendingFirst(1)?.seq).toBe(1);
    expect(t.pendingLast(1)?.seq).toBe(2);
    expect(t.take(1)).toMatchObject({ status: 'pending', entry: { seq: 1 } });
    expect(t.take(1)).toMatchObject({ status: 'pending', entry: { seq: 2 } });
    expect(t.take(1)).toMatchObject({ status: 'answered', entry: { seq: 2 } });
    expect(t.take('1')).toMatchObject({ status: 'pending', entry: { seq: 3 } });
    expect(t.take(2)).toEqual({ status: 'unknown' });
    expect(t.size).toBe(0);
  });

  it('lists the pending requests in arrival order, also the elements of one batch (one seq) after freed slots are reused', () => {
    const t = new RequestTable(10);
    t.add(entry(1, 1));
    t.add(entry(2, 2));
    t.take(1);
    t.take(2);
    // a batch: its elements share the batch's seq, and arrive in element order
    t.add(entry(3, 7));
    t.add(entry(4, 7));
    t.add(entry('x', 7));
    t.add(entry(5, 8));
    expect(t.list().map((e) => e.id)).toEqual([3, 4, 'x', 5]);
  });

  it('evicts the oldest open entry, skipping answered ones, in O(1) amortised', () => {
    const t = new RequestTable(3);
    t.add(entry(1, 1));
    t.add(entry(2, 2));
    t.take(1);
    t.add(entry(3, 3));
    t.add(entry(4, 4));
    expect(t.add(entry(5, 5))?.seq).toBe(2);
    expect(t.list().map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(t.take(2)).toMatchObject({ status: 'evicted', entry: { seq: 2 } });
    expect(t.evicted).toBe(1);
  });

  it('lets go of answered requests at once, in-order answers and a late one alike', async () => {
    // kept in the arrival order until a sweep, answered entries lived long enough to be promoted to V8's
    // old generation in a busy session; they must be garbage as soon as they are answered
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const t = new RequestTable(1000);
    const refs: WeakRef<PendingEntry>[] = [];
    const late = entry('late', 0);
    t.add(late); // the oldest stays pending a while: entries answered behind it are let go all the same once it is
    for (let i = 1; i <= 500; i++) {
      const e = entry(i, i);
      if (i <= 100) refs.push(new WeakRef(e));
      t.add(e);
      expect(t.take(i, 1000 + i).status).toBe('pending');
    }
    expect(t.take('late', 2000).status).toBe('pending');
    t.add(entry(501, 501));
    await new Promise((r) => setTimeout(r, 0));
    gc();
    await new Promise((r) => setTimeout(r, 0));
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    // still remembered as answered (duplicate answers are told) without keeping the entries
    expect(t.take(7, 3000).status).toBe('answered');
    expect(t.size).toBe(1);
  });

  it('stays bounded under a flood of answered and unanswered requests', () => {
    const t = new RequestTable(50);
    for (let i = 0; i < 100_000; i++) {
      t.add(entry(i, i + 1));
      if (i % 3 !== 0) t.take(i);
    }
    expect(t.size).toBe(50);
    expect((t as unknown as { order: unknown[] }).order.length).toBeLessThan(50 * 2 + 1024 + 2);
  });
});

describe('Exchanges', () => {
  it('matches by requestState first, else by method and target, newest first', () => {
    const x = new Exchanges(10);
    x.add({ firstSeq: 1, firstTime: 0, method: 'tools/call', target: 'a' });
    x.add({ firstSeq: 2, firstTime: 0, method: 'tools/call', target: 'a', requestState: 's' });
    x.add({ firstSeq: 3, firstTime: 0, method: 'tools/call', target: 'a' });
    expect(x.match('tools/call', 'a', 's')?.firstSeq).toBe(2);
    expect(x.match('tools/call', 'a', undefined)?.firstSeq).toBe(3);
    expect(x.match('tools/call', 'b', undefined)).toBeUndefined();
    expect(x.match('tools/call', 'a', undefined)?.firstSeq).toBe(1);
    expect(x.match('tools/call', 'a', undefined)).toBeUndefined();
  });
});
