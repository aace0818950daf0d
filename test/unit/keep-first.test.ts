/**
 * The bounded fold readers apply to bad records: the first `perKey` of each key are kept and the rest
 * counted; keys past `maxKeys` share one `(other)` slot, asked about as well as taken from; no more than
 * `maxTotal` are kept in all; a record kept for one of its keys is shown, so its keys without room are
 * not counted as left out.
 */
import { describe, expect, it } from 'vitest';
import { KeepFirst, OTHER_KEY, takeAny } from '../../src/log/keep-first.js';

describe('KeepFirst', () => {
  it('keeps the first perKey of each key and counts the rest, in the order keys appeared', () => {
    const k = new KeepFirst({ perKey: 2 });
    expect(['a', 'b', 'a', 'a', 'b', 'b', 'b'].map((x) => k.take(x))).toEqual([true, true, true, false, true, false, false]);
    expect(k.omitted()).toEqual([
      { key: 'a', count: 1 },
      { key: 'b', count: 2 },
    ]);
    expect(k.totalOmitted()).toBe(3);
  });

  it('counts keys past maxKeys under (other), whose room hasRoom reports too', () => {
    const k = new KeepFirst({ perKey: 1, maxKeys: 2 });
    expect(k.take('a')).toBe(true);
    expect(k.take('b')).toBe(true);
    expect(k.hasRoom('c')).toBe(true);
    expect(k.take('c')).toBe(true);
    // (other) has had its one: a fourth and a fifth key have no room
    expect(k.hasRoom('d')).toBe(false);
    expect(k.hasRoom('e')).toBe(false);
    expect(k.take('d')).toBe(false);
    expect(takeAny(k, ['e'])).toBe(false);
    expect(k.omitted()).toEqual([{ key: OTHER_KEY, count: 2 }]);
  });

  it('keeps no more than maxTotal over all keys', () => {
    const k = new KeepFirst({ perKey: 5, maxTotal: 3 });
    expect(['a', 'a', 'b', 'b', 'c'].map((x) => k.take(x))).toEqual([true, true, true, false, false]);
    expect(k.hasRoom('d')).toBe(false);
    expect(k.omitted()).toEqual([
      { key: 'b', count: 1 },
      { key: 'c', count: 1 },
    ]);
  });
});

describe('takeAny', () => {
  it('keeps a record while one of its keys has room, without counting its full keys as left out', () => {
    const k = new KeepFirst({ perKey: 1 });
    expect(takeAny(k, ['a'])).toBe(true);
    expect(takeAny(k, ['a', 'b'])).toBe(true);
    expect(k.omitted()).toEqual([]);
    expect(takeAny(k, ['a', 'b'])).toBe(false);
    expect(k.omitted()).toEqual([
      { key: 'a', count: 1 },
      { key: 'b', count: 1 },
    ]);
  });
});
