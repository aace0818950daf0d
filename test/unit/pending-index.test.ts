import { describe, expect, it } from 'vitest';
import { PendingIndex } from '../../src/session/pending-index.js';

describe('PendingIndex', () => {
  it('keeps ids with their type, replaces and deletes', () => {
    const p = new PendingIndex<string>(10);
    p.set(1, 'one');
    p.set('1', 'string one');
    p.set(-5, 'minus five');
    p.set(2 ** 40, 'not int32');
    expect(p.get(1)).toBe('one');
    expect(p.get('1')).toBe('string one');
    expect(p.get(-5)).toBe('minus five');
    expect(p.get(2 ** 40)).toBe('not int32');
    expect(p.get(2)).toBeUndefined();
    p.set(1, 'one again');
    expect(p.get(1)).toBe('one again');
    p.delete(1);
    p.delete(1);
    p.delete(99);
    expect(p.get(1)).toBeUndefined();
    expect([p.get('1'), p.get(-5), p.get(2 ** 40)]).toEqual(['string one', 'minus five', 'not int32']);
  });

  it('follows a long session of requests in and out, and a burst past its first size', () => {
    const p = new PendingIndex<number>(10_000);
    const live = new Set<number>();
    // 64 in flight for 100,000 requests, then 5,000 pending at once
    for (let id = 0; id < 100_000; id++) {
      p.set(id, id * 2);
      live.add(id);
      if (id >= 64) {
        const old = id - 64;
        expect(p.get(old)).toBe(old * 2);
        p.delete(old);
        live.delete(old);
      }
    }
    for (let id = 200_000; id < 205_000; id++) {
      p.set(id, id * 2);
      live.add(id);
    }
    for (const id of live) expect(p.get(id)).toBe(id * 2);
    for (let id = 0; id < 100_000 - 64; id++) if (p.get(id) !== undefined) expect.fail(`${id} was deleted`);
  });
});
