/**
 * Answered requests are kept as columns of a ring with an int32 id index in typed arrays: both must
 * behave like the Map they replace, under random churn.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnsweredRing } from '../../src/session/answered-ring.js';
import { IntSlots } from '../../src/session/int-slots.js';
import type { PendingEntry } from '../../src/session/request-entry.js';

describe('IntSlots', () => {
  it('agrees with a Map under random sets and deletes, growing as needed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('set', 'set', 'delete', 'deleteIf'), fc.integer({ min: -50, max: 300 }), fc.nat(1000)), { maxLength: 600 }),
        (ops) => {
          const t = new IntSlots(1000, 64);
          const m = new Map<number, number>();
          for (const [op, key, slot] of ops) {
            if (op === 'set') {
              t.set(key, slot);
              m.set(key, slot);
            } else if (op === 'delete') {
              t.delete(key);
              m.delete(key);
            } else {
              t.delete(key, slot);
              if (m.get(key) === slot) m.delete(key);
            }
            expect(t.size).toBe(m.size);
          }
          for (let k = -50; k <= 300; k++) expect(t.get(k)).toBe(m.get(k));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('starts at the size its bound needs, and grows past 32,768 cells when the bound asks for more', () => {
    const t = new IntSlots(100_000);
    for (let i = 0; i < 60_000; i++) t.set(i * 31, i);
    for (let i = 0; i < 60_000; i += 3) t.delete(i * 31);
    for (let i = 0; i < 60_000; i++) expect(t.get(i * 31)).toBe(i % 3 ? i : undefined);
    expect(t.size).toBe(40_000);
  });

  it('finds keys whose probe runs wrap around the end of the table', () => {
    const t = new IntSlots(10_000);
    for (let i = 0; i < 10_000; i++) t.set(i * 7919, i);
    for (let i = 0; i < 10_000; i += 2) t.delete(i * 7919);
    for (let i = 0; i < 10_000; i++) expect(t.get(i * 7919)).toBe(i % 2 ? i : undefined);
  });
});

describe('AnsweredRing', () => {
  const entry = (id: string | number, seq: number, target?: string): PendingEntry => ({ id, method: 'm', seq, time: seq / 10, ...(target ? { target } : {}) });

  it('remembers exactly the newest `capacity` answers, string and number ids apart', () => {
    const r = new AnsweredRing(100);
    for (let i = 0; i < 1000; i++) r.add(entry(i % 2 ? i : `s${i}`, i, i % 3 ? 't' : undefined), i + 1);
    for (let i = 0; i < 1000; i++) {
      const got = r.get(i % 2 ? i : `s${i}`);
      if (i < 900) expect(got).toBeUndefined();
      else expect(got).toEqual({ id: i % 2 ? i : `s${i}`, method: 'm', seq: i, time: i / 10, answerSeq: i + 1, ...(i % 3 ? { target: 't' } : {}) });
    }
    expect(r.get('900')).toBeUndefined(); // "900" is not 900
  });

  it('keeps an id answered again at its newest slot while the older slot is reused', () => {
    const r = new AnsweredRing(4);
    r.add(entry(7, 1), 2);
    r.add(entry(8, 3), 4);
    r.add(entry(7, 5), 6); // id 7 reused and answered again
    r.add(entry(9, 7), undefined);
    r.add(entry(10, 9), 10); // overwrites the first slot (the old 7)
    expect(r.get(7)).toMatchObject({ seq: 5, answerSeq: 6 });
    expect(r.get(9)).toEqual({ id: 9, method: 'm', seq: 7, time: 0.7 });
    r.delete(7);
    expect(r.get(7)).toBeUndefined();
  });
});
